import {
  type BrowserDriverShape,
  type DialogInfo,
  DialogOpen,
  DriverError,
  InvalidArgument,
  Timeout,
} from "@sextant/core"
import { Effect } from "effect"
import { toDriverError } from "../DriverErrors.ts"
import { fail } from "./Fail.ts"
import type { Guard } from "./Liveness.ts"

/** A dialog the browser reported open (a BiDi or DevTools event), with the two ways to answer it. */
export interface PendingDialog {
  readonly info: DialogInfo
  readonly accept: (text?: string) => Promise<unknown>
  readonly dismiss: () => Promise<unknown>
}

/**
 * A dialog event: that of WebdriverIO's BiDi client (`browsingContext.userPromptOpened`), or one
 * built from a tab socket's `Page.javascriptDialogOpening` in the same shape.
 */
export interface DialogEvent {
  readonly message: () => string
  readonly type: () => string
  readonly accept: (text?: string) => Promise<unknown>
  readonly dismiss: () => Promise<unknown>
}

const dialogType = (type: string): DialogInfo["type"] =>
  type === "confirm" || type === "prompt" || type === "beforeunload" ? type : "alert"

/** How long a command that failed on a dialog waits for the browser's event naming it. */
const EVENT_GRACE_MS = 500

/**
 * The dialogs of one driver: which one is open, who waits for the next, and the one rule every
 * page command follows — a dialog open before or during the command answers `DialogOpen` (with
 * its type and message) instead of a hang or a timeout, and no command waits longer than its limit.
 */
export interface Dialogs {
  /** The open dialog the browser reported (tracked sessions); undefined in Classic, which reports none. */
  readonly pending: () => PendingDialog | undefined
  /** Forgets the open dialog, before answering it. */
  readonly clear: () => void
  /** Records a dialog the browser reported and wakes everyone waiting for one. */
  readonly opened: (event: DialogEvent) => void
  /** Resumes with the next dialog that opens (tracked sessions); never resumes in Classic. */
  readonly next: Effect.Effect<DialogInfo>
  /**
   * Runs one page command: fails with `DialogOpen` at once when a dialog is open, or as soon as
   * one opens while it runs; turns the driver's own "unexpected alert open" into `DialogOpen` with
   * the dialog's text; fails with `Timeout` after `timeoutMs`.
   */
  readonly guard: <A>(
    method: string,
    operation: string,
    timeoutMs: number,
    command: Effect.Effect<A, DriverError>,
  ) => Effect.Effect<A, DriverError>
}

/**
 * Builds the dialog state of one driver. `tracked`: the browser reports dialogs as events (BiDi, or
 * the tab sockets of a launched Chromium). Otherwise (Classic alone), `classicText` reads the open
 * dialog's text (WebDriver's Get Alert Text), since no event names it.
 */
export const makeDialogs = (options: {
  readonly tracked: boolean
  readonly classicText: () => Promise<string>
}): Dialogs => {
  let pending: PendingDialog | undefined
  const waiting = new Set<(info: DialogInfo) => void>()

  const next: Effect.Effect<DialogInfo> = Effect.callback<DialogInfo>((resume) => {
    const wake = (info: DialogInfo) => resume(Effect.succeed(info))
    waiting.add(wake)
    return Effect.sync(() => {
      waiting.delete(wake)
    })
  })

  const openError = (method: string, info: DialogInfo) =>
    new DriverError({ method, reason: new DialogOpen({ type: info.type, text: info.text }) })

  // A command failed because a dialog blocks the page: name the dialog.
  const describe = (method: string, error: DriverError): Effect.Effect<DriverError> => {
    if (options.tracked) {
      const known = pending?.info
      if (known !== undefined) return Effect.succeed(openError(method, known))
      // The event may trail the failed command by a moment.
      return next.pipe(
        Effect.map((info) => openError(method, info)),
        Effect.timeoutOrElse({ duration: EVENT_GRACE_MS, orElse: () => Effect.succeed(error) }),
      )
    }
    return Effect.tryPromise(options.classicText).pipe(
      Effect.map((text) => new DriverError({ method, reason: new DialogOpen({ text }), cause: error })),
      Effect.orElseSucceed(() => error),
    )
  }

  const guard = <A>(
    method: string,
    operation: string,
    timeoutMs: number,
    command: Effect.Effect<A, DriverError>,
  ): Effect.Effect<A, DriverError> => {
    const open = pending?.info
    if (open !== undefined) return Effect.fail(openError(method, open))
    const checked = Effect.catch(command, (error) =>
      error.reason._tag === "DialogOpen"
        ? Effect.flatMap(describe(method, error), Effect.fail)
        : Effect.fail(error),
    )
    // A dialog that opens while the command runs blocks the page: the command may never answer.
    const raced = options.tracked
      ? Effect.raceFirst(
          checked,
          Effect.flatMap(next, (info) => Effect.fail(openError(method, info))),
        )
      : checked
    return raced.pipe(
      Effect.timeoutOrElse({
        duration: timeoutMs,
        orElse: () => Effect.fail(new DriverError({ method, reason: new Timeout({ operation, timeoutMs }) })),
      }),
    )
  }

  return {
    pending: () => pending,
    clear: () => {
      pending = undefined
    },
    opened: (event) => {
      const info: DialogInfo = { type: dialogType(event.type()), text: event.message() }
      pending = { info, accept: (text) => event.accept(text), dismiss: () => event.dismiss() }
      for (const wake of [...waiting]) wake(info)
    },
    next,
    guard,
  }
}

/**
 * The driver's dialog operations: which dialog is open, and answering it. A tracked session knows
 * the open dialog from its event; Classic asks WebDriver, whose "no such alert" means none is open.
 */
export const makeDialogOperations = (driver: {
  readonly browser: WebdriverIO.Browser
  /** Whether the browser reports dialogs as events; see {@link makeDialogs}. */
  readonly tracked: boolean
  readonly dialogs: Dialogs
  readonly guard: Guard
}): Pick<BrowserDriverShape, "dialog" | "respondToDialog"> => {
  const { browser, tracked, dialogs, guard } = driver

  const currentDialog: BrowserDriverShape["dialog"] = tracked
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
      if (tracked) {
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

  return {
    dialog: currentDialog.pipe(guard("dialog")),
    respondToDialog: (accept, text) => respondToDialog(accept, text).pipe(guard("respondToDialog")),
  }
}
