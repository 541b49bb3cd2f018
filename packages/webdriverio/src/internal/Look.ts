import { type BrowserDriverShape, DriverError, formatTarget, ScriptError } from "@sextant/core"
import {
  decodePageCall,
  pageCallDeclaration,
  pageCallInstallDeclaration,
  pageCallReason,
} from "@sextant/perception"
import { Effect } from "effect"
import { toDriverError } from "../DriverErrors.ts"
import type { DriverContext } from "./DriverContext.ts"
import { type Prepared, preparedError } from "./Prepared.ts"
import { callFunction, tabSocket } from "./Protocol.ts"

/** Reading the page: look (one page-script call per snapshot), evaluate and screenshot. */
export const makeLook = (
  driver: Pick<
    DriverContext,
    "browser" | "bidi" | "channels" | "call" | "dialogs" | "options" | "state" | "snapshotOf" | "guard"
  >,
): Pick<BrowserDriverShape, "look" | "evaluate" | "callPage" | "screenshot"> => {
  const { browser, bidi, channels, call, dialogs, options, state, guard } = driver

  const look: BrowserDriverShape["look"] = Effect.fn("BrowserDriver.look")(function* (lookOptions) {
    const merged = { ...options.look, ...lookOptions, since: undefined }
    const json = yield* dialogs.guard(
      "look",
      "look",
      options.lookTimeoutMs,
      call("look", { direct: true })("look", merged),
    )
    const snapshot = yield* driver.snapshotOf(json, lookOptions)
    if (lookOptions?.within === undefined && lookOptions?.since === undefined) state.lastSnapshot = snapshot
    return snapshot
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

  // A page call: the short declaration first, the one that installs the runtime only in a document
  // that lacks it (as the actor's calls do). Both come from perception, as the functions they call.
  const callPage: BrowserDriverShape["callPage"] = Effect.fn("BrowserDriver.callPage")(function* (
    name,
    args = [],
  ) {
    const argument = JSON.stringify(args)
    const send = (declaration: string) =>
      Effect.tryPromise({
        try: () =>
          callFunction(browser, channels, state.context, declaration, [name, argument], {
            direct: dialogs.pending() === undefined,
          }),
        catch: toDriverError("callPage"),
      })
    const first = decodePageCall(yield* send(pageCallDeclaration))
    const answer = first._tag === "missing" ? decodePageCall(yield* send(pageCallInstallDeclaration)) : first
    if (answer._tag === "value") return answer.value
    return yield* new DriverError({ method: "callPage", reason: pageCallReason(name, answer) })
  })

  const screenshot: BrowserDriverShape["screenshot"] = Effect.fn("BrowserDriver.screenshot")(
    function* (screenshotOptions) {
      const target = screenshotOptions?.target
      const base64 = yield* target === undefined
        ? Effect.tryPromise({ try: () => browser.takeScreenshot(), catch: toDriverError("screenshot") })
        : Effect.gen(function* () {
            const prepared = JSON.parse(
              yield* call("screenshot", { errorContext: { target: formatTarget(target) } })("prepare", {
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
                    context: state.context,
                    origin: "viewport",
                    clip: { type: "box", x: box.x, y: box.y, width: box.width, height: box.height },
                  })
                  return shot.data
                }
                // The tab's own socket clips the page the same way; its clip is in page coordinates.
                const socket = tabSocket(channels)
                if (socket !== undefined && box !== undefined && box.width > 0 && box.height > 0) {
                  const metrics = (await socket.send(state.context, "Page.getLayoutMetrics", {})) as
                    | {
                        readonly result?: { readonly cssVisualViewport?: { pageX?: number; pageY?: number } }
                      }
                    | undefined
                  const viewport = metrics?.result?.cssVisualViewport
                  const shot = (await socket.send(state.context, "Page.captureScreenshot", {
                    format: "png",
                    // An element taller or wider than the viewport is taken whole.
                    captureBeyondViewport: true,
                    clip: {
                      x: box.x + (viewport?.pageX ?? 0),
                      y: box.y + (viewport?.pageY ?? 0),
                      width: box.width,
                      height: box.height,
                      scale: 1,
                    },
                  })) as { readonly result?: { readonly data?: unknown } } | undefined
                  if (viewport !== undefined && typeof shot?.result?.data === "string")
                    return shot.result.data
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

  return {
    look: (lookOptions) => look(lookOptions).pipe(guard("look")),
    evaluate: (script, args) => evaluate(script, args).pipe(guard("evaluate")),
    // A call sent while a dialog is open waits for it: the dialog answers DialogOpen at once instead.
    callPage: (name, args) =>
      dialogs
        .guard("callPage", "a page call", options.lookTimeoutMs, callPage(name, args))
        .pipe(guard("callPage")),
    screenshot: (screenshotOptions) => screenshot(screenshotOptions).pipe(guard("screenshot")),
  }
}
