import {
  type ActionOp,
  type ActResult,
  type ActValue,
  type BlockedRequest,
  BrowserDriver,
  type BrowserDriverShape,
  causeMessage,
  DriverError,
  type DriverErrorReason,
  ElementNotFound,
  formatTarget,
  NavigationFailed,
  type NavigationResult,
  type PageElement,
  type PageSnapshot,
  ScriptError,
  type SecretGuardOptions,
  type Signal,
  StaleRef,
  secretIndexIn,
  type Target,
  type WaitCondition,
} from "@sextant/core"
import { operationsOf } from "@sextant/perception"
import { Effect, Layer } from "effect"
import { callFakePage, type FakePage, openFakePage, parseFakeDocument } from "../internal/FakePage.ts"

/** A request the fake browser sends to its scripted site: a navigation or a form submission. */
export interface FakeRequest {
  readonly method: "GET" | "POST"
  readonly url: string
  /** Submitted form fields, for POST. */
  readonly form: Readonly<Record<string, string>>
}

/** What the scripted site answers: HTML, or a redirect to another URL. */
export type FakeResponse = { readonly html: string; readonly status?: number } | { readonly redirect: string }

/** One call the fake received, in order, for assertions. */
export interface FakeCall {
  readonly method: keyof BrowserDriverShape
  readonly target?: string | undefined
  readonly op?: ActionOp | undefined
  readonly url?: string | undefined
  /** The value typed or selected, as given. */
  readonly value?: ActValue | undefined
}

/** Options of {@link makeFakeBrowserDriver}. */
export interface FakeBrowserDriverOptions {
  /**
   * The scripted site: answers every navigation and form submission. A plain record maps a URL
   * (or its path) to HTML; a function sees the whole request. Unknown URLs fail with NavigationFailed.
   */
  readonly site: Readonly<Record<string, string>> | ((request: FakeRequest) => FakeResponse | undefined)
  /**
   * Called before every operation; a reason it returns makes that call fail with `DriverError`,
   * which is how tests script flaky elements, stale refs and timeouts.
   */
  readonly fault?: (call: FakeCall, count: number) => DriverErrorReason | undefined
  /** Simulated time every operation takes (Effect's clock, so TestClock controls it). Default 0. */
  readonly latencyMs?: number
}

/** A fake browser with its recorded calls. */
export interface FakeBrowserDriver {
  readonly driver: BrowserDriverShape
  /** Every call, in order. */
  readonly calls: ReadonlyArray<FakeCall>
  /** Every request sent to the scripted site, in order. */
  readonly requests: ReadonlyArray<FakeRequest>
  /** The URL of the current page. */
  readonly url: () => string
}

const INTERACTIVE = "a[href], button, input, select, textarea, [role=button], [role=link]"

const roleOf = (element: Element): string => {
  const explicit = element.getAttribute("role")
  if (explicit) return explicit
  const tag = element.tagName.toLowerCase()
  if (tag === "a") return "link"
  if (tag === "button") return "button"
  if (tag === "select") return "combobox"
  if (tag === "textarea") return "textbox"
  if (tag === "input") {
    const type = (element.getAttribute("type") ?? "text").toLowerCase()
    if (type === "checkbox") return "checkbox"
    if (type === "radio") return "radio"
    if (type === "submit" || type === "button") return "button"
    return "textbox"
  }
  return "generic"
}

const nameOf = (element: Element, document: Document): string => {
  const aria = element.getAttribute("aria-label")
  if (aria) return aria
  const id = element.getAttribute("id")
  if (id) {
    const label = document.querySelector(`label[for="${id}"]`)
    if (label?.textContent) return label.textContent.trim()
  }
  const tag = element.tagName.toLowerCase()
  if (tag === "input" || tag === "textarea" || tag === "select") {
    return element.getAttribute("placeholder") ?? element.getAttribute("name") ?? ""
  }
  return (element.textContent ?? "").replace(/\s+/g, " ").trim()
}

