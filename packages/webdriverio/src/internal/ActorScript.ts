/**
 * The in-page half of `act`, `waitFor` and `scroll`, installed once per document as
 * `globalThis.__sextantActor` (by a BiDi preload script before the page's own scripts, or on first
 * use). It never fires input events: it finds the element, scrolls it into view, checks it can take
 * input and returns where to aim; the driver then sends trusted input through the protocol.
 *
 * It also watches the document so the driver can tell when an action's effects have settled:
 * in-flight fetch/XHR requests, DOM mutations, and the start of a cross-document navigation.
 */
export const actorScriptSource = String.raw`
(() => {
  if (globalThis.__sextantActor) return
  const state = {
    doc: Math.random().toString(36).slice(2) + Date.now().toString(36),
    inflight: 0,
    mutations: 0,
    lastMutation: 0,
    navigating: false,
    watchingTimers: false,
    timers: new Set(),
    inputs: 0,
    inputWaiters: [],
  }
  // Counts the browser's own input (trusted beforeinput for text, mouseup for a click), so a settle
  // sent alongside the input command can wait for it to land; each waiter resumes in a later task,
  // after the insertion or the click and the page's handlers for it have run.
  const onInput = (event) => {
    if (!event.isTrusted) return
    state.inputs++
    for (const waiter of state.inputWaiters.splice(0)) originalSetTimeout(waiter, 0)
  }
  // Same-origin frames have windows of their own; prepare adds the listener to the one it types in.
  const inputViews = new WeakSet([globalThis])
  addEventListener("beforeinput", onInput, true)
  addEventListener("mouseup", onInput, true)
  // Returns whether input aimed at the element is seen: not so for a frame whose document is
  // out of reach (the input lands inside it).
  const watchInput = (element) => {
    if (element.tagName === "IFRAME" || element.tagName === "FRAME") return false
    const view = element.ownerDocument.defaultView
    if (!view) return false
    if (inputViews.has(view)) return true
    inputViews.add(view)
    view.addEventListener("beforeinput", onInput, true)
    view.addEventListener("mouseup", onInput, true)
    return true
  }
  // Activity is a DOM change, a finished request or a fired short timer: after a response the page
  // still parses the body before it renders, so settling waits for a quiet spell after any of them.
  const touch = () => { state.mutations++; state.lastMutation = performance.now() }
  const originalFetch = globalThis.fetch
  if (typeof originalFetch === "function") {
    globalThis.fetch = function (...args) {
      state.inflight++
      return originalFetch.apply(this, args).finally(() => { state.inflight--; touch() })
    }
  }
  // A fetch answers once the headers are in; the body is read after. Reading it counts as in flight
  // too, so a page that renders from response.json() is waited for however long the body takes.
  if (typeof Response === "function") {
    for (const method of ["json", "text", "arrayBuffer", "blob", "formData"]) {
      const read = Response.prototype[method]
      if (typeof read !== "function") continue
      Response.prototype[method] = function (...args) {
        state.inflight++
        return read.apply(this, args).finally(() => { state.inflight--; touch() })
      }
    }
  }
  if (typeof XMLHttpRequest === "function") {
    const send = XMLHttpRequest.prototype.send
    XMLHttpRequest.prototype.send = function (...args) {
      state.inflight++
      this.addEventListener("loadend", () => { state.inflight--; touch() }, { once: true })
      return send.apply(this, args)
    }
  }
  // Short timers an action's handlers start (a debounced search, a delayed re-render) are part of
  // its effect: timers started between prepare and settle, up to shortTimerMs, are waited for.
  const shortTimerMs = 1000
  const originalSetTimeout = globalThis.setTimeout
  const originalClearTimeout = globalThis.clearTimeout
  globalThis.setTimeout = function (callback, delay, ...rest) {
    if (!state.watchingTimers || typeof callback !== "function" || Number(delay || 0) > shortTimerMs) {
      return originalSetTimeout.call(this, callback, delay, ...rest)
    }
    const id = originalSetTimeout.call(this, (...args) => {
      state.timers.delete(id)
      touch()
      callback(...args)
    }, delay, ...rest)
    state.timers.add(id)
    return id
  }
  globalThis.clearTimeout = function (id) {
    state.timers.delete(id)
    return originalClearTimeout.call(this, id)
  }
  // DOM changes count only from the first prepare or settle on: watching them while the page loads
  // would make the browser record every node its parser inserts, for nobody.
  let observer = null
  const observe = () => {
    if (observer !== null) return
    observer = new MutationObserver(touch)
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
  }
  if (globalThis.navigation && typeof globalThis.navigation.addEventListener === "function") {
    globalThis.navigation.addEventListener("navigate", (event) => {
      if (!event.destination || !event.destination.sameDocument) state.navigating = true
    })
  }
  addEventListener("beforeunload", () => { state.navigating = true })

  const sleep = (ms) => new Promise((resolve) => originalSetTimeout(resolve, ms))

  // Depth-first search through open shadow roots and same-origin iframes.
  const findDeep = (root, selector) => {
    const direct = root.querySelector(selector)
    if (direct) return direct
    for (const host of root.querySelectorAll("*")) {
      if (host.shadowRoot) {
        const inner = findDeep(host.shadowRoot, selector)
        if (inner) return inner
      }
      if (host.tagName === "IFRAME" || host.tagName === "FRAME") {
        let inner = null
        try { inner = host.contentDocument ? findDeep(host.contentDocument, selector) : null } catch {}
        if (inner) return inner
      }
    }
    return null
  }

  // The element's box in top-level viewport coordinates, adding the offsets of enclosing iframes.
  const viewportBox = (element) => {
    const rect = element.getBoundingClientRect()
    let x = rect.left, y = rect.top
    let view = element.ownerDocument.defaultView
    while (view && view.frameElement) {
      const frame = view.frameElement
      const frameRect = frame.getBoundingClientRect()
      x += frameRect.left + frame.clientLeft
      y += frameRect.top + frame.clientTop
      view = frame.ownerDocument.defaultView
    }
    return { x, y, width: rect.width, height: rect.height }
  }

  const hitAt = (x, y) => {
    let root = document, hit = null, localX = x, localY = y
    for (let depth = 0; depth < 16; depth++) {
      const found = root.elementFromPoint(localX, localY)
      if (!found) return hit
      hit = found
      if (found.shadowRoot && found.shadowRoot !== root) { root = found.shadowRoot; continue }
      if (found.tagName === "IFRAME" || found.tagName === "FRAME") {
        let inner = null
        try { inner = found.contentDocument } catch {}
        if (!inner) return hit
        const frameRect = found.getBoundingClientRect()
        localX -= frameRect.left + found.clientLeft
        localY -= frameRect.top + found.clientTop
        root = inner
        continue
      }
      return hit
    }
    return hit
  }

  const composedContains = (ancestor, node) => {
    for (let current = node; current; current = current.parentNode || current.host) {
      if (current === ancestor) return true
    }
    return false
  }

  const describe = (element) => {
    if (!element) return "nothing"
    const id = element.id ? "#" + element.id : ""
    const text = (element.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40)
    return element.tagName.toLowerCase() + id + (text ? ' "' + text + '"' : "")
  }

  const locate = (target) => {
    if (target.ref !== undefined) {
      const sextant = globalThis.__sextant
      if (!sextant || typeof sextant.resolve !== "function") return { error: "stale" }
      const resolved = sextant.resolve(target.ref, { scroll: true })
      if (!resolved || resolved.ok === false || resolved.stale) return { error: "stale" }
      // Elements inside iframes come back as coordinates only: the node at that point is the element.
      const element = resolved.element || hitAt(resolved.x, resolved.y)
      if (!element) return { error: "stale" }
      return { element }
    }
    let element = null
    try { element = findDeep(document, target.selector) } catch (error) {
      return { error: "selector", detail: String(error && error.message || error) }
    }
    return element ? { element } : { error: "missing" }
  }

  const isVisible = (element) => {
    if (!element.isConnected) return false
    if (typeof element.checkVisibility === "function" && !element.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) return false
    const rect = element.getBoundingClientRect()
    return rect.width > 0 && rect.height > 0
  }

  const inViewport = (box) =>
    box.x >= 0 && box.y >= 0 && box.x + box.width <= innerWidth && box.y + box.height <= innerHeight

  const labelFor = (element) => {
    if (element.labels && element.labels.length > 0) return element.labels[0]
    return null
  }

  // Where a pointer should land: the element's centre, or its label's when a styled control hides it.
  const aim = (element, needsPointer) => {
    let aimed = element
    if (!isVisible(element)) {
      const label = labelFor(element)
      if (label && isVisible(label)) aimed = label
      else return { error: "hidden" }
    }
    let box = viewportBox(aimed)
    if (!inViewport(box)) {
      aimed.scrollIntoView({ block: "center", inline: "center", behavior: "instant" })
      box = viewportBox(aimed)
    }
    const x = box.x + box.width / 2, y = box.y + box.height / 2
    if (needsPointer) {
      const hit = hitAt(x, y)
      const label = hit && hit.closest ? hit.closest("label") : null
      const ok = hit && (composedContains(aimed, hit) || composedContains(element, hit) || (label && label.control === element))
      if (!ok) return { error: "covered", detail: "covered by " + describe(hit) }
    }
    return { x, y, box }
  }

  const selectAll = (element) => {
    element.focus({ preventScroll: true })
    if (typeof element.select === "function") {
      try { element.select(); return true } catch {}
    }
    if (element.isContentEditable) {
      const selection = element.ownerDocument.getSelection()
      const range = element.ownerDocument.createRange()
      range.selectNodeContents(element)
      selection.removeAllRanges()
      selection.addRange(range)
      return true
    }
    return false
  }

  // WebDriver's element selection semantics for <option>: set selectedness, then input and change.
  const selectOptions = (element, wanted) => {
    if (element.tagName !== "SELECT") return { error: "notselect", detail: describe(element) + " is not a <select>" }
    const options = Array.from(element.options)
    const chosen = []
    for (const value of wanted) {
      const option = options.find((o) => o.value === value) || options.find((o) => o.label.trim() === value.trim() || o.text.trim() === value.trim())
      if (!option) return { error: "nooption", detail: JSON.stringify(value) + " is not an option of " + describe(element) + " (options: " + options.map((o) => JSON.stringify(o.label.trim())).join(", ") + ")" }
      chosen.push(option)
    }
    if (!element.multiple && chosen.length > 1) return { error: "nooption", detail: describe(element) + " takes one option, got " + chosen.length }
    element.focus({ preventScroll: true })
    for (const option of options) option.selected = chosen.includes(option)
    element.dispatchEvent(new Event("input", { bubbles: true, composed: true }))
    element.dispatchEvent(new Event("change", { bubbles: true }))
    return { selected: chosen.map((o) => o.label.trim()) }
  }

  // Elements marked for a WebDriver element lookup (upload, element screenshot); unmarked on the
  // next action so the page keeps no trace.
  let markCounter = 0
  const marked = []
  const mark = (element) => {
    const value = "m" + (++markCounter) + state.doc
    element.setAttribute("data-sextant-mark", value)
    marked.push(element)
    return value
  }
  const pointerOps = { click: true, check: true, uncheck: true, hover: true, set: true, drag: true }

  // The viewport points where a phrase of the element's text starts and ends, for a trusted
  // press-move-release that selects it.
  const textSpan = (element, wanted) => {
    const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    const nodes = []
    let text = ""
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push({ node, start: text.length })
      text += node.data
    }
    let at = text.indexOf(wanted)
    if (at < 0) at = text.toLowerCase().indexOf(wanted.toLowerCase())
    if (at < 0) return undefined
    const position = (index) => {
      let found = nodes[0]
      for (const entry of nodes) if (entry.start <= index) found = entry
      return { node: found.node, offset: index - found.start }
    }
    const charRect = (index) => {
      const { node, offset } = position(index)
      const range = element.ownerDocument.createRange()
      range.setStart(node, offset)
      range.setEnd(node, offset + 1)
      return range.getClientRects()[0]
    }
    const first = position(at).node.parentElement
    if (first) first.scrollIntoView({ block: "center", behavior: "instant" })
    const start = charRect(at), end = charRect(at + wanted.length - 1)
    if (!start || !end) return undefined
    return { x: start.left + 1, y: start.top + start.height / 2, toX: end.right - 1, toY: end.top + end.height / 2 }
  }

  // Inputs whose text cannot be typed key by key in every locale: the browser takes their value in
  // one format (2024-05-01, 14:30, 2024-05-01T14:30, #ff0000, a number), as Playwright's fill does.
  const valueTypes = { date: true, time: true, "datetime-local": true, month: true, week: true, color: true, range: true }
  const pad = (number) => String(number).padStart(2, "0")
  const inputFormat = (type, text) => {
    const value = String(text).trim()
    if (type === "date") {
      if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value
      const slash = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value)
      if (slash) return slash[3] + "-" + pad(slash[1]) + "-" + pad(slash[2])
      const parsed = new Date(value + (/\d{1,2}:\d{2}/.test(value) ? "" : " 12:00"))
      return Number.isNaN(parsed.getTime()) ? value : parsed.getFullYear() + "-" + pad(parsed.getMonth() + 1) + "-" + pad(parsed.getDate())
    }
    if (type === "time") {
      const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i.exec(value)
      if (!match) return value
      let hours = Number(match[1])
      const meridiem = (match[4] || "").toLowerCase()
      if (meridiem.startsWith("p") && hours < 12) hours += 12
      if (meridiem.startsWith("a") && hours === 12) hours = 0
      return pad(hours) + ":" + match[2] + (match[3] ? ":" + match[3] : "")
    }
    if (type === "datetime-local") {
      const match = /^(\S+)[ T](\S+(?:\s*[ap]\.?m\.?)?)$/i.exec(value)
      return match ? inputFormat("date", match[1]) + "T" + inputFormat("time", match[2]) : value
    }
    return value
  }
  const assignValue = (element, type, text) => {
    const wanted = inputFormat(type, text)
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set
    element.focus({ preventScroll: true })
    setter.call(element, wanted)
    if (element.value !== wanted && !(type === "range" && Number(element.value) === Number(wanted))) {
      setter.call(element, "")
      return { error: "badvalue", detail: describe(element) + " (" + type + ") does not take " + JSON.stringify(String(text)) + ": give it as " + ({ date: "2024-05-01", time: "14:30", "datetime-local": "2024-05-01T14:30", month: "2024-05", week: "2024-W18", color: "#ff0000", range: "a number from " + (element.min || 0) + " to " + (element.max || 100) })[type] }
    }
    element.dispatchEvent(new Event("input", { bubbles: true, composed: true }))
    element.dispatchEvent(new Event("change", { bubbles: true }))
    return { assigned: true, value: element.value }
  }

  // Where text typed into the element goes: its document (a frame's, when the ref landed on a frame)
  // and the action of its form. Answers the first origin not in the allowed list, or nothing.
  const originRefused = (element, origins) => {
    const originOfUrl = (raw, base) => {
      try { const url = new URL(raw, base); return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol } catch { return "null" }
    }
    let origin
    if (element.localName === "iframe" || element.localName === "frame") {
      try { origin = element.contentWindow.origin } catch { origin = originOfUrl(element.src || "about:blank", document.baseURI) }
    } else {
      const view = element.ownerDocument.defaultView
      origin = view ? view.origin : "null"
    }
    if (!origins.includes(origin)) return origin
    const form = element.form
    if (form) {
      const action = form.getAttribute("action") === null ? form.ownerDocument.location.href : form.action
      const target = originOfUrl(action, form.ownerDocument.baseURI)
      if (!origins.includes(target)) return target
    }
    return undefined
  }

  const prepare = async (spec) => {
    observe()
    const deadline = performance.now() + (spec.waitMs || 0)
    // The "before" snapshot comes first: select and focus change the page inside prepareOnce.
    const before = spec.before && globalThis.__sextant ? globalThis.__sextant.look(spec.before) : undefined
    let last = { error: "missing" }
    for (;;) {
      last = prepareOnce(spec)
      if (!last.error || last.error === "stale" || last.error === "selector" || last.error === "nooption" || last.error === "notselect" || performance.now() >= deadline) break
      await sleep(25)
    }
    state.navigating = false
    state.mutations = 0
    state.timers.clear()
    state.watchingTimers = !last.error
    if (before !== undefined) last.before = before
    last.inputs = state.inputs
    last.doc = state.doc
    return JSON.stringify(last)
  }

  const isChecked = (element) =>
    typeof element.checked === "boolean" ? element.checked : element.getAttribute("aria-checked") === "true"

  const prepareOnce = (spec) => {
    for (const element of marked.splice(0)) element.removeAttribute("data-sextant-mark")
    const found = locate(spec.target)
    if (found.error) return found
    const element = found.element
    const tag = element.tagName.toLowerCase()
    const type = (element.getAttribute("type") || "").toLowerCase()
    // A switch or box drawn with ARIA (a button with role=switch) says its state in aria-checked.
    const result = { tag, type, checked: isChecked(element) }
    // Who the target is, for the run's recording, when the driver's last look does not say.
    const sextant = globalThis.__sextant
    if (spec.describe && sextant && typeof sextant.describe === "function") result.element = sextant.describe(element)
    if ((element.disabled === true || element.getAttribute("aria-disabled") === "true") && spec.op !== "hover") {
      return { error: "disabled", detail: describe(element) + " is disabled" }
    }
    if (spec.origins && spec.op === "input") {
      const refused = originRefused(element, spec.origins)
      if (refused) return { error: "origin", detail: refused }
    }
    if (spec.op === "select") return Object.assign(result, selectOptions(element, spec.values || []))
    if (spec.op === "focus") {
      element.focus({ preventScroll: false })
      return result
    }
    if (spec.op === "upload") {
      if (tag !== "input" || type !== "file") return { error: "notfile", detail: describe(element) + " is not a file input" }
      return Object.assign(result, { mark: mark(element) })
    }
    if (spec.op === "screenshot") {
      const value = mark(element)
      element.scrollIntoView({ block: "center", behavior: "instant" })
      return Object.assign(result, { mark: value, box: viewportBox(element) })
    }
    if (spec.op === "selectText") {
      const wanted = String(spec.value || "").trim()
      const span = wanted === "" ? undefined : textSpan(element, wanted)
      if (!span) return { error: "notext", detail: "no text " + JSON.stringify(wanted) + " in " + describe(element) }
      return Object.assign(result, span)
    }
    if (spec.op === "scroll") {
      // Scroll inside the element (a list, a text area, a terms box): a trusted wheel over it.
      const aimedBox = aim(element, false)
      if (aimedBox.error) return aimedBox
      const toEnd = spec.value !== "top"
      return Object.assign(result, aimedBox, { deltaY: (toEnd ? 1 : -1) * Math.max(element.scrollHeight, 1000) })
    }
    const aimed = aim(element, pointerOps[spec.op] === true)
    if (aimed.error) return aimed
    if (spec.op === "drag") {
      Object.assign(result, aimed)
      if (spec.to) {
        const destination = locate(spec.to)
        if (destination.error) return destination
        const box = viewportBox(destination.element)
        return Object.assign(result, { toX: box.x + box.width / 2, toY: box.y + Math.min(box.height / 2, 24) })
      }
      return Object.assign(result, { toX: aimed.x + Number(spec.dx || 0), toY: aimed.y + Number(spec.dy || 0) })
    }
    Object.assign(result, aimed)
    if (spec.op === "input" && tag === "input" && valueTypes[type] === true && typeof spec.value === "string") {
      const assigned = assignValue(element, type, spec.value)
      return assigned.error ? assigned : Object.assign(result, assigned)
    }
    if (spec.op === "input" || spec.op === "clear") {
      if (!selectAll(element)) return { error: "noteditable", detail: describe(element) + " does not take text" }
      result.watched = watchInput(element)
      result.value = element.value
    }
    if (spec.op === "click") result.watched = watchInput(element)
    if (spec.op === "press") element.focus({ preventScroll: true })
    if (spec.op === "set") {
      // A native range input, or an ARIA slider / spin button that keeps its value in aria-valuenow.
      const aria = !("value" in element) || element.value === undefined
      result.min = Number((aria ? element.getAttribute("aria-valuemin") : element.min) || 0)
      result.max = Number((aria ? element.getAttribute("aria-valuemax") : element.max) || 100)
      result.step = aria || element.step === "any" ? 1 : Number(element.step || 1)
      result.current = Number(aria ? element.getAttribute("aria-valuenow") : element.value)
    }
    return result
  }

  const currentValue = (spec) => {
    const found = locate(spec.target)
    const element = found.element
    const value = element && ("value" in element) && element.value !== undefined ? element.value : element && element.getAttribute("aria-valuenow")
    return JSON.stringify(found.error ? found : { value, checked: element ? isChecked(element) : false })
  }

  // Waits until the action's effects have settled: no request in flight and the DOM quiet for
  // quietMs, capped at settleMs. Changes the input's own handlers made synchronously are already
  // in when this runs, so only changes arriving after it (timers, responses) are waited for.
  // A started navigation returns at once.
  // With options.inputs, the text input the driver sent alongside this call comes first: wait until
  // that many have landed (at most inputWaitMs), then settle as usual. When this document is not the
  // one the action was prepared in (options.doc), the input landed in that one and led here: a click
  // on a link that loaded before this call arrived. Nothing is waited for then.
  const settle = async (options) => {
    // A document an action navigated to is settled without a prepare of its own.
    observe()
    const sameDocument = options.doc === undefined || options.doc === state.doc
    if (options.inputs !== undefined && sameDocument && state.inputs < options.inputs) {
      await new Promise((resolve) => {
        const timer = originalSetTimeout(resolve, options.inputWaitMs || 0)
        state.inputWaiters.push(() => { originalClearTimeout(timer); resolve() })
      })
    }
    const settledBefore = state.mutations
    state.watchingTimers = false
    await sleep(0)
    const start = performance.now()
    for (;;) {
      if (state.navigating) return JSON.stringify({ navigating: true, doc: state.doc })
      const quiet = state.mutations === settledBefore || performance.now() - state.lastMutation >= options.quietMs
      if ((state.inflight <= 0 && state.timers.size === 0 && quiet) || performance.now() - start >= options.settleMs) break
      await sleep(Math.min(options.quietMs, 10))
    }
    const look = globalThis.__sextant && options.look ? globalThis.__sextant.look(options.look) : undefined
    return JSON.stringify({ navigating: false, doc: state.doc, look })
  }

  const scroll = (op) => {
    const root = document.scrollingElement || document.documentElement
    const viewport = innerHeight
    if (op.direction) window.scrollBy({ top: (op.direction === "down" ? 1 : -1) * viewport * 0.85 * (op.count || 1), behavior: "instant" })
    else if (op.to === "top") window.scrollTo({ top: 0, behavior: "instant" })
    else if (op.to === "bottom") window.scrollTo({ top: root.scrollHeight, behavior: "instant" })
    else if (op.to === "middle") window.scrollTo({ top: (root.scrollHeight - viewport) / 2, behavior: "instant" })
    else if (op.ratio !== undefined) window.scrollTo({ top: (root.scrollHeight - viewport) * op.ratio, behavior: "instant" })
    else if (op.screen !== undefined) window.scrollTo({ top: viewport * op.screen, behavior: "instant" })
    else if (op.target) {
      const found = locate(op.target)
      if (found.error) return JSON.stringify(found)
      found.element.scrollIntoView({ block: "center", behavior: "instant" })
    }
    const y = root.scrollTop
    return JSON.stringify({ y, height: root.scrollHeight, viewportHeight: viewport, atBottom: y + viewport >= root.scrollHeight - 2 })
  }

  const waitFor = async (condition, timeoutMs) => {
    const start = performance.now()
    const check = () => {
      if (condition.ref !== undefined || condition.selector !== undefined) {
        const found = locate(condition.ref !== undefined ? { ref: condition.ref } : { selector: condition.selector })
        if (found.error === "selector") return found
        const wanted = condition.state || (condition.ref !== undefined ? "visible" : "present")
        if (wanted === "hidden") return !found.element || !isVisible(found.element)
        if (!found.element) return false
        return wanted === "present" || isVisible(found.element)
      }
      if (condition.text !== undefined) return (document.body ? document.body.innerText : "").includes(condition.text)
      if (condition.js !== undefined) return Boolean((0, eval)(condition.js))
      return false
    }
    for (;;) {
      const outcome = check()
      if (outcome && outcome.error) return JSON.stringify(outcome)
      if (outcome === true) return JSON.stringify({ ok: true, elapsedMs: performance.now() - start })
      if (performance.now() - start >= timeoutMs) return JSON.stringify({ ok: false, elapsedMs: performance.now() - start })
      await sleep(25)
    }
  }

  // A wheel scroll animates (smooth scrolling): wait until the element stops moving, at most maxMs.
  const scrollSettled = async (spec) => {
    const found = locate(spec.target)
    if (found.error) return JSON.stringify(found)
    const element = found.element
    // The wheel scrolls on the compositor, after the input command has answered: on a busy machine
    // the box may not have moved yet. Stillness counts once it has moved, or once it is at the end
    // the scroll was for; until then the wait goes on (up to maxMs).
    const atEnd = () =>
      spec.to === "bottom" ? element.scrollTop + element.clientHeight >= element.scrollHeight - 1
        : spec.to === "top" ? element.scrollTop <= 0
        : false
    const start = performance.now()
    const first = element.scrollTop
    let last = first, still = performance.now()
    while (performance.now() - start < (spec.maxMs || 1500)) {
      await sleep(30)
      const now = element.scrollTop
      if (now !== last) { last = now; still = performance.now() }
      // At the end it was for: done once still. Moved but short of it: a busy machine can pause the
      // animation between frames, so only a longer stillness ends the wait.
      else if (atEnd() && performance.now() - still >= 120) break
      else if (last !== first && performance.now() - still >= 400) break
    }
    // The wheel did not carry the box to the end it was for (a short wheel on a long box, or frames the
    // machine dropped): finish there directly, so "scrolled to the bottom" is true when answered.
    const fallback = (spec.to === "bottom" || spec.to === "top") && !atEnd()
    if (fallback) element.scrollTo({ top: spec.to === "top" ? 0 : element.scrollHeight, behavior: "instant" })
    return JSON.stringify({ scrollTop: element.scrollTop, finished: fallback })
  }

  const look = (options) => globalThis.__sextant.look(options)
  const markedElement = (value) => marked.find((element) => element.getAttribute("data-sextant-mark") === value) || null

  globalThis.__sextantActor = { state, look, markedElement, prepare, currentValue, settle, scroll, waitFor, scrollSettled }
})()
`

/** What the short call answers when the page has no actor yet (a document the preload script missed). */
export const missingMarker = "__sextant_missing__"

/**
 * The declaration sent on every call: short, so the page compiles it in microseconds. It calls
 * `__sextantActor[method](...JSON.parse(argument))` and returns its JSON string, or the missing
 * marker when the document has no actor yet.
 */
export const callActorDeclaration = `async function (method, argument) {
  const actor = globalThis.__sextantActor
  if (!actor || !globalThis.__sextant) return ${JSON.stringify(missingMarker)}
  return await actor[method](...JSON.parse(argument))
}`

/**
 * The declaration that installs the page script and the actor, then makes the call: used once per
 * document the BiDi preload script did not reach (every document on a Classic-only session).
 */
export const installAndCallDeclaration = (
  pageScriptSource: string,
): string => `async function (method, argument) {
  if (!globalThis.__sextant) { ${pageScriptSource} }
  if (!globalThis.__sextantActor) { ${actorScriptSource} }
  return await globalThis.__sextantActor[method](...JSON.parse(argument))
}`
