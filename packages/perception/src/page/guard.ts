import { eachWindow } from "./frames.ts"

/*
 * The guard the executor puts into the page before each step that may click, submit or navigate. It
 * stops an action in the page itself, in the same event that would carry it out, so nothing leaves
 * before a check: a click on a `javascript:` (or other non-http) link — an HTML `<a>`/`<area>` or an
 * SVG `<a>` by its `href` or `xlink:href` — or a link to a disallowed origin, the submission of a form
 * whose action (or the button's `formaction`) leaves the allowed origins — by a click, Enter in a
 * field, `requestSubmit()` or `form.submit()` — and `window.open`, which is refused unless it names an
 * allowed http(s) page. Every refusal is recorded for `takeViolations`.
 *
 * It lives under a name the caller chooses per run, so a page cannot pre-empt or fake it, and it is
 * installed in the page and in every same-origin frame.
 */

/** What the guard stopped in the page. */
export interface GuardViolation {
  readonly kind: "link" | "form-action" | "popup"
  readonly url: string
  readonly problem: string
  readonly page: string
}

interface GuardState {
  allowed: ReadonlyArray<string> | null
  readonly violations: Array<GuardViolation>
}

type PageWindow = Window & typeof globalThis

const SVG = "http://www.w3.org/2000/svg"
const XLINK = "http://www.w3.org/1999/xlink"

const isSubmitter = (node: Element): boolean =>
  (node.localName === "button" && (node as HTMLButtonElement).type === "submit") ||
  (node.localName === "input" && ["submit", "image"].includes((node as HTMLInputElement).type))

// Where a link goes. An SVG <a> may say it in SVG 2's href or the older xlink:href; a browser follows
// one of them, so each one present is checked.
const linkTargets = (node: Element): Array<string> => {
  if (node.localName !== "a" && node.localName !== "area") return []
  const targets: Array<string> = []
  const href = node.getAttribute("href")
  if (href !== null) targets.push(href)
  if (node.namespaceURI === SVG) {
    const xlink = node.getAttributeNS(XLINK, "href")
    if (xlink !== null) targets.push(xlink)
  }
  return targets
}

const stop = (event: Event): void => {
  event.preventDefault()
  event.stopImmediatePropagation()
}

const installIn = (view: PageWindow, key: string, allowed: ReadonlyArray<string> | null): void => {
  const existing = Object.getOwnPropertyDescriptor(view, key)
  if (existing !== undefined) {
    ;(existing.value as GuardState).allowed = allowed
    return
  }
  const state: GuardState = { allowed, violations: [] }
  Object.defineProperty(view, key, { value: state, enumerable: false, configurable: false, writable: false })
  const doc = view.document
  const problemOf = (raw: string, base?: string): string | undefined => {
    let url: URL
    try {
      url = new URL(raw, base || doc.baseURI)
    } catch {
      return "is not a URL"
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return `uses ${url.protocol}, which never runs`
    if (state.allowed && !state.allowed.includes(url.origin))
      return `leaves the allowed origins (${url.origin} is not one of ${state.allowed.join(", ")})`
    return undefined
  }
  const record = (kind: GuardViolation["kind"], url: string, problem: string): void => {
    state.violations.push({
      kind,
      url: String(url).slice(0, 300),
      problem,
      page: String(doc.location.href).slice(0, 300),
    })
  }
  const actionOf = (form: HTMLFormElement, submitter?: Element | null): string => {
    if (submitter?.hasAttribute?.("formaction")) return (submitter as HTMLButtonElement).formAction
    return form.getAttribute("action") === null ? doc.location.href : form.action
  }
  view.addEventListener(
    "click",
    (event) => {
      const path = event.composedPath ? event.composedPath() : [event.target]
      for (const target of path) {
        const node = target as Element | null
        if (!node?.localName) continue
        const targets = linkTargets(node)
        if (targets.length > 0) {
          for (const href of targets) {
            if (href.trim().startsWith("#")) continue
            const problem = problemOf(href, node.baseURI)
            if (problem) {
              stop(event)
              record("link", href, problem)
              return
            }
          }
          return
        }
        const form = (node as HTMLButtonElement).form
        if (isSubmitter(node) && form && form.method !== "dialog") {
          const action = actionOf(form, node)
          const problem = problemOf(action)
          if (problem) {
            stop(event)
            record("form-action", action, problem)
          }
          return
        }
      }
    },
    true,
  )
  view.addEventListener(
    "submit",
    (event) => {
      const form = event.target as HTMLFormElement | null
      if (!form || form.method === "dialog") return
      const action = actionOf(form, (event as SubmitEvent).submitter)
      const problem = problemOf(action)
      if (problem) {
        stop(event)
        record("form-action", action, problem)
      }
    },
    true,
  )
  const submit = view.HTMLFormElement.prototype.submit
  view.HTMLFormElement.prototype.submit = function (this: HTMLFormElement) {
    const action = actionOf(this)
    const problem = problemOf(action)
    if (problem) {
      record("form-action", action, problem)
      return
    }
    return submit.call(this)
  }
  const open = view.open
  view.open = (url?: string | URL, ...rest: Array<string | undefined>) => {
    const text = url === undefined || url === null ? "" : String(url)
    const problem =
      text.trim() === "" ? "opens an empty window a page could fill with anything" : problemOf(text)
    if (problem) {
      record("popup", text || "about:blank", problem)
      return null
    }
    return open.call(view, url, ...rest)
  }
}

/**
 * Puts the guard under `key` into the page and its same-origin frames, or sets the origins of the one
 * already there. `allowed` null means any http(s) origin.
 */
export const installGuard = (
  key: string,
  allowed: ReadonlyArray<string> | null,
): { readonly installed: true } => {
  eachWindow((view) => installIn(view as PageWindow, key, allowed))
  return { installed: true }
}

/** Takes what the guard under `key` stopped since the last call, in the page and its same-origin frames. */
export const takeViolations = (key: string): Array<GuardViolation> => {
  const found: Array<GuardViolation> = []
  eachWindow((view) => {
    const state = Object.getOwnPropertyDescriptor(view, key)
    if (state !== undefined) found.push(...(state.value as GuardState).violations.splice(0))
  })
  return found
}
