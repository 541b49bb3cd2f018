import { locate, missedPress, perception } from "./prepare.ts"
import { shown } from "./visibility.ts"
import { observe, originalClearTimeout, originalSetTimeout, sleep, watchState } from "./watch.ts"

/* Settling: waiting until an action's effects are in, a condition holds, or a scrolled box is still. */

/** How long to wait for an action's effects. */
export interface SettleOptions {
  /** The DOM must be quiet this long. */
  readonly quietMs: number
  /** At most this long in all. */
  readonly settleMs: number
  /** The count of trusted input to wait for first (the input sent alongside this call). */
  readonly inputs?: number
  /** At most this long for that input. */
  readonly inputWaitMs?: number
  /** The document the action was prepared in. */
  readonly doc?: string
  /** Look options for the snapshot taken once settled. */
  readonly look?: unknown
}

/**
 * Waits until the action's effects have settled: no request in flight and the DOM quiet for
 * quietMs, capped at settleMs. Changes the input's own handlers made synchronously are already in
 * when this runs, so only changes arriving after it (timers, responses) are waited for. A started
 * navigation returns at once.
 * With options.inputs, the input the driver sent alongside this call comes first: wait until that
 * many have landed (at most inputWaitMs), then settle as usual. When this document is not the one
 * the action was prepared in (options.doc), the input landed in that one and led here: a click on a
 * link that loaded before this call arrived. Nothing is waited for then.
 * The answer's `missed` says where a prepared click's press landed when that was not on its element.
 */
export const settle = async (options: SettleOptions): Promise<string> => {
  // A document an action navigated to is settled without a prepare of its own.
  observe()
  const sameDocument = options.doc === undefined || options.doc === watchState.doc
  if (options.inputs !== undefined && sameDocument && watchState.inputs < options.inputs) {
    await new Promise<void>((resolve) => {
      const timer = originalSetTimeout(resolve, options.inputWaitMs || 0)
      watchState.inputWaiters.push(() => {
        originalClearTimeout(timer)
        resolve()
      })
    })
  }
  // A press that landed beside its element (which moved after it was aimed at) is told first: what
  // follows is the effect of a click on something else.
  const missed = sameDocument ? missedPress() : undefined
  const settledBefore = watchState.mutations
  watchState.watchingTimers = false
  await sleep(0)
  const start = performance.now()
  for (;;) {
    if (watchState.navigating) return JSON.stringify({ navigating: true, doc: watchState.doc, missed })
    const quiet =
      watchState.mutations === settledBefore || performance.now() - watchState.lastMutation >= options.quietMs
    if (
      (watchState.inflight <= 0 && watchState.timers.size === 0 && quiet) ||
      performance.now() - start >= options.settleMs
    )
      break
    await sleep(Math.min(options.quietMs, 10))
  }
  const look = perception()?.look
  const snapshot = typeof look === "function" && options.look ? look(options.look) : undefined
  return JSON.stringify({ navigating: false, doc: watchState.doc, look: snapshot, missed })
}

// biome-ignore lint/security/noGlobalEval: waitFor's `js` condition is the caller's own script, run as asked
const indirectEval: (script: string) => unknown = globalThis.eval

/** What to wait for: an element (present, visible or hidden), text on the page, or a script's truth. */
export interface WaitCondition {
  readonly ref?: string
  readonly selector?: string
  readonly state?: "present" | "visible" | "hidden"
  readonly text?: string
  readonly js?: string
}

/**
 * Waits until the condition holds, checking every 25 ms up to timeoutMs. Answers JSON
 * `{ ok, elapsedMs }`, or the error of a selector that does not parse.
 */
export const waitFor = async (condition: WaitCondition, timeoutMs: number): Promise<string> => {
  const start = performance.now()
  const check = (): boolean | { readonly error: string } => {
    if (condition.ref !== undefined || condition.selector !== undefined) {
      const found = locate(
        condition.ref !== undefined ? { ref: condition.ref } : { selector: condition.selector ?? "" },
      )
      if ("error" in found && found.error === "selector") return found
      const element = "element" in found ? found.element : undefined
      const wanted = condition.state || (condition.ref !== undefined ? "visible" : "present")
      if (wanted === "hidden") return element === undefined || !shown(element)
      if (element === undefined) return false
      return wanted === "present" || shown(element)
    }
    // The text the page shows, as a reader sees it: hidden text does not count.
    if (condition.text !== undefined)
      // biome-ignore lint/performance/useDomNodeTextContent: rendered text is the point
      return (document.body ? document.body.innerText : "").includes(condition.text)
    // The caller's own condition script, evaluated in the page's global scope (an indirect eval).
    if (condition.js !== undefined) return Boolean(indirectEval(condition.js))
    return false
  }
  for (;;) {
    const outcome = check()
    if (typeof outcome === "object") return JSON.stringify(outcome)
    if (outcome === true) return JSON.stringify({ ok: true, elapsedMs: performance.now() - start })
    if (performance.now() - start >= timeoutMs)
      return JSON.stringify({ ok: false, elapsedMs: performance.now() - start })
    await sleep(25)
  }
}

/** A box scrolled by a trusted wheel, the end it was scrolled towards, and how long to wait at most. */
export interface ScrollSettledSpec {
  readonly target: { readonly ref: string } | { readonly selector: string }
  readonly to?: "top" | "bottom"
  readonly maxMs?: number
}

/**
 * A wheel scroll animates (smooth scrolling): waits until the element stops moving, at most maxMs,
 * then finishes at the end it was for when the wheel fell short. Answers JSON `{ scrollTop, finished }`.
 */
export const scrollSettled = async (spec: ScrollSettledSpec): Promise<string> => {
  const found = locate(spec.target)
  if ("error" in found) return JSON.stringify(found)
  const element = found.element
  // The wheel scrolls on the compositor, after the input command has answered: on a busy machine
  // the box may not have moved yet. Stillness counts once it has moved, or once it is at the end
  // the scroll was for; until then the wait goes on (up to maxMs).
  const atEnd = (): boolean =>
    spec.to === "bottom"
      ? element.scrollTop + element.clientHeight >= element.scrollHeight - 1
      : spec.to === "top"
        ? element.scrollTop <= 0
        : false
  const start = performance.now()
  const first = element.scrollTop
  let last = first
  let still = performance.now()
  while (performance.now() - start < (spec.maxMs || 1500)) {
    await sleep(30)
    const now = element.scrollTop
    if (now !== last) {
      last = now
      still = performance.now()
    }
    // At the end it was for: done once still. Moved but short of it: a busy machine can pause the
    // animation between frames, so only a longer stillness ends the wait.
    else if (atEnd() && performance.now() - still >= 120) break
    else if (last !== first && performance.now() - still >= 400) break
  }
  // The wheel did not carry the box to the end it was for (a short wheel on a long box, or frames
  // the machine dropped): finish there directly, so "scrolled to the bottom" is true when answered.
  const fallback = (spec.to === "bottom" || spec.to === "top") && !atEnd()
  if (fallback) element.scrollTo({ top: spec.to === "top" ? 0 : element.scrollHeight, behavior: "instant" })
  return JSON.stringify({ scrollTop: element.scrollTop, finished: fallback })
}
