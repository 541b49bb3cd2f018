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

/** The same-origin iframes an element is inside, from the top document down. */
const frameChain = (element: Element): HTMLIFrameElement[] => {
  let document = element.ownerDocument
  const chain: HTMLIFrameElement[] = []
  while (document.defaultView !== null && document.defaultView !== window) {
    const frameElement = document.defaultView.frameElement as HTMLIFrameElement | null
    if (frameElement === null) break
    chain.unshift(frameElement)
    document = frameElement.ownerDocument
  }
  return chain
}

/**
 * Where a frame's document starts in the viewport of the document holding the frame: past the
 * frame's border and its padding. The one offset rule: placing an element inside frames
 * (`frameOf`, `viewportRect`) adds it, finding the element at a point (`hitAt`) subtracts it.
 */
export const contentOrigin = (frameElement: Element): { readonly x: number; readonly y: number } => {
  const rect = frameElement.getBoundingClientRect()
  const style = (frameElement.ownerDocument.defaultView ?? window).getComputedStyle(frameElement)
  return {
    x: rect.x + frameElement.clientLeft + Number.parseFloat(style.paddingLeft || "0"),
    y: rect.y + frameElement.clientTop + Number.parseFloat(style.paddingTop || "0"),
  }
}

/** Where an element lives: its frame offset and path, from the top document down. */
export const frameOf = (element: Element): Frame => {
  let x = 0
  let y = 0
  const path: string[] = []
  for (const frameElement of frameChain(element)) {
    const origin = contentOrigin(frameElement)
    x += origin.x
    y += origin.y
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

/**
 * An element's rectangle in top-level viewport pixels, unrounded: where trusted input aims. Adds the
 * offsets of the frames it is inside, as `frameOf` does, without naming them.
 */
export const viewportRect = (element: Element): Box => {
  const rect = rectOf(element)
  let x = rect.x
  let y = rect.y
  for (const frameElement of frameChain(element)) {
    const origin = contentOrigin(frameElement)
    x += origin.x
    y += origin.y
  }
  return { x, y, width: rect.width, height: rect.height }
}

/**
 * The element at a point of the top-level viewport, looking into open shadow roots and same-origin
 * frames (a frame's document is entered past its border and padding). The frame itself when its
 * document is out of reach; null when nothing is there.
 */
export const hitAt = (x: number, y: number): Element | null => {
  let root: Document | ShadowRoot = document
  let hit: Element | null = null
  let localX = x
  let localY = y
  for (let depth = 0; depth < 16; depth++) {
    const found: Element | null = root.elementFromPoint(localX, localY)
    if (found === null) return hit
    hit = found
    if (found.shadowRoot !== null && found.shadowRoot !== root) {
      root = found.shadowRoot
      continue
    }
    if (found.localName === "iframe" || found.localName === "frame") {
      const inner = frameDocument(found)
      if (inner === null) return hit
      const origin = contentOrigin(found)
      localX -= origin.x
      localY -= origin.y
      root = inner
      continue
    }
    return hit
  }
  return hit
}

/**
 * Visits `top` and every frame below it the page can reach (same-origin frames, depth first), also a
 * frame inside an open shadow root, which `window.frames` does not list; a frame of another origin,
 * and what is inside it, is skipped: the page cannot reach it either.
 */
export const eachWindow = (visit: (view: Window) => void, top: Window = window): void => {
  for (const root of openRoots(top.document, true)) {
    const view = root.nodeType === 9 ? (root as Document).defaultView : null
    if (view !== null) visit(view)
  }
}

/**
 * The element that holds `node`: its parent element, or, for a node directly in a shadow root, the
 * root's host. Read by node type, so it holds for nodes of a same-origin frame too.
 */
export const parentAcrossShadow = (node: Node): Element | null => {
  const holder = node.parentNode
  return holder !== null && holder.nodeType === 11 ? (holder as ShadowRoot).host : node.parentElement
}

/**
 * `root` and every open shadow root inside it, nested ones too, depth first in document order; with
 * `frames`, also the documents of the same-origin frames inside them, and what is inside those. A
 * closed shadow root, and a frame of another origin, are out of reach and skipped. Lazy: a caller
 * that stops early walks no further.
 */
export function* openRoots(root: Document | ShadowRoot, frames = false): Generator<Document | ShadowRoot> {
  yield root
  for (const element of Array.from(root.querySelectorAll("*"))) {
    if (element.shadowRoot !== null) yield* openRoots(element.shadowRoot, frames)
    if (frames) {
      const inner = frameDocument(element)
      if (inner !== null) yield* openRoots(inner, frames)
    }
  }
}

/** The document inside a frame element (`iframe`, `frame`) when this page may read it; null otherwise. */
export const frameDocument = (element: Element): Document | null => {
  if (element.localName !== "iframe" && element.localName !== "frame") return null
  try {
    return (element as HTMLIFrameElement).contentDocument
  } catch {
    return null
  }
}
