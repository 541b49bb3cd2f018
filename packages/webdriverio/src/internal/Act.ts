import {
  type ActionOp,
  ActOrigins,
  type ActResult,
  type ActValue,
  type BrowserDriverShape,
  type DialogInfo,
  DialogOpen,
  type DriverError,
  formatTarget,
  InvalidArgument,
  NotInteractable,
  parseTarget,
  type ScrollOp,
  type ScrollResult,
  type Target,
  Timeout,
  UploadDirs,
  ValueNotTaken,
} from "@sextant/core"
import { describeChange, diffScreens } from "@sextant/perception"
import { Effect } from "effect"
import { toDriverError } from "../DriverErrors.ts"
import type { DriverContext } from "./DriverContext.ts"
import { fail } from "./Fail.ts"
import { type Prepared, preparedError, type TypedCheck, typedMismatch } from "./Prepared.ts"
import {
  chordKeys,
  click,
  dragActions,
  inputAlongsideScripts,
  insertText,
  keyActions,
  moveActions,
  performActions,
  wheelActions,
} from "./Protocol.ts"
import { knowsTarget, recordedElement } from "./Recording.ts"
import { allowedUploadPath } from "./UploadPath.ts"

/** What the page script's `settle` answers: whether a navigation is under way, and the look after. */
interface Settled {
  readonly navigating: boolean
  readonly doc: string
  readonly look?: string
  /** Where the click's press landed when that was not on its element (it moved after it was aimed at). */
  readonly missed?: string
}

/**
 * The drop point of a drag: `["to", target]` (a ref or CSS selector) or `["by", dx, dy]` in CSS pixels.
 */
export const dragSpec = (op: ActionOp, value: ActValue | undefined): Record<string, unknown> => {
  if (op !== "drag" || !Array.isArray(value)) return {}
  const [kind, first, second] = value as ReadonlyArray<string>
  if (kind === "to" && first !== undefined) return { to: parseTarget(first) }
  if (kind === "by") return { dx: Number(first ?? 0), dy: Number(second ?? 0) }
  return {}
}

/** The one text value an op takes (a number is written out), or `InvalidArgument` naming what came. */
export const valueText = (op: ActionOp, value: ActValue | undefined): Effect.Effect<string, DriverError> => {
  if (typeof value === "string") return Effect.succeed(value)
  if (typeof value === "number") return Effect.succeed(String(value))
  return fail(
    "act",
    new InvalidArgument({ detail: `${op} needs one text value, got ${JSON.stringify(value)}` }),
  )
}

/**
 * Acting on the page: `act` finds the element, sends trusted input, waits for the page to settle
 * (and for a navigation the input started) and answers what changed; `scroll` moves the page.
 */
