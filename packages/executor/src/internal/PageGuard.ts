import type { BrowserDriverShape } from "@sextant/core"
import { Effect } from "effect"

/**
 * The guard Sextant puts into the page before each step that may click, submit or navigate. It stops an
 * action in the page itself, in the same event that would carry it out, so nothing leaves before a
 * check: a click on a `javascript:` (or other non-http) link — an HTML `<a>`/`<area>` or an SVG `<a>`
 * by its `href` or `xlink:href` — or a link to a disallowed origin, the
 * submission of a form whose action (or the button's `formaction`) leaves the allowed origins — by a
 * click, Enter in a field, `requestSubmit()` or `form.submit()` — and `window.open`, which is refused
 * unless it names an allowed http(s) page. Every refusal is recorded for the executor to report.
 *
 * It lives under a name chosen per run so a page cannot pre-empt or fake it, and it is installed in
 * the page and in every same-origin frame. `allowed` null means any http(s) origin.
 */
const guardScript = `
const key = arguments[0], allowed = arguments[1]
if (typeof window === "undefined") return JSON.stringify({ installed: false })
const install = (win) => {
  const existing = Object.getOwnPropertyDescriptor(win, key)
  if (existing) { existing.value.allowed = allowed; return }
  const state = { allowed, violations: [] }
  Object.defineProperty(win, key, { value: state, enumerable: false, configurable: false, writable: false })
  const doc = win.document
  const problemOf = (raw, base) => {
    let url
    try { url = new URL(raw, base || doc.baseURI) } catch (error) { return "is not a URL" }
    if (url.protocol !== "http:" && url.protocol !== "https:") return "uses " + url.protocol + ", which never runs"
    if (state.allowed && !state.allowed.includes(url.origin)) return "leaves the allowed origins (" + url.origin + " is not one of " + state.allowed.join(", ") + ")"
    return undefined
  }
  const record = (kind, url, problem) => {
    state.violations.push({ kind, url: String(url).slice(0, 300), problem, page: String(doc.location.href).slice(0, 300) })
  }
  const actionOf = (form, submitter) => {
    if (submitter && submitter.hasAttribute && submitter.hasAttribute("formaction")) return submitter.formAction
    return form.getAttribute("action") === null ? doc.location.href : form.action
  }
  const isSubmitter = (node) =>
    node && node.localName && ((node.localName === "button" && node.type === "submit") ||
      (node.localName === "input" && (node.type === "submit" || node.type === "image")))
  const stop = (event) => { event.preventDefault(); event.stopImmediatePropagation() }
  // Where a link goes. An SVG <a> may say it in SVG 2's href or the older xlink:href; a browser follows
  // one of them, so each one present is checked.
  const linkTargets = (node) => {
    if (node.localName !== "a" && node.localName !== "area") return []
    const targets = []
    if (node.hasAttribute("href")) targets.push(node.getAttribute("href"))
    if (node.namespaceURI === "http://www.w3.org/2000/svg") {
      const xlink = node.getAttributeNS("http://www.w3.org/1999/xlink", "href")
      if (xlink !== null) targets.push(xlink)
    }
    return targets
  }
  win.addEventListener("click", (event) => {
    const path = event.composedPath ? event.composedPath() : [event.target]
    for (const node of path) {
      if (!node || !node.localName) continue
      const targets = linkTargets(node)
      if (targets.length > 0) {
        for (const href of targets) {
          if (href.trim().startsWith("#")) continue
          const problem = problemOf(href, node.baseURI)
          if (problem) { stop(event); record("link", href, problem); return }
        }
        return
      }
      if (isSubmitter(node) && node.form && node.form.method !== "dialog") {
        const action = actionOf(node.form, node)
        const problem = problemOf(action)
        if (problem) { stop(event); record("form-action", action, problem) }
        return
      }
    }
  }, true)
  win.addEventListener("submit", (event) => {
    const form = event.target
    if (!form || form.method === "dialog") return
    const action = actionOf(form, event.submitter)
    const problem = problemOf(action)
    if (problem) { stop(event); record("form-action", action, problem) }
  }, true)
  const submit = win.HTMLFormElement.prototype.submit
  win.HTMLFormElement.prototype.submit = function () {
    const action = actionOf(this)
    const problem = problemOf(action)
    if (problem) { record("form-action", action, problem); return }
    return submit.call(this)
  }
  const open = win.open
  win.open = function (url, ...rest) {
    const text = url === undefined || url === null ? "" : String(url)
    const problem = text.trim() === "" ? "opens an empty window a page could fill with anything" : problemOf(text)
    if (problem) { record("popup", text || "about:blank", problem); return null }
    return open.call(win, url, ...rest)
  }
}
const visit = (win) => {
  install(win)
  for (let index = 0; index < win.frames.length; index++) {
    try { visit(win.frames[index]) } catch (error) { /* another origin's frame: the page cannot reach it either */ }
  }
}
visit(window)
return JSON.stringify({ installed: true })
`