const selectorsOf = (element: Element): Array<string> => {
  const selectors: Array<string> = []
  const id = element.getAttribute("id")
  if (id) selectors.push(`#${id}`)
  const testId = element.getAttribute("data-testid")
  if (testId) selectors.push(`[data-testid="${testId}"]`)
  const name = element.getAttribute("name")
  if (name) selectors.push(`${element.tagName.toLowerCase()}[name="${name}"]`)
  const href = element.getAttribute("href")
  if (href) selectors.push(`a[href="${href}"]`)
  return selectors
}

// A checkbox or radio's state: the property a script or an act set, else the attribute the page came with.
const checkedOf = (element: Element): boolean => {
  const property = (element as HTMLInputElement).checked
  return typeof property === "boolean" ? property : element.hasAttribute("checked")
}

// The option a select shows: the one marked selected, else the first (as a browser picks).
const selectedOptionOf = (element: Element): Element | undefined => {
  const options = [...element.querySelectorAll("option")]
  return options.find((option) => option.hasAttribute("selected")) ?? options[0]
}

const optionText = (option: Element): string => (option.textContent ?? "").replace(/\s+/g, " ").trim()

const driverError = (method: string, reason: DriverErrorReason) => new DriverError({ method, reason })

/**
 * A scripted, in-process `BrowserDriver` over a tiny DOM (linkedom): pages come from a record or a
 * function, links and forms navigate, `evaluate` runs scripts against the page's document, `callPage`
 * runs `@sextant/perception`'s page functions in a window around it (with no layout: every element's
 * box is empty, so nothing counts as shown), and every call is recorded. For unit tests of logic above the driver; anything that depends on a real page
 * belongs in a browser test against the fixture site.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { BrowserDriver } from "@sextant/core"
 * import { makeFakeBrowserDriver } from "@sextant/testing"
 * const fake = makeFakeBrowserDriver({ site: { "/": "<a href='/next'>Next</a>", "/next": "<h1>Next</h1>" } })
 * await Effect.runPromise(Effect.provideService(
 *   BrowserDriver.use((driver) => driver.navigate("http://fake.test/")), BrowserDriver, fake.driver))
 * ```
 */
