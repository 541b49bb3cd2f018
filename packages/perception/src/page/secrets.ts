/* Fields whose values never leave the page: passwords and what the caller marks secret. */

export const isSecret = (element: Element, secretSelectors: ReadonlyArray<string>): boolean => {
  if (element.localName === "input") {
    const input = element as HTMLInputElement
    if (input.type === "password") return true
    if (/password/i.test(input.autocomplete)) return true
  }
  for (const selector of secretSelectors) {
    try {
      if (element.matches(selector) || element.closest(selector) !== null) return true
    } catch {
      // An invalid selector marks nothing; the caller validated the ones it cares about.
    }
  }
  return false
}