const takeScript = `
const key = arguments[0]
if (typeof window === "undefined") return "[]"
const found = []
const visit = (win) => {
  const state = Object.getOwnPropertyDescriptor(win, key)
  if (state) found.push(...state.value.violations.splice(0))
  for (let index = 0; index < win.frames.length; index++) {
    try { visit(win.frames[index]) } catch (error) {}
  }
}
visit(window)
return JSON.stringify(found)
`

/**
 * Where a step is about to type a secret: the page's origin, the origin of the document that holds
 * the target field (a frame's, when the field is in one), and where the field's form posts. Without a
 * target (the `login` tool finds its fields itself), the actions of the forms with a password field.
 */
const secretTargetScript = `
const target = arguments[0]
if (typeof window === "undefined") return JSON.stringify({ probed: false })
const originOf = (raw, base) => {
  try { const url = new URL(raw, base || document.baseURI); return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol + "…" }
  catch (error) { return "(not a URL)" }
}
const actionOf = (form) => form.getAttribute("action") === null ? form.ownerDocument.location.href : form.action
const frameOrigin = (frame) => {
  try { return frame.contentWindow.origin } catch (error) { return originOf(frame.src || "about:blank") }
}
let element = null
if (target.ref) {
  const sextant = globalThis.__sextant
  const resolved = sextant && typeof sextant.resolve === "function" ? sextant.resolve(target.ref, { scroll: false }) : null
  if (resolved && resolved.ok !== false) element = resolved.element || document.elementFromPoint(resolved.x, resolved.y)
} else if (target.selector) {
  try { element = document.querySelector(target.selector) } catch (error) { element = null }
} else if (target.label) {
  const wanted = String(target.label).trim().toLowerCase()
  const fields = Array.from(document.querySelectorAll("input, textarea, [contenteditable=true]"))
  element = fields.find((field) => {
    const names = [field.getAttribute("aria-label"), field.getAttribute("placeholder"), field.getAttribute("name"), field.id,
      ...Array.from(field.labels || []).map((label) => label.textContent)]
    return names.some((name) => name && name.trim().toLowerCase().includes(wanted))
  }) || null
}
const result = { probed: true, page: window.origin, forms: [] }
if (element) {
  if (element.localName === "iframe" || element.localName === "frame") result.field = frameOrigin(element)
  else {
    result.field = element.ownerDocument.defaultView ? element.ownerDocument.defaultView.origin : window.origin
    if (element.form) result.action = originOf(actionOf(element.form), element.ownerDocument.baseURI)
    const form = element.form || (element.closest && element.closest("form"))
    const attribute = (name) => (element.getAttribute && element.getAttribute(name)) || ""
    result.kind = {
      tag: element.localName,
      type: element.localName === "input" ? (attribute("type") || "text").toLowerCase() : "",
      autocomplete: attribute("autocomplete").toLowerCase(),
      role: attribute("role").toLowerCase(),
      editable: element.isContentEditable === true,
      name: (attribute("name") || element.id || attribute("aria-label") || "").slice(0, 40),
      formRole: form ? (form.getAttribute("role") || "").toLowerCase() : "",
      formMethod: form ? (form.getAttribute("method") || "").toLowerCase() : "",
      formPassword: form ? form.querySelector("input[type=password]") !== null : false,
    }
  }
}
for (const form of Array.from(document.forms)) {
  if (form.querySelector("input[type=password]")) result.forms.push(originOf(actionOf(form)))
}
return JSON.stringify(result)
`

/** What the guard stopped in the page. */
export interface GuardViolation {
  readonly kind: "link" | "form-action" | "popup"
  readonly url: string
  readonly problem: string
  readonly page: string
}

/** What kind of field a secret would go into, as the page says. */
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

/** Where a secret would go, as {@link probeSecretTarget} found it. */
export interface SecretTarget {
  readonly probed: boolean
  readonly page?: string
  readonly field?: string
  readonly action?: string
  readonly forms?: ReadonlyArray<string>
  /** The field itself, when the target was found and is not a frame. */
  readonly kind?: SecretFieldKind
}

/** Puts the guard into the page (best effort: a page that is loading gets it at the next step). */
export const installGuard = (
  driver: BrowserDriverShape,
  key: string,
  allowed: ReadonlyArray<string> | undefined,
): Effect.Effect<void> => driver.evaluate(guardScript, [key, allowed ?? null]).pipe(Effect.ignore)

/** What the guard stopped since the last call, in the page and its same-origin frames. */
export const takeViolations = (
  driver: BrowserDriverShape,
  key: string,
): Effect.Effect<ReadonlyArray<GuardViolation>> =>
  driver.evaluate(takeScript, [key]).pipe(
    Effect.map((text) => (typeof text === "string" ? (JSON.parse(text) as Array<GuardViolation>) : [])),
    Effect.catch(() => Effect.succeed([])),
  )

