import {
  type ActionOp,
  ActOrigins,
  type ActResult,
  type ActValue,
  BrowserDriver,
  type BrowserDriverShape,
  type DialogInfo,
  DialogOpen,
  DriverCrashed,
  DriverError,
  type DriverErrorReason,
  ElementNotFound,
  formatTarget,
  InvalidArgument,
  type LookOptions,
  NavigationFailed,
  type NavigationResult,
  NotInteractable,
  OriginRefused,
  type PageSnapshot,
  PageStatus,
  parseTarget,
  type RecordedAction,
  ScriptError,
  type ScrollOp,
  type ScrollResult,
  StaleRef,
  type TabInfo,
  type Target,
  Timeout,
  type WaitCondition,
  type WaitResult,
} from "@sextant/core"
import { describeChange, diffScreens, pageScriptSource, parseSnapshot } from "@sextant/perception"
import { Effect, Layer } from "effect"
import type { z } from "zod"
import { type ErrorContext, toDriverError } from "./DriverErrors.ts"
import { DriverOptions } from "./DriverOptions.ts"
import {
  actorScriptSource,
  callActorDeclaration,
  installAndCallDeclaration,
  missingMarker,
} from "./internal/ActorScript.ts"
import { devtoolsSockets } from "./internal/DevtoolsSocket.ts"
import { type DialogEvent, makeDialogs } from "./internal/Dialogs.ts"
import {
  type Channels,
  callFunction,
  chordKeys,
  click,
  dragActions,
  inputAlongsideScripts,
  insertText,
  keyActions,
  moveActions,
  performActions,
  probeCdp,
  wheelActions,
} from "./internal/Protocol.ts"
import { type DescribedElement, knowsTarget, makeRecorder, recordedElement } from "./internal/Recording.ts"
import {
  type ConnectOptions,
  connect,
  type DriverSession,
  fromBrowser,
  type LaunchOptions,
  launch,
} from "./Session.ts"

const landedDeclaration = `function () {
  const failed = location.protocol === "chrome-error:"
  const code = failed ? ((document.querySelector(".error-code") || {}).textContent || "net error").trim() : ""
  const entry = performance.getEntriesByType("navigation")[0]
  return JSON.stringify([location.href, document.title, code, (entry && entry.responseStatus) || 0])
}`

/** Statuses after which a navigation is tried again: the server failed, or asked us to slow down. */
const retriedStatus = (status: number): boolean => status === 429 || status >= 500

/** Retry-After as milliseconds: delay seconds or an HTTP date. */
export const retryAfterMs = (value: string | undefined, now = Date.now()): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

// What WebdriverIO's BiDi `url` answers: the navigation's request with its response.
interface NavigationRequest {
  readonly response?: { readonly status?: number; readonly headers?: Record<string, string> }
}

const headerOf = (headers: Record<string, string> | undefined, name: string): string | undefined => {
  if (headers === undefined) return undefined
  const key = Object.keys(headers).find((header) => header.toLowerCase() === name)
  return key === undefined ? undefined : headers[key]
}

type ResolvedOptions = z.output<typeof DriverOptions>

interface Prepared {
  readonly error?: string
  /** The element found, described by the page when the last look did not show it. */
  readonly element?: DescribedElement
  readonly detail?: string
  readonly x?: number
  readonly y?: number
  readonly box?: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }
  readonly checked?: boolean
  readonly value?: string
  readonly mark?: string
  readonly min?: number
  readonly max?: number
  readonly step?: number
  readonly current?: number
  readonly selected?: ReadonlyArray<string>
  readonly before?: string
  readonly inputs?: number
  readonly watched?: boolean
  /** The value was set in the input's own format (date, time, range…) instead of typed. */
  readonly assigned?: boolean
  /** Where a drag or a text selection ends. */
  readonly toX?: number
  readonly toY?: number
  /** How far a scroll inside the element goes. */
  readonly deltaY?: number
}

interface Settled {
  readonly navigating: boolean
  readonly doc: string
  readonly look?: string
}

const fail = (method: string, reason: DriverErrorReason, cause?: unknown) =>
  Effect.fail(new DriverError({ method, reason, cause }))

/**
 * The drop point of a drag: `["to", target]` (a ref or CSS selector) or `["by", dx, dy]` in CSS pixels.
 */
const dragSpec = (op: ActionOp, value: ActValue | undefined): Record<string, unknown> => {
  if (op !== "drag" || !Array.isArray(value)) return {}
  const [kind, first, second] = value as ReadonlyArray<string>
  if (kind === "to" && first !== undefined) return { to: parseTarget(first) }
  if (kind === "by") return { dx: Number(first ?? 0), dy: Number(second ?? 0) }
  return {}
}

const preparedError = (
  method: string,
  target: Target,
  prepared: Prepared,
  origins?: ReadonlyArray<string>,
): DriverError => {
  const name = formatTarget(target)
  const reason = ((): DriverErrorReason => {
    switch (prepared.error) {
      case "stale":
        return "ref" in target ? new StaleRef({ ref: target.ref }) : new ElementNotFound({ target: name })
      case "missing":
        return new ElementNotFound({ target: name })
      case "selector":
        return new InvalidArgument({
          detail: `${name} is not a valid CSS selector (${prepared.detail ?? ""})`,
        })
      case "hidden":
        return new NotInteractable({ target: name, detail: "it is hidden" })
      case "covered":
      case "disabled":
        return new NotInteractable({ target: name, detail: prepared.detail ?? prepared.error })
      case "origin":
        return new OriginRefused({ target: name, origin: prepared.detail ?? "null", allowed: origins ?? [] })
      default:
        return new InvalidArgument({ detail: prepared.detail ?? `${name} cannot take this operation` })
    }
  })()
  return new DriverError({ method, reason })
}

