import { rectOf } from "./frames.ts"
import { INLINE } from "./roles.ts"
import type { Box } from "./types.ts"

/* Visibility: what the walker leaves out as unseen, and whether a box is on screen. */

/** Styled invisible: its own text is hidden, though children that set `visibility: visible` show. */
export const hiddenByStyle = (style: CSSStyleDeclaration): boolean =>
  style.visibility === "hidden" || style.visibility === "collapse"

/**
 * A block that takes no space and shows nothing: empty, or clipping what it holds. A zero-size
 * block with visible overflow still shows its children (a float container, an absolutely placed
 * menu), and inline elements, iframes and images are measured otherwise.
 */
export const takesNoSpace = (element: Element, tag: string, style: CSSStyleDeclaration): boolean => {
  // The cheap tests first: a box's size is read only when it would decide.
  if (INLINE.has(tag) || tag === "iframe" || tag === "img") return false
  if (element.firstElementChild !== null && style.overflow === "visible") return false
  if (element.clientWidth !== 0 || element.clientHeight !== 0) return false
  const rect = element.getBoundingClientRect()
  return rect.width === 0 && rect.height === 0
}

/**
 * Still in the document and rendered (not display:none, not visibility:hidden), for a ref to act on.
 * An element laid out as `display: contents` has no box of its own: it shows where its parent does.
 */
export const rendered = (element: Element): boolean => {
  if (!element.isConnected) return false
  if ((element as HTMLElement).checkVisibility?.({ visibilityProperty: true }) !== false) return true
  const style = (element.ownerDocument.defaultView ?? window).getComputedStyle(element)
  if (style.display !== "contents" || style.visibility !== "visible") return false
  return element.parentElement !== null && rendered(element.parentElement)
}

/** A box in top-level viewport pixels overlaps the viewport. */
export const inViewport = (box: Box): boolean =>
  box.x + box.width > 0 && box.y + box.height > 0 && box.x < window.innerWidth && box.y < window.innerHeight

/** A box with an area that overlaps the viewport: what `look` reports as `visible`. */
export const visibleBox = (box: Box): boolean => box.width > 0 && box.height > 0 && inViewport(box)

/**
 * Rendered with an area: what trusted input can be aimed at (or else at the element's label), and
 * what waiting for an element to be "visible" waits for. One rule with `rendered` and `rectOf`, so
 * an element laid out as `display: contents` shows where its content does.
 */
export const shown = (element: Element): boolean => {
  if (!rendered(element)) return false
  const rect = rectOf(element)
  return rect.width > 0 && rect.height > 0
}

/** A box in top-level viewport pixels lies entirely inside the viewport: no scroll needed to aim. */
export const withinViewport = (box: Box): boolean =>
  box.x >= 0 &&
  box.y >= 0 &&
  box.x + box.width <= window.innerWidth &&
  box.y + box.height <= window.innerHeight