/** Reads where a secret typed into `target` would go; `probed: false` when the page could not be read. */
export const probeSecretTarget = (
  driver: BrowserDriverShape,
  target: { readonly ref?: string; readonly selector?: string; readonly label?: string },
): Effect.Effect<SecretTarget> =>
  driver.evaluate(secretTargetScript, [target]).pipe(
    Effect.map((text) => (typeof text === "string" ? (JSON.parse(text) as SecretTarget) : { probed: false })),
    Effect.catch(() => Effect.succeed({ probed: false })),
  )

/**
 * Hides the values of text fields while a screenshot is taken (secrets typed into fields that are not
 * password fields would show), and gives them back afterwards. The secret values are not handed to
 * the page: every non-password field with a value is masked. With `redact` (the run's redaction),
 * elements whose own text holds a secret in any spelling the redaction knows (a page that echoes it,
 * upper-cased or spaced out) are masked too: the page hands its texts out, the run picks the ones to
 * mask, so the secret never goes into the page.
 */
export const maskFields = (
  driver: BrowserDriverShape,
  mask: boolean,
  redact?: (text: string) => string,
): Effect.Effect<void> =>
  Effect.gen(function* () {
    yield* driver.evaluate(fieldsScript, [mask]).pipe(Effect.ignore)
    if (redact === undefined) return
    if (!mask) {
      yield* driver.evaluate(unmaskTextsScript, []).pipe(Effect.ignore)
      return
    }
    const answer = yield* driver.evaluate(textsScript, []).pipe(Effect.orElseSucceed(() => "[]"))
    const texts = typeof answer === "string" ? (JSON.parse(answer) as Array<[number, string]>) : []
    const secret = texts.flatMap(([index, text]) => (redact(text) === text ? [] : [index]))
    if (secret.length > 0) yield* driver.evaluate(maskTextsScript, [secret]).pipe(Effect.ignore)
  })

// Every element with text of its own, in the page and its same-origin frames, kept in the page for
// maskTextsScript; answered as [index, text] pairs.
const textsScript = `
if (typeof window === "undefined") return "[]"
const elements = [], texts = []
const visit = (win) => {
  const walker = win.document.createTreeWalker(win.document.body || win.document.documentElement, 4)
  const own = new Map()
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement
    if (!parent || node.data.trim() === "" || parent.localName === "script" || parent.localName === "style") continue
    own.set(parent, (own.get(parent) || "") + node.data)
  }
  for (const [element, text] of own) { texts.push([elements.length, text.slice(0, 2000)]); elements.push(element) }
  for (let index = 0; index < win.frames.length; index++) { try { visit(win.frames[index]) } catch (error) {} }
}
visit(window)
Object.defineProperty(window, "__sextantMaskTargets", { value: elements, configurable: true, enumerable: false })
return JSON.stringify(texts)
`

const maskTextsScript = `
const elements = window.__sextantMaskTargets || []
for (const index of arguments[0]) {
  const element = elements[index]
  if (!element) continue
  element.setAttribute("data-sextant-masked-text", element.style.getPropertyValue("-webkit-text-security") || "-")
  element.style.setProperty("-webkit-text-security", "disc", "important")
}
`

const unmaskTextsScript = `
if (typeof window === "undefined") return
const visit = (win) => {
  for (const element of Array.from(win.document.querySelectorAll("[data-sextant-masked-text]"))) {
    const before = element.getAttribute("data-sextant-masked-text")
    if (before === "-") element.style.removeProperty("-webkit-text-security"); else element.style.setProperty("-webkit-text-security", before)
    element.removeAttribute("data-sextant-masked-text")
  }
  for (let index = 0; index < win.frames.length; index++) { try { visit(win.frames[index]) } catch (error) {} }
}
visit(window)
delete window.__sextantMaskTargets
`

const fieldsScript = `
const mask = arguments[0]
if (typeof window === "undefined") return
const visit = (win) => {
  for (const field of Array.from(win.document.querySelectorAll("input, textarea"))) {
    const type = (field.getAttribute("type") || "text").toLowerCase()
    if (["password", "hidden", "checkbox", "radio", "submit", "button", "file", "image", "range", "color"].includes(type)) continue
    if (mask && field.value !== "") { field.dataset.sextantMasked = field.style.getPropertyValue("-webkit-text-security") || "-"; field.style.setProperty("-webkit-text-security", "disc") }
    else if (!mask && field.dataset.sextantMasked !== undefined) {
      const before = field.dataset.sextantMasked
      if (before === "-") field.style.removeProperty("-webkit-text-security"); else field.style.setProperty("-webkit-text-security", before)
      delete field.dataset.sextantMasked
    }
  }
  for (let index = 0; index < win.frames.length; index++) { try { visit(win.frames[index]) } catch (error) {} }
}
visit(window)`
