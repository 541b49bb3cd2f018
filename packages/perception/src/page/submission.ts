import { resolve } from "./resolve.ts"

/* Where a form would send its fields: the checks that keep a typed secret on its origins (explorer, MCP). */

/**
 * Where the submit control a selector names sends its form: its own `formaction`, else its form's
 * action; the page's URL for a control in no form element (a script-driven form submits nothing
 * itself); null when no element matches.
 */
export const submissionTarget = (selector: string): string | null => {
  const control = document.querySelector(selector) as HTMLButtonElement | null
  if (control === null) return null
  const form = control.form ?? control.closest("form")
  if (form === null) return location.href
  return control.hasAttribute("formaction") ? control.formAction : form.action
}

/**
 * Gives the page a Content-Security-Policy `form-action` of `sources`: Chromium applies it to the
 * submission and to every redirect of it, so a 307 to another origin is refused before the body is
 * sent again. A refused navigation leaves the page waiting for a document that never comes, so the
 * page notes what was refused under the session-storage `key` (read by `takeRefused`) and loads
 * itself again.
 */
export const limitFormActions = (sources: string, key: string): boolean => {
  try {
    sessionStorage.removeItem(key)
  } catch {}
  document.addEventListener("securitypolicyviolation", (event) => {
    if (event.effectiveDirective !== "form-action" && event.violatedDirective !== "form-action") return
    try {
      sessionStorage.setItem(key, event.blockedURI || "(not given)")
    } catch {}
    location.replace(location.href)
  })
  const meta = document.createElement("meta")
  meta.httpEquiv = "Content-Security-Policy"
  meta.content = `form-action ${sources}`
  const head =
    document.head ??
    document.documentElement.insertBefore(document.createElement("head"), document.documentElement.firstChild)
  head.appendChild(meta)
  return true
}

/** The submission `limitFormActions` noted as refused under `key`, removing the note; null when none. */
export const takeRefused = (key: string): string | null => {
  try {
    const refused = sessionStorage.getItem(key)
    sessionStorage.removeItem(key)
    return refused
  } catch {
    return null
  }
}

/** Where `formAction` looks: a ref or a selector. */
export type FormActionTarget = { readonly ref: string } | { readonly selector: string }

/** What `formAction` answers: the origin the form posts to, `unresolved` for a ref not found, or nothing. */
export interface FormAction {
  readonly action?: string
  readonly unresolved?: boolean
}

/**
 * Where a press or a click on `target` would send its form: the origin of the form's action (or the
 * submitter's `formaction`). A press without a findable target goes to the focused element. A ref
 * that cannot be found answers `unresolved` for a click (the act would fail the same way).
 */
export const formAction = (target: FormActionTarget, press: boolean): FormAction => {
  const originOf = (raw: string, base: string): string => {
    try {
      const url = new URL(raw, base || document.baseURI)
      return url.protocol === "http:" || url.protocol === "https:" ? url.origin : `${url.protocol}…`
    } catch {
      return "(not a URL)"
    }
  }
  let element: Element | null = null
  if ("ref" in target) {
    const resolved = resolve(target.ref, { scroll: false })
    if (resolved.ok) element = resolved.element ?? document.elementFromPoint(resolved.x ?? 0, resolved.y ?? 0)
    if (element === null && !press) return { unresolved: true }
  } else {
    try {
      element = document.querySelector(target.selector)
    } catch {
      element = null
    }
  }
  if (element === null && press) element = document.activeElement
  if (element === null) return {}
  const submitter = element.closest(
    "button, input[type=submit], input[type=image]",
  ) as HTMLButtonElement | null
  const form =
    (element as HTMLInputElement).form ??
    submitter?.form ??
    (element.closest("form") as HTMLFormElement | null)
  if (form === null || form.method === "dialog") return {}
  const doc = form.ownerDocument
  const raw =
    submitter?.hasAttribute("formaction") === true
      ? submitter.formAction
      : form.getAttribute("action") === null
        ? (doc.location?.href ?? location.href)
        : form.action
  return { action: originOf(raw, doc.baseURI) }
}