const valueText = (op: ActionOp, value: ActValue | undefined): Effect.Effect<string, DriverError> => {
  if (typeof value === "string") return Effect.succeed(value)
  if (typeof value === "number") return Effect.succeed(String(value))
  return fail(
    "act",
    new InvalidArgument({ detail: `${op} needs one text value, got ${JSON.stringify(value)}` }),
  )
}

/**
 * Builds the `BrowserDriver` service on a session: one round trip per look, trusted input for every
 * action, errors mapped by their W3C code. The session's lifetime is the caller's.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { launch, makeDriver } from "@sextant/webdriverio"
 * const program = Effect.scoped(
 *   Effect.gen(function* () {
 *     const driver = yield* makeDriver(yield* launch({}))
 *     yield* driver.navigate("http://127.0.0.1:4000/login")
 *     return (yield* driver.look()).tree
 *   }),
 * )
 * ```
 */
export const makeDriver = Effect.fn("webdriverio.makeDriver")(function* (
  session: DriverSession,
  input: DriverOptions = {},
) {
  const parsed = DriverOptions.safeParse(input)
  if (!parsed.success) {
    return yield* fail(
      "makeDriver",
      new InvalidArgument({
        detail: parsed.error.issues
          .map((issue) => `options.${issue.path.join(".")}: ${issue.message}`)
          .join("; "),
      }),
    )
  }
  const options: ResolvedOptions = parsed.data
  const browser = session.browser
  const bidi = browser.isBidi === true

  // Liveness: every operation has a time limit, and on a launched session a dead ChromeDriver or
  // Chromium fails it as DriverCrashed within `crashCheckMs`, naming what died, instead of letting
  // it wait out its limit or report the symptom ("invalid session id") as the cause.
  const crashedError = (method: string, cause?: unknown): DriverError | undefined => {
    const died = session.crashed?.()
    return died === undefined
      ? undefined
      : new DriverError({ method, reason: new DriverCrashed({ detail: died }), cause })
  }
  const crashWatch = (method: string): Effect.Effect<never, DriverError> =>
    session.crashed === undefined
      ? Effect.never
      : Effect.gen(function* () {
          for (;;) {
            yield* Effect.sleep(options.crashCheckMs)
            const crashed = crashedError(method)
            if (crashed !== undefined) return yield* Effect.fail(crashed)
          }
        })
  const guard =
    (method: string, limitMs: number = options.commandTimeoutMs) =>
    <A, R>(effect: Effect.Effect<A, DriverError, R>): Effect.Effect<A, DriverError, R> =>
      Effect.suspend(() => {
        // A call on a session whose driver or browser already died fails before it is sent.
        const crashed = crashedError(method)
        return crashed === undefined ? Effect.raceFirst(effect, crashWatch(method)) : Effect.fail(crashed)
      }).pipe(
        Effect.timeoutOrElse({
          duration: limitMs,
          orElse: () =>
            Effect.fail(
              crashedError(method) ??
                new DriverError({
                  method,
                  reason: new Timeout({ operation: `BrowserDriver.${method}`, timeoutMs: limitMs }),
                }),
            ),
        }),
        // Whatever the symptom ("invalid session id", a closed socket), a dead process is the cause.
        Effect.catch((error: DriverError) => Effect.fail(crashedError(method, error) ?? error)),
      )

  const cdp = yield* Effect.tryPromise({ try: () => probeCdp(browser), catch: toDriverError("start") }).pipe(
    guard("start"),
  )
  // Only a session that tracks dialogs (BiDi) uses the tab's own socket: a script sent there while
  // an alert is open would wait for it instead of failing as ChromeDriver's endpoint does.
  const sockets =
    cdp && bidi
      ? yield* Effect.acquireRelease(
          Effect.sync(() => devtoolsSockets(browser)),
          (opened) => Effect.sync(() => opened.close()),
        )
      : undefined
  const channels: Channels = { bidi, cdp, sockets }
  const installer = installAndCallDeclaration(pageScriptSource)

  let context = yield* Effect.tryPromise({
    try: () => browser.getWindowHandle(),
    catch: toDriverError("start"),
  }).pipe(guard("start"))
  let lastSnapshot: PageSnapshot | undefined
  const dialogs = makeDialogs({ bidi, classicText: () => browser.getAlertText() })
  const newTabs: Array<string> = []

  if (bidi) {
    // Installed on every new document before the page's own scripts; removed again on close, so a
    // wrapped browser is left as it was found.
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          browser.scriptAddPreloadScript({
            functionDeclaration: `() => { ${pageScriptSource}\n${actorScriptSource} }`,
          }),
        catch: toDriverError("start"),
      }).pipe(guard("start")),
      (added) =>
        Effect.tryPromise(() => browser.scriptRemovePreloadScript({ script: added.script })).pipe(
          // A crashed browser never answers; closing must not wait for it.
          Effect.timeout("2 seconds"),
          Effect.ignore,
        ),
    )
  }
  if (bidi) {
    const onDialog = (event: DialogEvent) => dialogs.opened(event)
    const onContext = (event: { context: string; parent?: string | null }) => {
      if (event.parent === null || event.parent === undefined) newTabs.push(event.context)
    }
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          await browser.sessionSubscribe({ events: ["browsingContext.contextCreated"] })
          browser.on("dialog", onDialog as never)
          browser.on("browsingContext.contextCreated", onContext as never)
        },
        catch: toDriverError("start"),
      }).pipe(guard("start")),
      () =>
        Effect.sync(() => {
          browser.off("dialog", onDialog as never)
          browser.off("browsingContext.contextCreated", onContext as never)
        }),
    )
  }

  if (options.recordTraffic && !bidi) {
    return yield* fail(
      "makeDriver",
      new InvalidArgument({
        detail:
          "options.recordTraffic: recording traffic needs a WebDriver BiDi session (webSocketUrl: true); turn it off or use BiDi",
      }),
    )
  }
  const recorder = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () => makeRecorder(bidi ? browser : undefined, options.recordTraffic),
      catch: toDriverError("start"),
    }).pipe(guard("start")),
    (opened) => Effect.promise(() => opened.close()).pipe(Effect.timeout("2 seconds"), Effect.ignore),
  )
  /** Runs an operation and, when it succeeds, records what a script would need to do it again. */
  const recorded =
    <A>(record: (result: A) => RecordedAction | undefined) =>
    <E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.tap(effect, (result) =>
        Effect.sync(() => {
          const action = record(result)
          if (action !== undefined) recorder.push(action)
        }),
      )

  const call = (method: string, errorContext: ErrorContext = {}, viaSocket = false, direct = false) =>
    Effect.fn(`BrowserDriver.${method}`)(function* (actorMethod: string, ...args: ReadonlyArray<unknown>) {
      const result = yield* Effect.tryPromise({
        try: async () => {
          const argument = [actorMethod, JSON.stringify(args)]
          const answer = await callFunction(
            browser,
            channels,
            context,
            callActorDeclaration,
            argument,
            viaSocket,
            direct && dialogs.pending() === undefined,
          )
          return answer === missingMarker
            ? callFunction(
                browser,
                channels,
                context,
                installer,
                argument,
                viaSocket,
                direct && dialogs.pending() === undefined,
              )
            : answer
        },
        catch: toDriverError(method, errorContext),
      })
      if (typeof result !== "string") {
        return yield* fail(
          method,
          new ScriptError({ detail: `the page answered ${typeof result}, not JSON` }),
        )
      }
      return result
    })

  const snapshotOf = (
    json: string,
    lookOptions: LookOptions = {},
  ): Effect.Effect<PageSnapshot, DriverError> =>
    Effect.try({
      try: () => parseSnapshot(json, { ...options.look, ...lookOptions }),
      // parseSnapshot already fails with a DriverError that says what the page answered.
      catch: (cause) =>
        cause instanceof DriverError
          ? cause
          : new DriverError({
              method: "look",
              reason: new ScriptError({ detail: `the snapshot could not be read: ${String(cause)}` }),
              cause,
            }),
    })

  // One call for where a navigation ended; Chromium shows its own error page (chrome-error://)
  // instead of failing the command when a site cannot be reached.
  const navigationResult = (method: string, requested?: string) =>
    Effect.gen(function* () {
      const answer = yield* Effect.tryPromise({
        try: () => callFunction(browser, channels, context, landedDeclaration, []),
        catch: toDriverError(method),
      })
      const [url, pageTitle, errorCode, status] = JSON.parse(String(answer)) as [
        string,
        string,
        string,
        number,
      ]
      if (errorCode !== "") {
        return yield* fail(
          method,
          new NavigationFailed({
            url: requested ?? pageTitle,
            detail: errorCode || "the browser showed its error page",
          }),
        )
      }
      return { url, title: pageTitle, status } satisfies NavigationResult
    })

  const navigate: BrowserDriverShape["navigate"] = Effect.fn("BrowserDriver.navigate")(
    function* (url, navigateOptions) {
      const timeoutMs = navigateOptions?.timeoutMs ?? options.navigationTimeoutMs
      // A user's own WebdriverIO browser may resolve paths against its baseUrl; anything else needs
      // a whole URL, or the browser would guess a host from the word and fail with a DNS error.
      if (!URL.canParse(url) && browser.options.baseUrl === undefined) {
        return yield* fail(
          "navigate",
          new InvalidArgument({
            detail: `url ${JSON.stringify(url)} is not an absolute URL: give the scheme and host, e.g. http://127.0.0.1:4000/login`,
          }),
        )
      }
      for (let attempt = 1; ; attempt++) {
        const { result, retryAfter } = yield* load(url, timeoutMs)
        const status = result.status ?? 0
        if (!retriedStatus(status)) return result
        const failStatus = (retryAfterMs?: number) =>
          Effect.fail(
            new DriverError({
              method: "navigate",
              reason: new PageStatus({ url, status, attempts: attempt, retryAfterMs }),
            }),
          )
        if (retryAfter !== undefined && retryAfter > options.maxRetryAfterMs)
          return yield* failStatus(retryAfter)
        if (attempt > options.statusRetries) return yield* failStatus(retryAfter)
        yield* Effect.sleep(retryAfter ?? options.statusBackoffMs * 2 ** (attempt - 1))
      }
    },
  )

  // One load of `url`: where it landed, with the document's status and Retry-After when the
  // session can read them (BiDi answers the response; Classic only the status, from the page).
  const load = (url: string, timeoutMs: number) =>
    Effect.gen(function* () {
      lastSnapshot = undefined
      const request = Effect.tryPromise({
        try: () => browser.url(url) as Promise<unknown>,
        catch: (cause) => {
          const mapped = toDriverError("navigate", { target: url, timeoutMs })(cause)
          return mapped.reason._tag === "DriverUnknown" || mapped.reason._tag === "InvalidArgument"
            ? new DriverError({
                method: "navigate",
                reason: new NavigationFailed({ url, detail: mapped.reason.message }),
                cause,
              })
            : mapped
        },
      })
      // An alert the page opens while it loads answers DialogOpen at once, not after the time limit.
      return yield* dialogs.guard(
        "navigate",
        `loading ${url}`,
        timeoutMs,
        Effect.gen(function* () {
          const response = ((yield* request) as NavigationRequest | undefined)?.response
          const landed = yield* navigationResult("navigate", url)
          const status = response?.status ?? landed.status
          return {
            result: { ...landed, status },
            retryAfter: retryAfterMs(headerOf(response?.headers, "retry-after")),
          }
        }),
      )
    })

  const look: BrowserDriverShape["look"] = Effect.fn("BrowserDriver.look")(function* (lookOptions) {
    const merged = { ...options.look, ...lookOptions, since: undefined }
    const json = yield* dialogs.guard(
      "look",
      "look",
      options.lookTimeoutMs,
      call("look", {}, false, true)("look", merged),
    )
    const snapshot = yield* snapshotOf(json, lookOptions)
    if (lookOptions?.within === undefined && lookOptions?.since === undefined) lastSnapshot = snapshot
    return snapshot
  })

  // Polls the page until a navigation an action started has produced a new, parsed document.
  const awaitNavigation = Effect.fn("BrowserDriver.awaitNavigation")(function* (settleOptions: object) {
    const deadline = Date.now() + options.navigationTimeoutMs
    for (;;) {
      const attempt = yield* call("act")("settle", settleOptions).pipe(
        Effect.map((json) => JSON.parse(json) as Settled),
        Effect.catch((error) =>
          error.reason._tag === "DialogOpen" || error.reason._tag === "SessionClosed"
            ? Effect.fail(error)
            : Effect.succeed(undefined),
        ),
      )
      if (attempt !== undefined && !attempt.navigating) return attempt
      if (Date.now() >= deadline) {
        return yield* fail(
          "act",
          new Timeout({
            operation: "the navigation the action started",
            timeoutMs: options.navigationTimeoutMs,
          }),
        )
      }
      yield* Effect.sleep(20)
    }
  })

  const pointer = (x: number, y: number, method = "act") =>
    Effect.tryPromise({
      try: () => click(browser, channels, context, x, y),
      catch: toDriverError(method),
    })

  const keys = (chord: string, times = 1) =>
    Effect.gen(function* () {
      const sequence = chordKeys(chord)
      if (sequence === undefined) {
        return yield* fail(
          "act",
          new InvalidArgument({
            detail: `press takes a key such as Enter, Tab, Escape, ArrowDown or Control+a, got ${JSON.stringify(chord)}`,
          }),
        )
      }
      yield* Effect.tryPromise({
        try: () => performActions(browser, channels, context, keyActions(sequence, times)),
        catch: toDriverError("act"),
      })
    })

  const upload = (mark: string, path: string) =>
    Effect.tryPromise({
      try: async () => {
        const remotePath =
          session.kind === "connected" ? await browser.uploadFile(path).catch(() => path) : path
        if (bidi) {
          // BiDi input.setFiles takes the node itself, so file inputs in shadow roots work too.
          const found = (await browser.scriptCallFunction({
            functionDeclaration: "function (mark) { return globalThis.__sextantActor.markedElement(mark) }",
            arguments: [{ type: "string", value: mark }],
            target: { context },
            awaitPromise: false,
            resultOwnership: "root",
          })) as { type: string; result?: { type?: string; sharedId?: string } }
          const sharedId = found.type === "success" ? found.result?.sharedId : undefined
          if (sharedId !== undefined) {
            await browser.inputSetFiles({ context, element: { sharedId }, files: [remotePath] })
            return
          }
        }
        const element = await browser.$(`[data-sextant-mark="${mark}"]`)
        await browser.elementSendKeys(await element.elementId, remotePath)
      },
      catch: toDriverError("act", { target: path }),
    })

  // Sends the input for one prepared operation; returns a note for the hint when the op did nothing.
  const perform = (target: Target, op: ActionOp, value: ActValue | undefined, prepared: Prepared) =>
    Effect.gen(function* () {
      const x = prepared.x ?? 0
      const y = prepared.y ?? 0
      switch (op) {
        case "click":
          return yield* pointer(x, y)
        case "hover":
          return yield* Effect.tryPromise({
            try: () => performActions(browser, channels, context, moveActions(x, y)),
            catch: toDriverError("act"),
          })
        case "check":
        case "uncheck":
          if (prepared.checked === (op === "check")) return
          return yield* pointer(x, y)
        case "input": {
          if (prepared.assigned === true) return
          const text = yield* valueText(op, value)
          if (text === "") return yield* keys("Backspace")
          return yield* Effect.tryPromise({
            try: () => insertText(browser, channels, context, text),
            catch: toDriverError("act"),
          })
        }
        case "clear":
          if (prepared.value === "") return
          return yield* keys("Backspace")
        case "press":
          return yield* keys(yield* valueText(op, value ?? "Enter"))
        case "set": {
          const wanted = Number(yield* valueText(op, value))
          const min = prepared.min ?? 0
          const max = prepared.max ?? 100
          if (!Number.isFinite(wanted) || wanted < min || wanted > max) {
            return yield* fail(
              "act",
              new InvalidArgument({
                detail: `set needs a number from ${min} to ${max}, got ${JSON.stringify(value)}`,
              }),
            )
          }
          const box = prepared.box ?? { x, y, width: 0, height: 0 }
          const ratio = max === min ? 0 : (wanted - min) / (max - min)
          yield* pointer(box.x + ratio * box.width, y)
          const now = JSON.parse(
            yield* call("act", { target: formatTarget(target) })("currentValue", { target }),
          ) as {
            value?: string
          }
          const step = prepared.step ?? 1
          const difference = Math.round((wanted - Number(now.value ?? wanted)) / step)
          // Up and Down move native ranges, ARIA sliders and spin buttons alike.
          if (difference !== 0) yield* keys(difference > 0 ? "ArrowUp" : "ArrowDown", Math.abs(difference))
          return
        }
        case "upload":
          return yield* upload(prepared.mark ?? "", yield* valueText(op, value))
        case "drag":
        case "selectText":
          return yield* Effect.tryPromise({
            try: () =>
              performActions(
                browser,
                channels,
                context,
                dragActions(x, y, prepared.toX ?? x, prepared.toY ?? y),
              ),
            catch: toDriverError("act"),
          })
        case "scroll":
          yield* Effect.tryPromise({
            try: () => performActions(browser, channels, context, wheelActions(x, y, prepared.deltaY ?? 0)),
            catch: toDriverError("act"),
          })
          yield* call("act", { target: formatTarget(target) })("scrollSettled", {
            target,
            maxMs: 1500,
            to: value === "top" ? "top" : "bottom",
          })
          return
        case "select":
        case "focus":
          return
      }
    })

  const act: BrowserDriverShape["act"] = (target, op, value) =>
    actOnce(target, op, value).pipe(
      Effect.timeoutOrElse({
        duration: options.actTimeoutMs,
        orElse: () =>
          fail(
            "act",
            new Timeout({ operation: `${op} on ${formatTarget(target)}`, timeoutMs: options.actTimeoutMs }),
          ),
      }),
    )

  const actOnce: BrowserDriverShape["act"] = Effect.fn("BrowserDriver.act")(function* (target, op, value) {
    const open = dialogs.pending()?.info
    if (open !== undefined) return yield* fail("act", new DialogOpen({ type: open.type, text: open.text }))
    const values = op === "select" ? (Array.isArray(value) ? value : [String(value ?? "")]) : undefined
    // The diff is against what the agent last saw (its look or the previous act); without one, the
    // prepare call takes a fresh snapshot first, in the same round trip.
    const needBefore = lastSnapshot === undefined
    // A short answer is quicker on the BiDi socket; one carrying a snapshot is quicker over HTTP.
    // Where typed text may go is checked by the same page script that finds and focuses the element.
    const origins = op === "input" ? (yield* ActOrigins).typing : undefined
    // A dialog that opens before the action is sent is not its outcome: it answers DialogOpen.
    const preparedJson = yield* dialogs.guard(
      "act",
      `preparing ${op} on ${formatTarget(target)}`,
      options.actionWaitMs + options.lookTimeoutMs,
      call(
        "act",
        { target: formatTarget(target) },
        !needBefore,
      )("prepare", {
        target,
        op,
        values,
        value:
          (op === "input" || op === "selectText" || op === "scroll") && typeof value === "string"
            ? value
            : undefined,
        ...dragSpec(op, value),
        waitMs: options.actionWaitMs,
        before: needBefore ? options.look : undefined,
        describe: !knowsTarget(target, lastSnapshot),
        ...(origins === undefined ? {} : { origins }),
      }),
    )
    const prepared = JSON.parse(preparedJson) as Prepared
    if (prepared.error !== undefined)
      return yield* Effect.fail(preparedError("act", target, prepared, origins))
    const before = prepared.before === undefined ? lastSnapshot : yield* snapshotOf(prepared.before)
    const tabsBefore = newTabs.length
    const element = recordedElement(target, before, prepared.element)
    /** Records the action once it succeeded, with the element as the page showed it before. */
    const record = (url: string): void =>
      recorder.push({ kind: "act", op, element, value, urlBefore: before?.url ?? url, url })

    const settleOptions = { quietMs: options.quietMs, settleMs: options.settleMs, look: options.look }
    // Typed text or a click and the settle that waits for it go out together when the input takes
    // the BiDi socket: the page script waits for the browser's own beforeinput or mouseup, so one
    // round trip is saved.
    const alongside =
      prepared.watched === true &&
      (op === "click" || typeof value === "number" || (typeof value === "string" && value !== "")) &&
      (yield* Effect.tryPromise({
        try: () => inputAlongsideScripts(browser, channels, context),
        catch: toDriverError("act"),
      }))
    // The first call may land while the document is being replaced; treat that as a navigation.
    const settle = (extra: object) =>
      call(
        "act",
        {},
        alongside,
      )("settle", { ...settleOptions, ...extra }).pipe(
        Effect.map((json) => JSON.parse(json) as Settled),
        Effect.catch((error) =>
          error.reason._tag === "DialogOpen" || error.reason._tag === "SessionClosed"
            ? Effect.fail(error)
            : Effect.succeed({ navigating: true, doc: "" } satisfies Settled),
        ),
      )
    const run = Effect.gen(function* () {
      let settled = alongside
        ? (yield* Effect.all(
            [
              perform(target, op, value, prepared),
              settle({ inputs: (prepared.inputs ?? 0) + 1, inputWaitMs: options.actionWaitMs }),
            ],
            { concurrency: "unbounded" },
          ))[1]
        : yield* Effect.andThen(perform(target, op, value, prepared), settle({}))
      if (settled.navigating) settled = yield* awaitNavigation(settleOptions)
      return settled
    })
    // A dialog blocks the page, so the input command may not answer until it is handled: report
    // the dialog as the action's outcome and let the pending command finish on its own.
    // Classic answers "unexpected alert open" to the next command instead.
    const classicDialog = Effect.catch(
      Effect.map(run, (settled) => ({ settled }) as const),
      (error): Effect.Effect<{ readonly dialog: DialogInfo }, DriverError> =>
        error.reason._tag === "DialogOpen"
          ? Effect.map(
              Effect.tryPromise({ try: () => browser.getAlertText(), catch: toDriverError("act") }),
              (text) => ({ dialog: { type: "alert", text } satisfies DialogInfo }),
            )
          : Effect.fail(error),
    )
    const outcome = bidi
      ? yield* Effect.raceFirst(
          run.pipe(Effect.map((settled) => ({ settled }))),
          Effect.map(dialogs.next, (info) => ({ dialog: info })),
        )
      : yield* classicDialog
    const opened = newTabs.slice(tabsBefore)
    const tabHint = opened.length > 0 ? `; a new tab opened (${opened.join(", ")}): switchTab to use it` : ""
    const tabField = opened.length > 0 ? { newTabs: opened } : {}
    if ("dialog" in outcome) {
      record(before?.url ?? "")
      return {
        ok: true,
        changed: true,
        signals: [],
        actions: before?.actions ?? [],
        hint: `a ${outcome.dialog.type} dialog opened: "${outcome.dialog.text}": accept or dismiss it${tabHint}`,
        url: before?.url ?? "",
        dialog: outcome.dialog,
        ...tabField,
      } satisfies ActResult
    }
    const settled = outcome.settled
    const after = yield* snapshotOf(settled.look ?? "")
    lastSnapshot = after
    const action = { ref: "ref" in target ? target.ref : formatTarget(target), op }
    const diff = diffScreens(before, after, action)
    const hint = describeChange(before, after, action)
    record(after.url)
    return {
      ok: true,
      changed: diff.changed,
      signals: diff.signals,
      actions: after.actions,
      hint: `${hint}${prepared.selected === undefined ? "" : ` (selected ${prepared.selected.join(", ")})`}${tabHint}`,
      url: after.url,
      ...tabField,
    } satisfies ActResult
  })

  const waitFor: BrowserDriverShape["waitFor"] = Effect.fn("BrowserDriver.waitFor")(function* (
    condition: WaitCondition,
    waitOptions,
  ) {
    const timeoutMs = waitOptions?.timeoutMs ?? options.waitTimeoutMs
    const started = Date.now()
    if ("navigation" in condition) {
      const from = condition.navigation.from ?? (yield* currentUrl)
      for (;;) {
        const url = yield* currentUrl.pipe(Effect.catch(() => Effect.succeed(from)))
        if (url !== from) return { ok: true, elapsedMs: Date.now() - started } satisfies WaitResult
        if (Date.now() - started >= timeoutMs) return { ok: false, elapsedMs: Date.now() - started }
        yield* Effect.sleep(50)
      }
    }
    const target =
      "ref" in condition ? condition.ref : "selector" in condition ? condition.selector : undefined
    const json = yield* call("waitFor", target === undefined ? {} : { target })(
      "waitFor",
      condition,
      timeoutMs,
    )
    const result = JSON.parse(json) as { ok?: boolean; elapsedMs?: number; error?: string; detail?: string }
    if (result.error !== undefined) {
      return yield* Effect.fail(
        preparedError(
          "waitFor",
          "ref" in condition ? { ref: condition.ref } : { selector: target ?? "" },
          result,
        ),
      )
    }
    return { ok: result.ok === true, elapsedMs: Math.round(result.elapsedMs ?? 0) }
  })

  const currentUrl: BrowserDriverShape["currentUrl"] = Effect.tryPromise({
    try: () => browser.getUrl(),
    catch: toDriverError("currentUrl"),
  })

  const title: BrowserDriverShape["title"] = Effect.tryPromise({
    try: () => browser.getTitle(),
    catch: toDriverError("title"),
  })

  // A script sent while a dialog is open waits for it: the dialog answers DialogOpen at once instead.
  const evaluate: BrowserDriverShape["evaluate"] = (script, args = []) =>
    dialogs.guard("evaluate", "a page script", options.lookTimeoutMs, evaluateScript(script, args))

  const evaluateScript = (
    script: Parameters<BrowserDriverShape["evaluate"]>[0],
    args: ReadonlyArray<unknown>,
  ) =>
    Effect.tryPromise({
      try: () => browser.execute(script, ...(args as Array<unknown>)),
      catch: (cause) => {
        const mapped = toDriverError("evaluate")(cause)
        return mapped.reason._tag === "DriverUnknown" && !bidi
          ? mapped
          : mapped.reason._tag === "DriverUnknown"
            ? new DriverError({
                method: "evaluate",
                reason: new ScriptError({ detail: mapped.reason.detail }),
                cause,
              })
            : mapped
      },
    })

  const screenshot: BrowserDriverShape["screenshot"] = Effect.fn("BrowserDriver.screenshot")(
    function* (screenshotOptions) {
      const target = screenshotOptions?.target
      const base64 = yield* target === undefined
        ? Effect.tryPromise({ try: () => browser.takeScreenshot(), catch: toDriverError("screenshot") })
        : Effect.gen(function* () {
            const prepared = JSON.parse(
              yield* call("screenshot", { target: formatTarget(target) })("prepare", {
                target,
                op: "screenshot",
                waitMs: options.actionWaitMs,
              }),
            ) as Prepared
            if (prepared.error !== undefined)
              return yield* Effect.fail(preparedError("screenshot", target, prepared))
            const box = prepared.box
            return yield* Effect.tryPromise({
              try: async () => {
                // BiDi clips the viewport to the box, which also works inside iframes and shadow roots.
                if (bidi && box !== undefined && box.width > 0 && box.height > 0) {
                  const shot = await browser.browsingContextCaptureScreenshot({
                    context,
                    origin: "viewport",
                    clip: { type: "box", x: box.x, y: box.y, width: box.width, height: box.height },
                  })
                  return shot.data
                }
                const element = await browser.$(`[data-sextant-mark="${prepared.mark}"]`)
                return browser.takeElementScreenshot(await element.elementId)
              },
              catch: toDriverError("screenshot", { target: formatTarget(target) }),
            })
          })
      return new Uint8Array(Buffer.from(base64, "base64"))
    },
  )

  const scroll: BrowserDriverShape["scroll"] = Effect.fn("BrowserDriver.scroll")(function* (op: ScrollOp) {
    const json = yield* call("scroll")("scroll", op)
    const result = JSON.parse(json) as ScrollResult & { error?: string; detail?: string }
    if (result.error !== undefined && "target" in op) {
      return yield* Effect.fail(preparedError("scroll", op.target, result))
    }
    return {
      y: result.y,
      height: result.height,
      viewportHeight: result.viewportHeight,
      atBottom: result.atBottom,
    }
  })

  const history = (method: "back" | "forward" | "refresh") =>
    Effect.gen(function* () {
      lastSnapshot = undefined
      yield* Effect.tryPromise({ try: () => browser[method](), catch: toDriverError(method) })
      return yield* navigationResult(method)
    })

  // A background tab may not answer scripts until it is shown, so titles and URLs come from the
  // browser's target list (Chrome DevTools) or the BiDi tree; Classic visits each tab.
  const tabs: BrowserDriverShape["tabs"] = Effect.gen(function* () {
    const handles = yield* Effect.tryPromise({
      try: () => browser.getWindowHandles(),
      catch: toDriverError("tabs"),
    })
    if (cdp) {
      const targets = (yield* Effect.tryPromise({
        try: () => browser.sendCommandAndGetResult("Target.getTargets", {}),
        catch: toDriverError("tabs"),
      })) as { targetInfos?: ReadonlyArray<{ targetId: string; url: string; title: string }> }
      const byId = new Map((targets.targetInfos ?? []).map((target) => [target.targetId, target]))
      return handles.map((handle) => ({
        handle,
        url: byId.get(handle)?.url ?? "",
        title: byId.get(handle)?.title ?? "",
        active: handle === context,
      }))
    }
    if (bidi) {
      const tree = (yield* Effect.tryPromise({
        try: () => browser.browsingContextGetTree({ maxDepth: 0 }),
        catch: toDriverError("tabs"),
      })) as { contexts: ReadonlyArray<{ context: string; url: string }> }
      const activeTitle = yield* title
      const urls = new Map(tree.contexts.map((entry) => [entry.context, entry.url]))
      return handles.map((handle) => ({
        handle,
        url: urls.get(handle) ?? "",
        title: handle === context ? activeTitle : "",
        active: handle === context,
      }))
    }
    return yield* Effect.tryPromise({
      try: async () => {
        const infos: Array<TabInfo> = []
        for (const handle of handles) {
          if (handle !== context) await browser.switchToWindow(handle)
          infos.push({
            handle,
            url: await browser.getUrl(),
            title: await browser.getTitle(),
            active: handle === context,
          })
        }
        await browser.switchToWindow(context)
        return infos
      },
      catch: toDriverError("tabs"),
    })
  })

  const switchTab: BrowserDriverShape["switchTab"] = Effect.fn("BrowserDriver.switchTab")(function* (handle) {
    yield* Effect.tryPromise({
      try: () => browser.switchToWindow(handle),
      catch: toDriverError("switchTab", { target: handle }),
    })
    context = handle
    lastSnapshot = undefined
    return { handle, url: yield* currentUrl, title: yield* title, active: true }
  })

  const closeTab: BrowserDriverShape["closeTab"] = Effect.fn("BrowserDriver.closeTab")(function* (handle) {
    const wasActive = handle === context
    yield* Effect.tryPromise({
      try: async () => {
        await browser.switchToWindow(handle)
        await browser.closeWindow()
        const remaining = await browser.getWindowHandles()
        const next = wasActive ? remaining[0] : context
        if (next !== undefined) await browser.switchToWindow(next)
        return next
      },
      catch: toDriverError("closeTab", { target: handle }),
    }).pipe(
      Effect.flatMap((next) =>
        Effect.sync(() => {
          if (next !== undefined) context = next
          lastSnapshot = undefined
        }),
      ),
    )
  })

  const currentDialog: BrowserDriverShape["dialog"] = bidi
    ? Effect.sync(() => dialogs.pending()?.info)
    : Effect.tryPromise({
        try: async () => {
          try {
            return { type: "alert", text: await browser.getAlertText() } satisfies DialogInfo
          } catch (error) {
            if ((error as { name?: string }).name === "no such alert") return undefined
            throw error
          }
        },
        catch: toDriverError("dialog"),
      })

  const respondToDialog: BrowserDriverShape["respondToDialog"] = Effect.fn("BrowserDriver.respondToDialog")(
    function* (accept, text) {
      if (bidi) {
        const open = dialogs.pending()
        if (open === undefined)
          return yield* fail("respondToDialog", new InvalidArgument({ detail: "no dialog is open" }))
        dialogs.clear()
        yield* Effect.tryPromise({
          try: () => (accept ? open.accept(text) : open.dismiss()),
          catch: toDriverError("respondToDialog"),
        })
        return
      }
      yield* Effect.tryPromise({
        try: async () => {
          if (accept && text !== undefined) await browser.sendAlertText(text)
          await (accept ? browser.acceptAlert() : browser.dismissAlert())
        },
        catch: toDriverError("respondToDialog"),
      })
    },
  )

  const actLimitMs =
    options.actionWaitMs + options.settleMs + options.navigationTimeoutMs + options.commandTimeoutMs
  const navigated = (via: "navigate" | "back" | "forward" | "refresh", url?: string) =>
    recorded<NavigationResult>((result) => ({ kind: "navigate", via, url: url ?? result.url }))
  const waited = (condition: WaitCondition) =>
    recorded<WaitResult>((result) =>
      !result.ok
        ? undefined
        : "text" in condition
          ? { kind: "wait", condition: { text: condition.text } }
          : "selector" in condition
            ? {
                kind: "wait",
                condition: {
                  selector: condition.selector,
                  ...(condition.state === undefined ? {} : { state: condition.state }),
                },
              }
            : undefined,
    )

  return BrowserDriver.of({
    navigate: (url, navigateOptions) =>
      navigate(url, navigateOptions).pipe(
        navigated("navigate", url),
        guard(
          "navigate",
          (options.statusRetries + 1) *
            ((navigateOptions?.timeoutMs ?? options.navigationTimeoutMs) + options.commandTimeoutMs) +
            options.statusRetries * options.maxRetryAfterMs,
        ),
      ),
    currentUrl: currentUrl.pipe(guard("currentUrl")),
    title: title.pipe(guard("title")),
    look: (lookOptions) => look(lookOptions).pipe(guard("look")),
    act: (target, op, value) => act(target, op, value).pipe(guard("act", actLimitMs)),
    waitFor: (condition, waitOptions) =>
      waitFor(condition, waitOptions).pipe(
        waited(condition),
        guard("waitFor", (waitOptions?.timeoutMs ?? options.waitTimeoutMs) + options.commandTimeoutMs),
      ),
    evaluate: (script, args) => evaluate(script, args).pipe(guard("evaluate")),
    screenshot: (screenshotOptions) => screenshot(screenshotOptions).pipe(guard("screenshot")),
    scroll: (op) => scroll(op).pipe(guard("scroll")),
    back: history("back").pipe(
      navigated("back"),
      guard("back", options.navigationTimeoutMs + options.commandTimeoutMs),
    ),
    forward: history("forward").pipe(
      navigated("forward"),
      guard("forward", options.navigationTimeoutMs + options.commandTimeoutMs),
    ),
    refresh: history("refresh").pipe(
      navigated("refresh"),
      guard("refresh", options.navigationTimeoutMs + options.commandTimeoutMs),
    ),
    tabs: tabs.pipe(guard("tabs")),
    switchTab: (handle) => switchTab(handle).pipe(guard("switchTab")),
    closeTab: (handle) => closeTab(handle).pipe(guard("closeTab")),
    dialog: currentDialog.pipe(guard("dialog")),
    respondToDialog: (accept, text) => respondToDialog(accept, text).pipe(guard("respondToDialog")),
    takeRecording: Effect.promise(() => recorder.take()),
  })
})

