/**
 * The absolute http(s) address the navigate tool takes for an address as a person writes it: a full
 * URL as it is, a path (`/products`) against `base`, a bare host (`example.com/x`) over https.
 * Undefined for a path with no `base`, and for other schemes.
 */
export const absoluteUrl = (url: string, base: string | undefined): string | undefined => {
  if (/^https?:\/\//i.test(url)) return url
  if (url.startsWith("/")) {
    if (base === undefined || !URL.canParse(base)) return undefined
    return new URL(url, base).toString()
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return undefined
  return `https://${url}`
}
