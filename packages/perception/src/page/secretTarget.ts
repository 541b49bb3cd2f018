import { find } from "./look.ts"

/*
 * Where a step is about to type a secret: the page's origin, the origin of the document that holds
 * the target field (a frame's, when the field is in one), and where the field's form posts. Without a
 * target (the `login` tool finds its fields itself), the actions of the forms with a password field.
 */

/** The field a secret would be typed into, as the executor names it. */
export interface SecretTargetRequest {
  readonly ref?: string | undefined
  readonly selector?: string | undefined
  readonly label?: string | undefined
}

/** What kind of field a secret would go into. */
export interface SecretFieldKind {
  readonly tag: string
  /** An input's `type`, lower-cased (`text` when absent); empty for other elements. */
  readonly type: string
  readonly autocomplete: string
  readonly role: string
  readonly editable: boolean
  /** The field's name, id or label, for messages. */
  readonly name: string
  /** The role and the `method` attribute of the form the field is in; empty outside a form or when absent. */
  readonly formRole: string
  readonly formMethod: string
  /** Whether the field's form has a password field. */
  readonly formPassword: boolean
}

/** Where a secret would go. */
export interface SecretTarget {
  readonly probed: boolean
  readonly page?: string
  readonly field?: string
  readonly action?: string
  readonly forms?: ReadonlyArray<string>
  /** The field itself, when the target was found and is not a frame. */
  readonly kind?: SecretFieldKind
}

const originOf = (raw: string, base?: string): string => {
  try {
    const url = new URL(raw, base || document.baseURI)
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : `${url.protocol}…`
  } catch {
    return "(not a URL)"
  }
}

// A browser answers `form.action` resolved; a DOM without it (the fake driver's) has the attribute,
// which originOf resolves against the document's base URL.
const actionOf = (form: HTMLFormElement): string => {
  const attribute = form.getAttribute("action")
  if (attribute === null) return form.ownerDocument.location?.href ?? ""
  return typeof form.action === "string" ? form.action : attribute
}

const frameOrigin = (frame: HTMLIFrameElement): string => {
  try {
    const origin = frame.contentWindow?.origin
    if (origin !== undefined) return origin
  } catch {
    // Another origin's frame: its window's origin cannot be read; its src says where it loaded from.
  }
  return originOf(frame.src || "about:blank")
}

const byLabel = (label: string): Element | null => {
  const wanted = label.trim().toLowerCase()
  const fields = Array.from(document.querySelectorAll("input, textarea, [contenteditable=true]"))
  return (
    fields.find((field) => {
      const names = [
        field.getAttribute("aria-label"),
        field.getAttribute("placeholder"),
        field.getAttribute("name"),
        field.id,
        ...Array.from((field as HTMLInputElement).labels ?? []).map((element) => element.textContent),
      ]
      return names.some((name) => (name ? name.trim().toLowerCase().includes(wanted) : false))
    }) ?? null
  )
}

const targetElement = (target: SecretTargetRequest): Element | null => {
  if (target.ref) return find(target.ref)?.element ?? null
  if (target.selector) {
    try {
      return document.querySelector(target.selector)
    } catch {
      return null
    }
  }
  return target.label ? byLabel(String(target.label)) : null
}

const kindOf = (element: Element): SecretFieldKind => {
  const form = (element as HTMLInputElement).form ?? element.closest("form")
  const attribute = (name: string): string => element.getAttribute(name) ?? ""
  return {
    tag: element.localName,
    type: element.localName === "input" ? (attribute("type") || "text").toLowerCase() : "",
    autocomplete: attribute("autocomplete").toLowerCase(),
    role: attribute("role").toLowerCase(),
    editable: (element as HTMLElement).isContentEditable === true,
    name: (attribute("name") || element.id || attribute("aria-label") || "").slice(0, 40),
    formRole: form ? (form.getAttribute("role") ?? "").toLowerCase() : "",
    formMethod: form ? (form.getAttribute("method") ?? "").toLowerCase() : "",
    formPassword: form ? form.querySelector("input[type=password]") !== null : false,
  }
}

/** Reads where a secret typed into `target` would go, and the actions of the page's password forms. */
export const secretTarget = (target: SecretTargetRequest): SecretTarget => {
  const element = targetElement(target)
  let field: string | undefined
  let action: string | undefined
  let kind: SecretFieldKind | undefined
  if (element !== null) {
    if (element.localName === "iframe" || element.localName === "frame")
      field = frameOrigin(element as HTMLIFrameElement)
    else {
      field = element.ownerDocument.defaultView ? element.ownerDocument.defaultView.origin : window.origin
      const form = (element as HTMLInputElement).form
      if (form) action = originOf(actionOf(form), element.ownerDocument.baseURI)
      kind = kindOf(element)
    }
  }
  const forms: Array<string> = []
  for (const form of Array.from(document.querySelectorAll("form")))
    if (form.querySelector("input[type=password]")) forms.push(originOf(actionOf(form)))
  return {
    probed: true,
    page: window.origin,
    ...(field === undefined ? {} : { field }),
    ...(action === undefined ? {} : { action }),
    forms,
    ...(kind === undefined ? {} : { kind }),
  }
}