/**
 * The `BrowserDriver` on a freshly launched headless Chromium; the session ends with the layer.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { BrowserDriver } from "@sextant/core"
 * import { layer } from "@sextant/webdriverio"
 * const program = Effect.gen(function* () {
 *   const driver = yield* BrowserDriver
 *   return yield* driver.navigate("http://127.0.0.1:4000/")
 * }).pipe(Effect.provide(layer({})))
 * ```
 */
export const layer = (
  options: LaunchOptions & { readonly driver?: DriverOptions } = {},
): Layer.Layer<BrowserDriver, DriverError> =>
  Layer.effect(
    BrowserDriver,
    Effect.flatMap(launch(options), (session) => makeDriver(session, options.driver)),
  )

/**
 * The `BrowserDriver` on a remote WebDriver endpoint; the remote session ends with the layer.
 *
 * @example
 * ```ts
 * import { layerConnect } from "@sextant/webdriverio"
 * const grid = layerConnect({ hostname: "grid.internal", port: 4444, path: "/wd/hub" })
 * ```
 */
export const layerConnect = (
  options: ConnectOptions & { readonly driver?: DriverOptions },
): Layer.Layer<BrowserDriver, DriverError> =>
  Layer.effect(
    BrowserDriver,
    Effect.flatMap(connect(options), (session) => makeDriver(session, options.driver)),
  )

/**
 * The `BrowserDriver` on a WebdriverIO browser you own; the layer never ends it.
 *
 * @example
 * ```ts
 * import { layerFromBrowser } from "@sextant/webdriverio"
 * const driverLayer = layerFromBrowser(browser)
 * ```
 */
export const layerFromBrowser = (
  browser: WebdriverIO.Browser,
  options: DriverOptions = {},
): Layer.Layer<BrowserDriver, DriverError> =>
  Layer.effect(BrowserDriver, makeDriver(fromBrowser(browser), options))
