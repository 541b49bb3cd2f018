/*
 * Link targets as the outline prints them: short, without tracking parameters or opaque ids. The
 * outline's target is a hint of where a link goes, never the way to it: acting by ref needs no URL,
 * and `elements[ref].attributes.href` keeps the whole target.
 */

/** Query parameters that only track a click (ad, mail and share campaigns, referrers); a link target drops them. */
export const TRACKING =
  /^(utm_\w+|fbclid|gclid|gclsrc|dclid|wbraid|gbraid|msclkid|twclid|ttclid|li_fat_id|mc_cid|mc_eid|_ga|_gl|ref|ref_?src|ref_?url|ref_?id|referrer|cmpid|intcmp|abcmp|icid|xtor|hpt|ncid|ocid|smid|sr_share|igshid|yclid|spm|scm|trk|trkCampaign|trkInfo|__twitter_impression|_hsenc|_hsmi|mkt_tok|s_cid|s_kwcid|ef_id|wt\.\w+|pk_\w+|mtm_\w+|at_\w+|vero_\w+|oly_\w+|rb_clickid|srsltid)$/i
/** A path segment or query value this long with a digit in it is an opaque id. */
export const OPAQUE = /^(?=[\w~.=%+-]{16,}$)(?=.*\d)[\w~.=%+-]+$/
/** Characters an opaque id keeps before its "…": enough to tell two ids apart, not to copy one. */
export const OPAQUE_KEEP = 8
/** A query value longer than this keeps its start and "…"; a value that is a URL prints as "…". */
export const LONG_VALUE = 24
/** A path segment of words (a title slug) longer than this keeps its first words and "…". */
export const LONG_SLUG = 32
/** The most characters a printed target has; the rest is cut with "…". */
export const MAX_TARGET = 64

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** A percent-encoded part as the characters it stands for, when they are printable (non-ASCII words read shorter so). */
const decoded = (part: string): string => {
  if (!part.includes("%")) return part
  try {
    const text = decodeURIComponent(part)
    return /[\s\p{C}/?#&=]/u.test(text) ? part : text
  } catch {
    return part
  }
}

/** A path segment as printed: an opaque id cut to its start, a long title slug cut to its first words. */
export const shortSegment = (segment: string): string => {
  const text = decoded(segment)
  if (text === segment && OPAQUE.test(segment)) return `${segment.slice(0, OPAQUE_KEEP)}…`
  if (text.length <= LONG_SLUG) return text
  const words = text.split(/(?<=[-_])/)
  if (words.length < 3) return text
  let kept = ""
  for (const word of words) {
    if ((kept + word).length > LONG_SLUG * 0.75) break
    kept += word
  }
  return `${(kept || words[0]!).replace(/[-_]$/, "")}…`
}

/** A query value as printed: a URL carried along (a share or redirect link) as "…", a long value by its start. */
export const shortValue = (value: string): string => {
  if (/^[a-z][\w+.-]*:\/\/|^www\./i.test(value)) return "…"
  if (OPAQUE.test(value)) return `${value.slice(0, OPAQUE_KEEP)}…`
  const text = value.replace(/\s+/g, "+")
  return text.length > LONG_VALUE ? `${text.slice(0, LONG_VALUE - 8).replace(/\+$/, "")}…` : text
}

/** The query of a target without tracking parameters, each value shortened. */
const shortQuery = (params: URLSearchParams): string => {
  const query: string[] = []
  for (const [key, value] of params)
    if (!TRACKING.test(key)) query.push(value === "" ? key : `${key}=${shortValue(value)}`)
  return query.length > 0 ? `?${query.join("&")}` : ""
}

/**
 * The target of a link as the outline prints it, at most `MAX_TARGET` characters: a path when it
 * stays on the page's origin (`#fragment` on the same page), with tracking parameters left out and
 * opaque ids, long title slugs, long query values and URLs carried in the query shortened with "…";
 * on another site, its host without `www.` and the first segment of its path, then `/…` when the
 * path or query goes on.
 */
export const shortUrl = (
  href: string,
  base: Pick<Location, "href" | "origin" | "pathname" | "search">,
): string => {
  if (href.startsWith("javascript:")) return ""
  let url: URL
  try {
    url = new URL(href, base.href)
  } catch {
    return cut(href, MAX_TARGET)
  }
  if (url.origin === base.origin && url.pathname === base.pathname && url.search === base.search && url.hash)
    return cut(url.hash, MAX_TARGET)
  const web = url.protocol === "http:" || url.protocol === "https:"
  const path = url.pathname.split("/").map(shortSegment).join("/")
  const search = shortQuery(url.searchParams)
  if (!web) {
    // mailto:, tel:, an app's own scheme (whatsapp://send?text=…): what it opens; its query is the
    // message it would prefill.
    const host = url.host ? `//${url.host}` : ""
    return cut(`${url.protocol}${host}${path}${search ? "?…" : ""}`, MAX_TARGET)
  }
  const host = url.host.replace(/^www\./, "")
  if (url.origin === base.origin)
    return cut(path + search + (url.hash.length <= 40 ? url.hash : ""), MAX_TARGET)
  // Another site: its host and first path segment say where the link goes; the rest is its own affair.
  const [, first = "", ...rest] = path.split("/")
  const more = rest.some((segment) => segment !== "") ? "/…" : search !== "" ? "?…" : ""
  return cut(`${host}${first ? `/${first}` : ""}${more}`, MAX_TARGET)
}

/**
 * The document a link leads to, whole and without its fragment, or "" when it stays on this page (a
 * fragment, a `javascript:` link, a link to the page itself: what those do is up to the page's scripts).
 */
export const documentTarget = (href: string, base: Pick<Location, "href">): string => {
  let url: URL
  try {
    url = new URL(href, base.href)
  } catch {
    return ""
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return ""
  url.hash = ""
  const page = new URL(base.href)
  page.hash = ""
  return url.href === page.href ? "" : url.href
}

/** Most links a page's cache of targets holds before it starts anew. */
const MAX_CACHED_TARGETS = 20_000
/** `linkTarget`'s answers for the page at `cachedBase`: a page lists the same links look after look. */
const cachedTargets = new Map<string, [short: string, target: string]>()
let cachedBase = ""

/**
 * A link's printed target (`shortUrl`) and the document it leads to (`documentTarget`), remembered
 * per address while the page stays at one address: both depend on nothing else, and parsing every
 * link's URL on every look was a sixth of a look's time.
 */
export const linkTarget = (
  href: string,
  base: Pick<Location, "href" | "origin" | "pathname" | "search">,
): [short: string, target: string] => {
  const page = base.href
  if (page !== cachedBase || cachedTargets.size >= MAX_CACHED_TARGETS) {
    cachedTargets.clear()
    cachedBase = page
  }
  let known = cachedTargets.get(href)
  if (known === undefined) {
    known = [shortUrl(href, base), documentTarget(href, base)]
    cachedTargets.set(href, known)
  }
  return known
}
