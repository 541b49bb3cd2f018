import { BrowserDriver, type PageElement, type PageSnapshot } from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"

/** Visible, enabled elements of a snapshot, in ref order. */
export const usable = (snapshot: PageSnapshot): ReadonlyArray<PageElement> =>
  Object.values(snapshot.elements).filter((element) => element.visible && element.disabled !== true)

/** The first element whose accessible name (or placeholder, name or id attribute) fits `pattern`. */
export const named = (elements: ReadonlyArray<PageElement>, pattern: RegExp): PageElement | undefined =>
  elements.find((element) =>
    [element.name, element.attributes.placeholder, element.attributes.name, element.attributes.id].some(
      (text) => text !== undefined && pattern.test(text),
    ),
  )

/**
 * The error text the page shows: the snapshot's alert outputs first, else any visible element with
 * `role="alert"` or `aria-live="assertive"`, else an element marked invalid's description (perception's
 * `errorText`).
 */
export const pageErrorText = Effect.fn("tools.pageErrorText")(function* (snapshot: PageSnapshot) {
  const alert = snapshot.outputs.find((output) => output.region === "alert" && output.text.trim() !== "")
  if (alert !== undefined) return alert.text.trim()
  const driver = yield* BrowserDriver
  return yield* pageCall(driver, "errorText")
})
