import { find } from "./look.ts"
import { chooseOptions } from "./pick.ts"

export const fire = (element: Element, type: string): void => {
  element.dispatchEvent(new Event(type, { bubbles: true }))
}

export const setNativeValue = (
  element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  value: string,
): void => {
  const prototype = Object.getPrototypeOf(element) as object
  const setter = Object.getOwnPropertyDescriptor(prototype, "value")?.set
  if (setter !== undefined) setter.call(element, value)
  else element.value = value
}

/**
 * In-page actions for what trusted input cannot express well: choosing options, setting a slider,
 * clearing, focusing, checking by state, and page scrolling. Clicks and typing belong to the driver.
 */
export const act = (ref: string, op: string, value?: string | number | ReadonlyArray<string>) => {
  if (ref === "_page") return pageAct(op)
  const found = find(ref)
  if (found === undefined)
    return { ok: false, stale: true, ref, message: `ref ${ref} is stale: call look() to refresh` }
  const element = found.element as HTMLElement
  switch (op) {
    case "focus":
      element.focus()
      return { ok: true }
    case "clear": {
      if (element.isContentEditable) element.textContent = ""
      else setNativeValue(element as HTMLInputElement, "")
      fire(element, "input")
      fire(element, "change")
      return { ok: true }
    }
    case "input": {
      const text = String(value ?? "")
      element.focus()
      if (element.isContentEditable) element.textContent = text
      else setNativeValue(element as HTMLInputElement, text)
      fire(element, "input")
      fire(element, "change")
      return { ok: true }
    }
    case "check":
    case "uncheck": {
      const want = op === "check"
      const current =
        element.localName === "input"
          ? (element as HTMLInputElement).checked
          : element.getAttribute("aria-checked") === "true"
      if (current !== want) element.click()
      return { ok: true }
    }
    case "select": {
      const wanted = Array.isArray(value) ? value : [String(value ?? "")]
      const choice = chooseOptions(element, wanted)
      if (choice.ok) return { ok: true }
      if (choice.reason === "notselect")
        return {
          ok: false,
          message: `${ref} is not a native select: click it and then click the option's ref`,
        }
      if (choice.reason === "toomany")
        return { ok: false, message: `${ref} takes one option, got ${choice.count}` }
      return {
        ok: false,
        message: `no option of ${ref} matches ${choice.wanted.trim()}: options are ${choice.options.join(", ")}`,
      }
    }
    case "set": {
      if (element.localName === "input") {
        setNativeValue(element as HTMLInputElement, String(value ?? ""))
        fire(element, "input")
        fire(element, "change")
        return { ok: true }
      }
      element.setAttribute("aria-valuenow", String(value ?? ""))
      fire(element, "change")
      return { ok: true }
    }
    case "click":
      element.click()
      return { ok: true }
    default:
      return { ok: false, message: `${op} is not an in-page action: use the driver's input actions` }
  }
}

export const pageAct = (op: string) => {
  const scrolling = document.scrollingElement ?? document.documentElement
  switch (op) {
    case "scroll down":
      window.scrollBy({ top: window.innerHeight * 0.8, behavior: "instant" })
      break
    case "scroll up":
      window.scrollBy({ top: -window.innerHeight * 0.8, behavior: "instant" })
      break
    case "scroll top":
      window.scrollTo({ top: 0, behavior: "instant" })
      break
    case "scroll bottom":
      window.scrollTo({ top: scrolling.scrollHeight, behavior: "instant" })
      break
    case "back":
      history.back()
      break
    case "refresh":
      location.reload()
      break
    default:
      return {
        ok: false,
        message: `${op} is not a page action: use scroll down, scroll up, scroll top, scroll bottom, back or refresh`,
      }
  }
  return {
    ok: true,
    y: Math.round(scrolling.scrollTop),
    height: Math.round(scrolling.scrollHeight),
    viewportHeight: window.innerHeight,
    atBottom: scrolling.scrollTop + window.innerHeight >= scrolling.scrollHeight - 2,
  }
}