export const makeFakeBrowserDriver = (options: FakeBrowserDriverOptions): FakeBrowserDriver => {
  const calls: Array<FakeCall> = []
  const requests: Array<FakeRequest> = []
  let currentUrl = "about:blank"
  let document: Document = parseFakeDocument("<html><head><title></title></head><body></body></html>")
  let refs = new Map<Element, string>()
  let nextRef = 1
  // The window perception's page runtime runs in, opened on the first page call after each load.
  let page: FakePage | undefined
  const history: Array<string> = []
  // The request guards in force (guardSecrets), each with what it blocked and not yet taken.
  const guards = new Set<{ readonly options: SecretGuardOptions; readonly blocked: Array<BlockedRequest> }>()

  // Like the real driver's guard: a request carrying a secret, in any spelling, to an origin the
  // secrets are not bound to is failed before the site sees it, and so is a page load (every fake
  // request is one) with a secret in its URL on a bound origin.
  const blockedBy = (request: FakeRequest, redirectedFrom?: string): boolean => {
    const origin = new URL(request.url).origin
    const body = new URLSearchParams(request.form).toString()
    let blocked = false
    for (const guard of guards) {
      const inUrl = secretIndexIn(request.url, guard.options.values)
      if (guard.options.origins.includes(origin) && inUrl === undefined) continue
      const inBody = inUrl === undefined ? secretIndexIn(body, guard.options.values) : undefined
      const secret = inUrl ?? inBody
      if (secret === undefined) continue
      blocked = true
      guard.blocked.push({
        origin,
        method: request.method,
        carriedIn: inUrl === undefined ? "body" : "url",
        resourceType: "Document",
        redirectedFrom,
        secret,
      })
    }
    return blocked
  }

  const resolve = (request: FakeRequest): FakeResponse | undefined => {
    if (typeof options.site === "function") return options.site(request)
    const parsed = new URL(request.url)
    const html =
      options.site[request.url] ??
      options.site[parsed.pathname + parsed.search] ??
      options.site[parsed.pathname]
    return html === undefined ? undefined : { html }
  }

  const load = (
    request: FakeRequest,
    depth = 0,
    redirectedFrom?: string,
  ): NavigationResult | DriverErrorReason => {
    if (blockedBy(request, redirectedFrom))
      return new NavigationFailed({ url: new URL(request.url).origin, detail: "net::ERR_BLOCKED_BY_CLIENT" })
    requests.push(request)
    const response = resolve(request)
    if (response === undefined)
      return new NavigationFailed({ url: request.url, detail: "the fake site has no such page" })
    if ("redirect" in response) {
      if (depth > 5) return new NavigationFailed({ url: request.url, detail: "too many redirects" })
      return load(
        { method: "GET", url: new URL(response.redirect, request.url).href, form: {} },
        depth + 1,
        new URL(request.url).origin,
      )
    }
    currentUrl = request.url
    history.push(currentUrl)
    document = parseFakeDocument(
      response.html.includes("<html") ? response.html : `<html><body>${response.html}</body></html>`,
    )
    refs = new Map()
    page = undefined
    return { url: currentUrl, title: document.title ?? "" }
  }

  const refFor = (element: Element): string => {
    const known = refs.get(element)
    if (known !== undefined) return known
    const ref = `e${nextRef++}`
    refs.set(element, ref)
    return ref
  }

  const find = (target: Target): Element | undefined => {
    if ("ref" in target) {
      for (const [element, ref] of refs) if (ref === target.ref) return element
      return undefined
    }
    try {
      return document.querySelector(target.selector) ?? undefined
    } catch {
      return undefined
    }
  }

  const guarded = <A>(call: FakeCall, body: () => A | DriverErrorReason): Effect.Effect<A, DriverError> =>
    Effect.gen(function* () {
      calls.push(call)
      if ((options.latencyMs ?? 0) > 0) yield* Effect.sleep(options.latencyMs ?? 0)
      const count = calls.filter((earlier) => earlier.method === call.method).length
      const fault = options.fault?.(call, count)
      if (fault !== undefined) return yield* driverError(call.method, fault)
      const outcome = body()
      if (typeof outcome === "object" && outcome !== null && "isRetryable" in outcome && "_tag" in outcome) {
        return yield* driverError(call.method, outcome as DriverErrorReason)
      }
      return outcome as A
    })

  const snapshot = (): PageSnapshot => {
    const elements: Record<string, PageElement> = {}
    const lines: Array<string> = []
    const heading = document.querySelector("h1")
    if (heading?.textContent) lines.push(`- heading "${heading.textContent.trim()}"`)
    for (const element of document.querySelectorAll(INTERACTIVE)) {
      const ref = refFor(element)
      const role = roleOf(element)
      const name = nameOf(element, document)
      const attributes: Record<string, string> = {}
      for (const attribute of ["id", "name", "type", "href", "action"]) {
        const value = element.getAttribute(attribute)
        if (value !== null) attributes[attribute] = value
      }
      const tag = element.tagName.toLowerCase()
      const selected = tag === "select" ? selectedOptionOf(element) : undefined
      const value = selected === undefined ? (element as HTMLInputElement).value : optionText(selected)
      const checkable = role === "checkbox" || role === "radio"
      elements[ref] = {
        ref,
        role,
        name,
        tag,
        attributes,
        value: typeof value === "string" && value !== "" ? value : undefined,
        ...(checkable ? { checked: checkedOf(element) } : {}),
        ...(element.hasAttribute("disabled") ? { disabled: true } : {}),
        visible: true,
        selectors: selectorsOf(element),
        frame: [],
      }
      lines.push(`- ${role} "${name}" [ref=${ref}]`)
    }
    const text = (document.body?.textContent ?? "").replace(/\s+/g, " ").trim()
    const tree = lines.join("\n")
    return {
      url: currentUrl,
      title: document.title ?? "",
      tree,
      elements,
      actions: Object.values(elements).map((element) => ({
        ref: element.ref,
        role: element.role,
        name: element.name,
        // What an element offers is perception's rule, as on the real driver.
        ops: [...operationsOf(element)],
      })),
      forms: [],
      outputs: text === "" ? [] : [{ key: "main", region: "main", text: text.slice(0, 2000) }],
      stats: {
        nodes: lines.length,
        elements: Object.keys(elements).length,
        lines: lines.length,
        chars: tree.length,
        truncated: false,
      },
    }
  }

  const submitForm = (form: Element): NavigationResult | DriverErrorReason => {
    const fields: Record<string, string> = {}
    for (const field of form.querySelectorAll("input[name], textarea[name], select[name]")) {
      fields[field.getAttribute("name") ?? ""] =
        (field as HTMLInputElement).value ?? field.getAttribute("value") ?? ""
    }
    const method = (form.getAttribute("method") ?? "GET").toUpperCase() === "POST" ? "POST" : "GET"
    const action = new URL(form.getAttribute("action") ?? currentUrl, currentUrl)
    if (method === "GET")
      for (const [name, value] of Object.entries(fields)) action.searchParams.set(name, value)
    return load({ method, url: action.href, form: method === "POST" ? fields : {} })
  }

  const act = (target: Target, op: ActionOp, value?: ActValue): ActResult | DriverErrorReason => {
    const element = find(target)
    // A ref no look of this page gave is stale, as the real driver says; a selector finds nothing.
    if (element === undefined)
      return "ref" in target
        ? new StaleRef({ ref: target.ref })
        : new ElementNotFound({ target: formatTarget(target) })
    const before = currentUrl
    let signals: Array<Signal> = ["NoOp"]
    if (op === "input" || op === "set") {
      ;(element as HTMLInputElement).value = String(value ?? "")
      element.setAttribute("value", String(value ?? ""))
      signals = []
    } else if (op === "check" || op === "uncheck") {
      const want = op === "check"
      ;(element as HTMLInputElement).checked = want
      if (want) element.setAttribute("checked", "")
      else element.removeAttribute("checked")
      signals = []
    } else if (op === "select") {
      const wanted = String(Array.isArray(value) ? value[0] : (value ?? "")).trim()
      const options = [...element.querySelectorAll("option")]
      const choice = options.find(
        (option) => optionText(option) === wanted || option.getAttribute("value") === wanted,
      )
      if (choice === undefined)
        return new ElementNotFound({ target: `option ${JSON.stringify(wanted)} of ${formatTarget(target)}` })
      for (const option of options) option.removeAttribute("selected")
      choice.setAttribute("selected", "")
      signals = []
    } else if (op === "clear") {
      ;(element as HTMLInputElement).value = ""
      element.setAttribute("value", "")
      signals = []
    } else if (op === "click" || op === "press") {
      const tag = element.tagName.toLowerCase()
      const href = element.getAttribute("href")
      const type = (element.getAttribute("type") ?? (tag === "button" ? "submit" : "")).toLowerCase()
      const form = element.closest("form")
      if (tag === "a" && href !== null) {
        const loaded = load({ method: "GET", url: new URL(href, currentUrl).href, form: {} })
        if ("_tag" in loaded) return loaded
        signals = ["NavigationOccurred", "ScreenLoaded"]
      } else if (form !== null && type === "submit") {
        const loaded = submitForm(form)
        if ("_tag" in loaded) return loaded
        signals = ["FormSubmitted", "NavigationOccurred"]
      }
    }
    const changed = currentUrl !== before
    const page = snapshot()
    return {
      ok: true,
      changed,
      signals,
      actions: page.actions,
      hint: changed ? "navigation detected" : `${formatTarget(target)} ${op} done`,
      url: currentUrl,
    }
  }

  const runScript = (script: string, args: ReadonlyArray<unknown>): unknown | DriverErrorReason => {
    try {
      const body = new Function(
        "document",
        "location",
        "args",
        `return (function () { ${script} }).apply(null, args)`,
      )
      return body(document, new URL(currentUrl === "about:blank" ? "about:blank" : currentUrl), args)
    } catch (error) {
      return new ScriptError({ detail: causeMessage(error) })
    }
  }

  const waitFor = (condition: WaitCondition) => {
    let ok = false
    if ("ref" in condition) ok = find({ ref: condition.ref }) !== undefined
    else if ("selector" in condition) ok = find({ selector: condition.selector }) !== undefined
    else if ("text" in condition) ok = (document.body?.textContent ?? "").includes(condition.text)
    else if ("js" in condition) ok = Boolean(runScript(`return (${condition.js})`, []))
    else ok = condition.navigation.from === undefined || currentUrl !== condition.navigation.from
    return { ok, elapsedMs: 0 }
  }

  const navigation = (): NavigationResult => ({ url: currentUrl, title: document.title ?? "" })

  const driver: BrowserDriverShape = {
    navigate: (url) => guarded({ method: "navigate", url }, () => load({ method: "GET", url, form: {} })),
    currentUrl: Effect.suspend(() => guarded({ method: "currentUrl" }, () => currentUrl)),
    title: Effect.suspend(() => guarded({ method: "title" }, () => document.title ?? "")),
    look: () => guarded({ method: "look" }, snapshot),
    act: (target, op, value) =>
      guarded({ method: "act", target: formatTarget(target), op, value }, () => act(target, op, value)),
    waitFor: (condition) => guarded({ method: "waitFor" }, () => waitFor(condition)),
    evaluate: (script, args = []) => guarded({ method: "evaluate" }, () => runScript(script, args)),
    callPage: (name, args = []) =>
      guarded({ method: "callPage", target: name }, () => {
        page ??= openFakePage(document, currentUrl)
        return page
      }).pipe(
        Effect.flatMap((opened) =>
          Effect.tryPromise({
            try: () => callFakePage(opened, name, args),
            catch: (error) => driverError("callPage", new ScriptError({ detail: causeMessage(error) })),
          }),
        ),
        Effect.flatMap((outcome) =>
          outcome.ok ? Effect.succeed(outcome.value) : Effect.fail(driverError("callPage", outcome.reason)),
        ),
      ),
    screenshot: () => guarded({ method: "screenshot" }, () => new Uint8Array([0x89, 0x50, 0x4e, 0x47])),
    scroll: (op) =>
      guarded({ method: "scroll", target: "target" in op ? formatTarget(op.target) : undefined }, () => ({
        y: 0,
        height: 1000,
        viewportHeight: 800,
        atBottom: true,
      })),
    back: Effect.suspend(() =>
      guarded({ method: "back" }, () => {
        history.pop()
        const previous = history.pop()
        return previous === undefined ? navigation() : load({ method: "GET", url: previous, form: {} })
      }),
    ),
    forward: Effect.suspend(() => guarded({ method: "forward" }, navigation)),
    refresh: Effect.suspend(() =>
      guarded({ method: "refresh" }, () => {
        history.pop()
        return load({ method: "GET", url: currentUrl, form: {} })
      }),
    ),
    tabs: Effect.suspend(() =>
      guarded({ method: "tabs" }, () => [
        { handle: "tab-1", url: currentUrl, title: document.title ?? "", active: true },
      ]),
    ),
    switchTab: (handle) =>
      guarded({ method: "switchTab" }, () => ({
        handle,
        url: currentUrl,
        title: document.title ?? "",
        active: true,
      })),
    closeTab: () => guarded({ method: "closeTab" }, () => undefined),
    dialog: Effect.suspend(() => guarded({ method: "dialog" }, () => undefined)),
    respondToDialog: () => guarded({ method: "respondToDialog" }, () => undefined),
    guardSecrets: (guardOptions) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          const guard = { options: guardOptions, blocked: [] as Array<BlockedRequest> }
          guards.add(guard)
          return guard
        }),
        (guard) => Effect.sync(() => guards.delete(guard)),
      ).pipe(Effect.map((guard) => ({ blocked: Effect.sync(() => guard.blocked.splice(0)) }))),
  }

  return { driver, calls, requests, url: () => currentUrl }
}

/**
 * The fake browser as a layer, for `Effect.provide`.
 *
 * @example
 * ```ts
 * import { FakeBrowserDriver } from "@sextant/testing"
 * const layer = FakeBrowserDriver.layerTest({ site: { "/": "<h1>Home</h1>" } })
 * ```
 */
export const FakeBrowserDriver: {
  readonly layerTest: (options: FakeBrowserDriverOptions) => Layer.Layer<BrowserDriver>
  readonly make: (options: FakeBrowserDriverOptions) => FakeBrowserDriver
} = {
  layerTest: (options) => Layer.sync(BrowserDriver, () => makeFakeBrowserDriver(options).driver),
  make: makeFakeBrowserDriver,
}
