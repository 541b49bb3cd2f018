import type { TableSection } from "./Report.ts"

/** What `runExecutorBench` of the executor's own benchmark answers. */
export interface ExecutorBenchResult {
  readonly steps: number
  readonly overhead: {
    readonly plain: { readonly totalMs: number; readonly driverMs: number; readonly perStepMs: number }
    readonly traced: { readonly totalMs: number; readonly driverMs: number; readonly perStepMs: number }
  }
  readonly throughput: ReadonlyArray<{
    readonly concurrency: number
    readonly tasks: number
    readonly completed: number
    readonly seconds: number
    readonly tasksPerMinute: number
  }>
}

type RunExecutorBench = (options: { readonly steps?: number; readonly tasks?: number }) => Promise<unknown>

const isResult = (value: unknown): value is ExecutorBenchResult => {
  const result = value as Partial<ExecutorBenchResult> | undefined
  return (
    typeof result?.steps === "number" &&
    typeof result.overhead?.plain?.perStepMs === "number" &&
    typeof result.overhead.traced?.perStepMs === "number" &&
    Array.isArray(result.throughput) &&
    result.throughput.every(
      (run) => typeof run.tasksPerMinute === "number" && typeof run.completed === "number",
    )
  )
}

/**
 * Runs the executor's own benchmark (`packages/executor/bench/ExecutorBench.ts`, which its package
 * runs as `pnpm --filter @sextant/executor bench`) in this process, after the bench has closed its
 * own browsers so the two do not compete. It is found next to the package's entry point because
 * it is a script of that package, not part of its public API.
 */
export const runExecutorBench = async (options: {
  readonly steps: number
  readonly tasks: number
}): Promise<ExecutorBenchResult> => {
  const entry = import.meta.resolve("@sextant/executor")
  const script = new URL("../bench/ExecutorBench.ts", entry).href
  const module = (await import(script)) as { readonly runExecutorBench?: RunExecutorBench }
  if (typeof module.runExecutorBench !== "function") {
    throw new Error(`${script} no longer exports runExecutorBench`)
  }
  const result = await module.runExecutorBench(options)
  if (!isResult(result))
    throw new Error(`runExecutorBench answered an unexpected shape: ${JSON.stringify(result)}`)
  const incomplete = result.throughput.find((run) => run.completed !== run.tasks)
  if (incomplete !== undefined) {
    throw new Error(
      `runMany with ${incomplete.concurrency} agents completed ${incomplete.completed} of ${incomplete.tasks} tasks`,
    )
  }
  return result
}

/** The executor tables: framework time per step, and runMany throughput by concurrency. */
export const executorSections = (result: ExecutorBenchResult): ReadonlyArray<TableSection> => [
  {
    title: `Executor overhead per step (fake driver, ${result.steps} steps, driver time excluded)`,
    note: "From packages/executor/bench: runPlan's own time per step (guardrails, criteria, store writes, metrics).",
    headers: ["trace", "ms / step", "run ms", "driver ms"],
    rows: [
      [
        "none",
        result.overhead.plain.perStepMs.toFixed(2),
        result.overhead.plain.totalMs.toFixed(0),
        result.overhead.plain.driverMs.toFixed(0),
      ],
      [
        "JSONL file",
        result.overhead.traced.perStepMs.toFixed(2),
        result.overhead.traced.totalMs.toFixed(0),
        result.overhead.traced.driverMs.toFixed(0),
      ],
    ],
  },
  {
    title: "runMany throughput (real Chromium, a fresh session per task: launch + navigate + extract)",
    headers: ["agents at once", "tasks", "seconds", "tasks / min"],
    rows: result.throughput.map((run) => [
      String(run.concurrency),
      `${run.completed}/${run.tasks}`,
      run.seconds.toFixed(1),
      run.tasksPerMinute.toFixed(1),
    ]),
  },
]
