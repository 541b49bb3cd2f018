import { boxOf, frameOf, rectOf } from "./frames.ts"
import { find } from "./look.ts"
import { inViewport } from "./visibility.ts"

/* resolve(): a ref's element and its centre in top-level viewport pixels, for trusted input. */

export const resolve = (ref: string, options: { readonly scroll?: boolean } = {}) => {
  const found = find(ref)
  if (found === undefined)
    return { ok: false, stale: true, ref, message: `ref ${ref} is stale: call look() to refresh` }
  const { element } = found
  if (options.scroll !== false) {
    const rect = rectOf(element)
    const view = element.ownerDocument.defaultView ?? window
    if (rect.top < 0 || rect.left < 0 || rect.bottom > view.innerHeight || rect.right > view.innerWidth)
      element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" })
  }
  const frame = frameOf(element)
  const box = boxOf(element, frame)
  return {
    ok: true,
    ref,
    element:
      element.ownerDocument === document && frame.path.every((entry) => entry.endsWith("::shadow"))
        ? element
        : null,
    tag: element.localName,
    box,
    x: Math.round(box.x + box.width / 2),
    y: Math.round(box.y + box.height / 2),
    frame: frame.path,
    inViewport: inViewport(box),
  }
}