export const makeAct = (
  driver: Pick<
    DriverContext,
    | "session"
    | "browser"
    | "bidi"
    | "tracked"
    | "channels"
    | "call"
    | "dialogs"
    | "options"
    | "recorder"
    | "state"
    | "snapshotOf"
    | "guard"
  >,
): Pick<BrowserDriverShape, "act" | "scroll"> => {
  const { session, browser, bidi, tracked, channels, call, dialogs, options, recorder, state, guard } = driver

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
      try: () => click(browser, channels, state.context, x, y),
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
        try: () => performActions(browser, channels, state.context, keyActions(sequence, times)),
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
            functionDeclaration: "function (mark) { return globalThis.__sextant.actor.markedElement(mark) }",
            arguments: [{ type: "string", value: mark }],
            target: { context: state.context },
            awaitPromise: false,
            resultOwnership: "root",
          })) as { type: string; result?: { type?: string; sharedId?: string } }
          const sharedId = found.type === "success" ? found.result?.sharedId : undefined
          if (sharedId !== undefined) {
            await browser.inputSetFiles({
              context: state.context,
              element: { sharedId },
              files: [remotePath],
            })
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
            try: () => performActions(browser, channels, state.context, moveActions(x, y)),
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
            try: () => insertText(browser, channels, state.context, text),
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
            yield* call("act", { errorContext: { target: formatTarget(target) } })("currentValue", {
              target,
            }),
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
                state.context,
                dragActions(x, y, prepared.toX ?? x, prepared.toY ?? y),
              ),
            catch: toDriverError("act"),
          })
        case "scroll":
          yield* Effect.tryPromise({
            try: () =>
              performActions(browser, channels, state.context, wheelActions(x, y, prepared.deltaY ?? 0)),
            catch: toDriverError("act"),
          })
          yield* call("act", { errorContext: { target: formatTarget(target) } })("scrollSettled", {
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
    // Every upload passes here, whoever asks (a tool, a compound tool, the MCP server): the file must be
    // in a folder the task allows, checked on its real path before the page is touched.
    const uploadPath =
      op === "upload"
        ? yield* allowedUploadPath(
            yield* valueText(op, value),
            (yield* UploadDirs).allowed,
            (yield* UploadDirs).setting,
          )
        : undefined
    const values = op === "select" ? (Array.isArray(value) ? value : [String(value ?? "")]) : undefined
    // The diff is against what the agent last saw (its look or the previous act); without one, the
    // prepare call takes a fresh snapshot first, in the same round trip.
    const needBefore = state.lastSnapshot === undefined
    // A short answer is quicker on the BiDi socket; one carrying a snapshot is quicker over HTTP.
    // Where typed text may go is checked by the same page script that finds and focuses the element.
    const origins = op === "input" ? (yield* ActOrigins).typing : undefined
    // A dialog that opens before the action is sent is not its outcome: it answers DialogOpen.
    const preparedJson = yield* dialogs.guard(
      "act",
      `preparing ${op} on ${formatTarget(target)}`,
      options.actionWaitMs + options.lookTimeoutMs,
      call("act", { errorContext: { target: formatTarget(target) }, viaSocket: !needBefore })("prepare", {
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
        describe: !knowsTarget(target, state.lastSnapshot),
        ...(origins === undefined ? {} : { origins }),
      }),
    )
    const prepared = JSON.parse(preparedJson) as Prepared
    if (prepared.error !== undefined)
      return yield* Effect.fail(preparedError("act", target, prepared, origins))
    const before =
      prepared.before === undefined ? state.lastSnapshot : yield* driver.snapshotOf(prepared.before)
    const tabsBefore = state.newTabs.length
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
        try: () => inputAlongsideScripts(browser, channels, state.context),
        catch: toDriverError("act"),
      }))
    // The first call may land while the document is being replaced; treat that as a navigation.
    const settle = (extra: object) =>
      call("act", { viaSocket: alongside })("settle", { ...settleOptions, ...extra }).pipe(
        Effect.map((json) => JSON.parse(json) as Settled),
        Effect.catch((error) =>
          error.reason._tag === "DialogOpen" || error.reason._tag === "SessionClosed"
            ? Effect.fail(error)
            : Effect.succeed<Settled>({ navigating: true, doc: "" }),
        ),
      )
    const run = Effect.gen(function* () {
      let settled = alongside
        ? (yield* Effect.all(
            [
              perform(target, op, uploadPath ?? value, prepared),
              settle({
                inputs: (prepared.inputs ?? 0) + 1,
                inputWaitMs: options.actionWaitMs,
                ...(prepared.doc === undefined ? {} : { doc: prepared.doc }),
              }),
            ],
            { concurrency: "unbounded" },
          ))[1]
        : yield* Effect.andThen(perform(target, op, uploadPath ?? value, prepared), settle({}))
      // A click that hit something else is not this action, whatever the page did after it.
      if (settled.missed !== undefined)
        return yield* fail(
          "act",
          new NotInteractable({ target: formatTarget(target), detail: settled.missed }),
        )
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
    const outcome = tracked
      ? yield* Effect.raceFirst(
          run.pipe(Effect.map((settled) => ({ settled }))),
          Effect.map(dialogs.next, (info) => ({ dialog: info })),
        )
      : yield* classicDialog
    const opened = state.newTabs.slice(tabsBefore)
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
    let settled = outcome.settled
    // A fill is done only when the field holds what was asked: read back in the page and typed once
    // more (cleared first) when it does not. A navigation the typing started took the field away.
    if (op === "input" && prepared.assigned !== true && !settled.navigating) {
      const text = yield* valueText(op, value)
      const secret = origins !== undefined
      const check = () =>
        call("act", { errorContext: { target: formatTarget(target) } })("checkTyped", {
          target,
          value: text,
          secret,
        }).pipe(Effect.map((json) => JSON.parse(json) as TypedCheck))
      let typed = yield* check()
      if (!typed.ok) {
        const again = JSON.parse(
          yield* call("act", { errorContext: { target: formatTarget(target) } })("prepare", {
            target,
            op,
            value: text,
            waitMs: 0,
            ...(origins === undefined ? {} : { origins }),
          }),
        ) as Prepared
        if (again.error !== undefined) return yield* Effect.fail(preparedError("act", target, again, origins))
        yield* perform(target, op, text, again)
        settled = yield* settle({})
        if (settled.navigating) settled = yield* awaitNavigation(settleOptions)
        else typed = yield* check()
      }
      if (!typed.ok && !settled.navigating)
        return yield* fail(
          "act",
          new ValueNotTaken({ target: formatTarget(target), detail: typedMismatch(typed, text) }),
        )
    }
    const after = yield* driver.snapshotOf(settled.look ?? "")
    state.lastSnapshot = after
    const action = { ref: "ref" in target ? target.ref : formatTarget(target), op }
    const viewDiff = diffScreens(before, after, action)
    // A focus, a text selection or a drag by offset shows on the page where no outline line does: the
    // focus ring, the highlight, the box's place. The page is asked for that postcondition instead.
    // A click into a text field shows as the focus there.
    const gestureOp =
      op === "focus" || op === "selectText" || op === "drag"
        ? op
        : op === "click" && prepared.textField === true
          ? "focus"
          : undefined
    const gesture =
      !viewDiff.changed && !settled.navigating && gestureOp !== undefined
        ? (JSON.parse(
            yield* call("act", { errorContext: { target: formatTarget(target) } })("gestureShown", {
              target,
              op: gestureOp,
              ...(op === "selectText" && typeof value === "string" ? { text: value } : {}),
              ...(prepared.box === undefined ? {} : { from: { x: prepared.box.x, y: prepared.box.y } }),
            }),
          ) as { readonly shown: boolean; readonly detail: string })
        : undefined
    const diff =
      gesture?.shown === true
        ? { ...viewDiff, changed: true, signals: viewDiff.signals.filter((signal) => signal !== "NoOp") }
        : viewDiff
    const hint =
      gesture === undefined ? describeChange(before, after, action) : `${gestureOp}: ${gesture.detail}`
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

  const actLimitMs =
    options.actionWaitMs + options.settleMs + options.navigationTimeoutMs + options.commandTimeoutMs
  return {
    act: (target, op, value) => act(target, op, value).pipe(guard("act", actLimitMs)),
    scroll: (op) => scroll(op).pipe(guard("scroll")),
  }
}
