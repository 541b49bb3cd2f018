import type { AnyTool, ToolRegistry } from "@sextant/core"
import type { GuardrailOptions } from "./Guardrails.ts"
import type { RetryOptions } from "./RetryPolicy.ts"
import type { TraceOptions } from "./Trace.ts"

/**
 * Everything the executor takes besides the task. Budgets of the task itself (steps, duration, step
 * timeout, quotas) live in `task.constraints`; these are the executor's own limits, each with a default.
 *
 * @example
 * ```ts
 * import type { ExecutorOptions } from "@sextant/executor"
 * const options: ExecutorOptions = { tools: [navigate, click, fill, extract], traceDirectory: ".sextant/traces" }
 * ```
 */
export interface ExecutorOptions extends TraceOptions, GuardrailOptions {
  /** The tools steps may call. */
  readonly tools: ToolRegistry | ReadonlyArray<AnyTool>
  /** The id of the run (the store's key). Default: a random UUID. */
  readonly runId?: string | undefined
  readonly retry?: RetryOptions | undefined
  /**
   * Who this process is when it claims a run's lease in the store. Default: `hostname:pid:random`,
   * which is what a second process trying the same run is told.
   */
  readonly leaseOwner?: string | undefined
  /**
   * How long a run's lease lasts; the run renews it every third of that while it runs. A process that
   * dies stops renewing, so its runs can be resumed elsewhere once this much time has passed. Default 30000.
   */
  readonly leaseTtlMs?: number | undefined
  /**
   * Asks the run to stop at the next step boundary: the step in flight runs to its end and is stored,
   * a model call or a wait between steps is cut, and the run ends CANCELLED (`endReason`
   * "cancelled") with every finished step in the store, so `resume` / `resumeAgent` continue it from
   * the next step. Interrupting the run's fiber instead cuts the step in flight (it is stored as
   * `running`; a resume runs it again unless it may already have clicked or submitted).
   */
  readonly stopSignal?: AbortSignal | undefined
  /** Replans asked of the planner before a plan run gives up. Default 3. */
  readonly maxReplans?: number | undefined
  /** Failures of one step (its retries exhausted each time) before the planner is asked for a full plan instead of a partial one. Default 2. */
  readonly partialReplansBeforeFull?: number | undefined
  /** When to take screenshots: never, after a failed step (default), or after every step. */
  readonly screenshots?: "never" | "on-failure" | "always" | undefined
  /** Where screenshots go. Default: `traceDirectory` (none are written without one). */
  readonly screenshotDirectory?: string | undefined
  /** Step-wise runs end after this many turns in a row that changed nothing. Default 5. */
  readonly maxConsecutiveNoOps?: number | undefined
  /** The first wait after a no-op turn; it doubles on each further one. Default 250 ms. */
  readonly noOpBackoffMs?: number | undefined
  /** Step-wise runs end after this many failed decisions in a row. Default 3. */
  readonly maxConsecutiveGenerationErrors?: number | undefined
  /**
   * Outline characters handed per turn to a step policy that asks for no view budget
   * (`StepPolicyShape.view.budget`; a model's policy does, and its view is never cut). Default 12000.
   */
  readonly maxOutlineChars?: number | undefined
  /**
   * Type a secret only into a browser whose requests are guarded (`BrowserDriver.guardSecrets`
   * armed): a step that would type one where the guard cannot be armed (a grid session, a BiDi
   * session, a remote browser whose DevTools port is not on this machine, a driver without the
   * capability) is refused (`secret-unguarded`) and nothing is typed. Default true. `false` accepts
   * the risk: the run types the secret after the checks before typing alone (page, frame and form
   * action on an allowed origin), a page that sends it elsewhere by script or redirect is not
   * stopped, and the transcript says requests were not guarded.
   *
   * @example
   * ```ts
   * // A browser you trust, driven over BiDi: the secret is typed without the request guard.
   * const options: ExecutorOptions = { tools, requireRequestGuard: false }
   * ```
   */
  readonly requireRequestGuard?: boolean | undefined
  /**
   * What a step-wise run (`runAgent`) does with the task's start URL. `"open"` (default) loads it first,
   * so the run starts from a fresh page. `"current"`: the browser already shows it (an MCP session's
   * page, a program that opened it itself), so the run starts on that page as it is, typed values and
   * all, and spends no navigation on loading it again; the start URL still sets the run's origin.
   *
   * @example
   * ```ts
   * // The driver is on the cart already: check out from there, without reloading it.
   * const options: ExecutorOptions = { tools, startPage: "current" }
   * ```
   */
  readonly startPage?: "open" | "current" | undefined
}
