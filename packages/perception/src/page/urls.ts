/* Link targets as the outline prints them: short, without tracking parameters or opaque ids. */

/** Query parameters that only track a click; a link target drops them. */
export const TRACKING =
  /^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_ga|_gl|ref_src|ref_url|cmpid|ncid|ocid|smid|sr_share|igshid|yclid|spm|trk|trkCampaign|__twitter_impression|_hsenc|_hsmi|mkt_tok)$/i
/** A path segment or query value this long with a digit in it is an opaque id. */
export const OPAQUE = /^(?=[\w~.=%+-]{16,}$)(?=.*\d)[\w~.=%+-]+$/

/** The target of a link, relative to the page when it stays on its origin, at most 80 characters. */
export const shortUrl = (
  href: string,
  base: Pick<Location, "href" | "origin" | "pathname" | "search">,
): string => {
  if (href.startsWith("javascript:")) return ""
  let url: URL
  try {
    url = new URL(href, base.href)
  } catch {
    return href
  }
  if (url.origin === base.origin && url.pathname === base.pathname && url.search === base.search && url.hash)
    return url.hash
  const web = url.protocol === "http:" || url.protocol === "https:"
  if (!web) return url.href.length > 80 ? `${url.href.slice(0, 77)}…` : url.href
  const opaque = (part: string): string => (OPAQUE.test(part) ? `${part.slice(0, 8)}…` : part)
  const path = url.pathname.split("/").map(opaque).join("/")
  const query: string[] = []
  for (const [key, value] of url.searchParams)
    if (!TRACKING.test(key)) query.push(value === "" ? key : `${key}=${opaque(value)}`)
  const search = query.length > 0 ? `?${query.join("&")}` : ""
  const text =
    url.origin === base.origin
      ? path + search + (url.hash.length <= 40 ? url.hash : "")
      : url.host.replace(/^www\./, "") + (path === "/" ? "" : path) + search
  return text.length > 80 ? `${text.slice(0, 77)}…` : text
}
