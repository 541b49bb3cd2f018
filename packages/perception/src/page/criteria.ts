/* What a step's success criteria are judged on: read in one call, judged outside the page. */

/** What {@link criteriaFacts} counts and looks for. */
export interface CriteriaRequest {
  /** CSS selectors to count matches of (-1 for a selector the page cannot parse). */
  readonly selectors: ReadonlyArray<string>
  /** Texts to look for, as written, in the body's text. */
  readonly texts: ReadonlyArray<string>
}

/** The page as a step's criteria see it. */
export interface CriteriaFacts {
  readonly url: string
  readonly counts: Record<string, number>
  readonly texts: Record<string, boolean>
  /** The HTTP status of the document, when the browser reports it. */
  readonly status?: number | undefined
}

const navigationStatus = (): number | undefined => {
  try {
    if (typeof performance === "undefined") return undefined
    const entry = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined
    return entry?.responseStatus ? entry.responseStatus : undefined
  } catch {
    return undefined
  }
}

/** Counts the selectors' matches and looks for the texts in the top document, in one call. */
export const criteriaFacts = (request: CriteriaRequest): CriteriaFacts => {
  const counts: Record<string, number> = {}
  for (const selector of request.selectors) {
    try {
      counts[selector] = document.querySelectorAll(selector).length
    } catch {
      counts[selector] = -1
    }
  }
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what the criterion means
  const body = document.body ? document.body.innerText || document.body.textContent || "" : ""
  const texts: Record<string, boolean> = {}
  for (const text of request.texts) texts[text] = body.includes(text)
  return { url: String(location.href), counts, texts, status: navigationStatus() }
}
