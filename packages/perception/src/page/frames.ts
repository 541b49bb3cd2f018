import { frameEntry } from "./selectors.ts"
import type { Box, Frame } from "./types.ts"

/* Frames and boxes: where an element is in the top-level viewport, through iframes and shadow roots. */

/**
 * An element's rectangle in its own document. One laid out as `display: contents` has no box of its
 * own; what it holds is where it shows (a link around a card styled `display: contents`).
 */
export const rectOf = (element: Element): DOMRect => {
  const rect = element.getBoundingClientRect()
  if (rect.width > 0 || rect.height > 0) return rect
  const view = element.ownerDocument.defaultView ?? window
  if (view.getComputedStyle(element).display !== "contents") return rect
  let left = Number.POSITIVE_INFINITY
  let top = Number.POSITIVE_INFINITY
  let right = Number.NEGATIVE_INFINITY
  let bottom = Number.NEGATIVE_INFINITY
  const range = element.ownerDocument.createRange()
  for (let child = element.firstChild; child !== null; child = child.nextSibling) {
    let part: DOMRect | undefined
    if (child.nodeType === 1) part = rectOf(child as Element)
    else if (child.nodeType === 3 && (child.nodeValue ?? "").trim() !== "") {
      range.selectNode(child)
      part = range.getBoundingClientRect()
    }
    if (part === undefined || (part.width === 0 && part.height === 0)) continue
    left = Math.min(left, part.left)
    top = Math.min(top, part.top)
    right = Math.max(right, part.right)
    bottom = Math.max(bottom, part.bottom)
  }
  return left === Number.POSITIVE_INFINITY ? rect : new DOMRect(left, top, right - left, bottom - top)
}

export const boxOf = (element: Element, frame: Frame): Box => {
  const rect = rectOf(element)
  return {
    x: Math.round(rect.x + frame.x),
    y: Math.round(rect.y + frame.y),
    width: Math.round(rect.width),
    height: Math.round(rect.height),
  }
}

/** Where an element lives: its frame offset and path, from the top document down. */
export const frameOf = (element: Element): Frame => {
  let x = 0
  let y = 0
  const path: string[] = []
  let document = element.ownerDocument
  const chain: HTMLIFrameElement[] = []
  while (document.defaultView !== null && document.defaultView !== window) {
    const frameElement = document.defaultView.frameElement as HTMLIFrameElement | null
    if (frameElement === null) break
    chain.unshift(frameElement)
    document = frameElement.ownerDocument
  }
  for (const frameElement of chain) {
    const rect = frameElement.getBoundingClientRect()
    const style = getComputedStyle(frameElement)
    x += rect.x + frameElement.clientLeft + Number.parseFloat(style.paddingLeft || "0")
    y += rect.y + frameElement.clientTop + Number.parseFloat(style.paddingTop || "0")
    path.push(frameEntry(frameElement, frameElement.getRootNode() as Document | ShadowRoot))
  }
  const hosts: Element[] = []
  let root = element.getRootNode()
  while (root.nodeType === 11 && "host" in root) {
    const shadowHost = (root as ShadowRoot).host
    hosts.unshift(shadowHost)
    root = shadowHost.getRootNode()
  }
  for (const shadowHost of hosts)
    path.push(`${frameEntry(shadowHost, shadowHost.getRootNode() as Document | ShadowRoot)}::shadow`)
  return { x, y, path, root: element.getRootNode() as Document | ShadowRoot }
}
