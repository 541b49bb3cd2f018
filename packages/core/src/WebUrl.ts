/**
 * What {@link readWebUrl} makes of a URL written by a plan, a model or a page: the parsed http(s) URL,
 * or why it is refused.
 */
export type WebUrlReading =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly problem: "not-a-url" | "scheme" | "ambiguous"; readonly detail: string }

const probeBases = ["http://page.invalid/dir/", "https://page.invalid/dir/"]

const isWeb = (url: URL): boolean => url.protocol === "http:" || url.protocol === "https:"

/**
 * Reads a URL the way a browser or `fetch` would (the WHATWG URL parser), refusing what must never be
 * loaded: schemes other than http and https (`javascript:`, `data:`, `file:` …) and URLs whose meaning
 * depends on where they are read. `http:127.0.0.1:9/x` and `http:\\host\x` are the tricky cases: read
 * alone they point at another host, read against an http page they are paths of that page. A checker
 * that resolves against the page while the loader does not (or the other way round) would pass one URL
 * and load another, so such URLs are refused unless both readings agree.
 *
 * `base` is the page the URL was found on; without it the URL must be absolute.
 *
 * @example
 * ```ts
 * import { readWebUrl } from "@sextant/core"
 * readWebUrl("http://127.0.0.1:4000/login").ok // true
 * readWebUrl("javascript:alert(1)").ok // false (scheme)
 * readWebUrl("http:127.0.0.1:9/x", "http://127.0.0.1:4000/").ok // false (ambiguous)
 * ```
 */
export const readWebUrl = (raw: string, base?: string): WebUrlReading => {
  const text = raw.trim()
  const alone = URL.parse(text)
  const usableBase = base === undefined || base === "about:blank" ? undefined : base
  const resolved = usableBase === undefined ? alone : URL.parse(text, usableBase)
  if (resolved === null) {
    return {
      ok: false,
      problem: "not-a-url",
      detail: `${JSON.stringify(raw.slice(0, 200))} is not a URL: give an absolute http(s) URL such as http://host/path`,
    }
  }
  if (!isWeb(resolved) || (alone !== null && !isWeb(alone))) {
    const protocol = alone !== null && !isWeb(alone) ? alone.protocol : resolved.protocol
    return {
      ok: false,
      problem: "scheme",
      detail: `${protocol} URLs are refused (${text.slice(0, 80)}): only http and https pages may be loaded`,
    }
  }
  // Without a page to read it against, the URL must mean the same on any http or https page.
  const other =
    alone === null
      ? undefined
      : [usableBase, ...probeBases]
          .map((candidate) => (candidate === undefined ? null : URL.parse(text, candidate)))
          .find((reading) => reading !== null && reading.href !== alone.href)
  if (alone !== null && other != null) {
    return {
      ok: false,
      problem: "ambiguous",
      detail: `${JSON.stringify(text.slice(0, 200))} means ${alone.href} on its own but ${other.href} when read on a page: write the URL in full as ${alone.protocol}//host/path`,
    }
  }
  return { ok: true, url: resolved }
}

/**
 * The URL's origin when {@link readWebUrl} accepts it, e.g. `http://127.0.0.1:4000`; undefined otherwise.
 *
 * @example
 * ```ts
 * import { webOrigin } from "@sextant/core"
 * webOrigin("http://127.0.0.1:4000/login?next=/") // "http://127.0.0.1:4000"
 * ```
 */
export const webOrigin = (raw: string, base?: string): string | undefined => {
  const reading = readWebUrl(raw, base)
  return reading.ok ? reading.url.origin : undefined
}
