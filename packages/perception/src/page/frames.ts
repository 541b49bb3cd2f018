import { frameEntry } from "./selectors.ts"
import type { Box, Frame } from "./types.ts"

/* Frames and boxes: where an element is in the top-level viewport, through iframes and shadow roots. */

export const boxOf = (element: Element, frame: Frame): Box => {
  const rect = element.getBoundingClientRect()
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
