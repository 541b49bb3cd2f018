import type { AgentTask, BrowserDriver } from "@sextant/core"
import { Effect, Exit, Layer } from "effect"

/** Options of {@link runMany}. */
export interface RunManyOptions<E, R> {
  /** Agents running at once. Default 2. */
  readonly concurrency?: number | undefined
  /**
   * The browser session of one agent. Built fresh for every task (its own session, cookies and memory)
   * and closed when that task ends — from a driver pool this borrows and returns a session.
   */
  readonly session: Layer.Layer<BrowserDriver, E, R>
}

/** One task's outcome in a batch: a result, or the typed error it failed with. */
export type ManyOutcome<A, E> =
  | { readonly taskId: string; readonly ok: true; readonly result: A }
  | { readonly taskId: string; readonly ok: false; readonly error: E }

/**
 * Runs many agents over a pool of sessions with a concurrency limit. Each task gets its own browser
 * session from `options.session`, so agents share nothing but the store; one failing task does not stop
 * the others. Outcomes come back in task order.
 *
 * @example
 * ```ts
 * import { runMany, planAndRun } from "@sextant/executor"
 * const outcomes = yield* runMany(tasks, (task) => planAndRun(task, { tools }), { concurrency: 4, session: pool.layer })
 * ```
 */
export const runMany = <A, E, R, E2, R2>(
  tasks: ReadonlyArray<AgentTask>,
  run: (task: AgentTask) => Effect.Effect<A, E, R>,
  options: RunManyOptions<E2, R2>,
): Effect.Effect<ReadonlyArray<ManyOutcome<A, E | E2>>, never, Exclude<R, BrowserDriver> | R2> =>
  Effect.forEach(
    tasks,
    (task) =>
      Effect.exit(run(task).pipe(Effect.provide(Layer.fresh(options.session)))).pipe(
        Effect.flatMap((exit) =>
          Exit.isSuccess(exit)
            ? Effect.succeed<ManyOutcome<A, E | E2>>({ taskId: task.id, ok: true, result: exit.value })
            : Effect.flatMap(Effect.flip(Effect.failCause(exit.cause)), (error) =>
                Effect.succeed<ManyOutcome<A, E | E2>>({ taskId: task.id, ok: false, error }),
              ),
        ),
      ),
    { concurrency: options.concurrency ?? 2 },
  )
