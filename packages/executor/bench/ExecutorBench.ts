// Executor benchmarks: framework time per step (with a fake driver, browser time excluded) and runMany
// throughput in real Chromium on the fixture site for 1, 2 and 4 agents at once.
// Run: node --conditions=sextant-source packages/executor/bench/ExecutorBench.ts [--steps 1000] [--tasks 8] [--no-browser]
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { BrowserDriver, type BrowserDriverShape, decodeAgentTask, defineTool, type Plan } from "@sextant/core"
import { startFixtureSite } from "@sextant/fixture-site"
import { Planner, type PlannerShape } from "@sextant/planner"
import { MemoryStore, makeFakeBrowserDriver } from "@sextant/testing"
import { browserTools } from "@sextant/tools"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer } from "effect"
import { z } from "zod"
import { runMany, runPlan } from "../src/index.ts"

const noReplan: PlannerShape = {
  plan: () => Effect.die("the benchmark gives its plans"),
  replan: () => Effect.die("the benchmark expects no replan"),
}

const click = defineTool({
  name: "click",
  description: "Click a selector.",
  input: z.object({ target: z.string() }),
  output: z.object({ changed: z.boolean() }),
  effects: { clicks: true, idempotent: true },
  run: ({ target }) =>
    BrowserDriver.use((driver) => driver.act({ selector: target }, "click")).pipe(
      Effect.map((result) => ({ changed: result.changed })),
    ),
})

/** Wraps every driver method to add up the time spent inside it. */
const timed = (driver: BrowserDriverShape) => {
  let spentMs = 0
  const wrap = <A, E>(effect: Effect.Effect<A, E>) =>
    Effect.suspend(() => {
      const start = performance.now()
      return Effect.ensuring(
        effect,
        Effect.sync(() => {
          spentMs += performance.now() - start
        }),
      )
    })
  const wrapped = Object.fromEntries(
    Object.entries(driver).map(([name, value]) => [
      name,
      typeof value === "function"
        ? (...args: Array<unknown>) =>
            wrap((value as (...args: Array<unknown>) => Effect.Effect<unknown, unknown>)(...args))
        : wrap(value as Effect.Effect<unknown, unknown>),
    ]),
  ) as unknown as BrowserDriverShape
  return { driver: wrapped, spent: () => spentMs }
}

const overheadPerStep = async (steps: number, traced: boolean) => {
  const fake = makeFakeBrowserDriver({ site: { "/": `<button id="go">Go</button>` } })
  const { driver, spent } = timed(fake.driver)
  const task = Effect.runSync(
    decodeAgentTask({
      goal: "click many times",
      startUrl: "http://bench.test/",
      constraints: { maxSteps: steps + 1, quotas: { clicks: steps } },
    }),
  )
  const plan: Plan = {
    taskId: task.id,
    revision: 0,
    status: "validated",
    steps: [
      {
        index: 0,
        tool: "navigate",
        args: { url: "http://bench.test/" },
        successCriteria: [],
        state: "pending",
        attempts: 0,
      },
      ...Array.from({ length: steps }, (_, index) => ({
        index: index + 1,
        tool: "click",
        args: { target: "#go" },
        successCriteria: [],
        state: "pending" as const,
        attempts: 0,
      })),
    ],
  }
  const directory = traced ? mkdtempSync(join(tmpdir(), "sextant-bench-trace-")) : undefined
  const navigate = browserTools.find((tool) => tool.name === "navigate")
  const started = performance.now()
  await Effect.runPromise(
    runPlan(task, plan, {
      tools: [click, ...(navigate === undefined ? [] : [navigate])],
      traceDirectory: directory,
    }).pipe(
      Effect.provide(
        Layer.mergeAll(
          Layer.succeed(BrowserDriver, driver),
          Layer.succeed(Planner, noReplan),
          MemoryStore.layerTest,
        ),
      ),
    ),
  )
  const totalMs = performance.now() - started
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true })
  return { totalMs, driverMs: spent(), perStepMs: (totalMs - spent()) / (steps + 1) }
}

const throughput = async (siteUrl: string, tasks: number, concurrency: number) => {
  const inputs = Array.from({ length: tasks }, (_, index) =>
    Effect.runSync(
      decodeAgentTask({
        goal: `read page ${(index % 5) + 1}`,
        startUrl: `${siteUrl}/products?page=${(index % 5) + 1}`,
      }),
    ),
  )
  const planFor = (taskId: string, url: string): Plan => ({
    taskId,
    revision: 0,
    status: "validated",
    steps: [
      { index: 0, tool: "navigate", args: { url }, successCriteria: [], state: "pending", attempts: 0 },
      {
        index: 1,
        tool: "extract",
        args: { target: "li[data-product-id] h2", all: true },
        successCriteria: [{ type: "minItems", selector: "li[data-product-id]", min: 1 }],
        state: "pending",
        attempts: 0,
      },
    ],
  })
  const started = performance.now()
  const outcomes = await Effect.runPromise(
    runMany(inputs, (task) => runPlan(task, planFor(task.id, task.startUrl ?? ""), { tools: browserTools }), {
      concurrency,
      session: WebdriverioDriver.layer({}),
    }).pipe(Effect.provide(Layer.merge(Layer.succeed(Planner, noReplan), MemoryStore.layerTest))),
  )
  const seconds = (performance.now() - started) / 1000
  const completed = outcomes.filter((outcome) => outcome.ok && outcome.result.status === "COMPLETED").length
  return { concurrency, tasks, completed, seconds, tasksPerMinute: (completed / seconds) * 60 }
}

/** Runs both benchmarks and returns their numbers (for `pnpm bench` to fold in). */
export const runExecutorBench = async (
  options: { readonly steps?: number; readonly tasks?: number; readonly browser?: boolean } = {},
) => {
  const steps = options.steps ?? 1000
  const tasks = options.tasks ?? 8
  // Warm the JIT first: the first few hundred steps run mostly unoptimised code.
  await overheadPerStep(300, false)
  const plain = await overheadPerStep(steps, false)
  const traced = await overheadPerStep(steps, true)
  if (options.browser === false) return { steps, overhead: { plain, traced }, throughput: [] }
  const site = await startFixtureSite({ port: 0 })
  try {
    const runs = []
    for (const concurrency of [1, 2, 4]) runs.push(await throughput(site.url, tasks, concurrency))
    return { steps, overhead: { plain, traced }, throughput: runs }
  } finally {
    await site.close()
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { steps: { type: "string" }, tasks: { type: "string" }, "no-browser": { type: "boolean" } },
  })
  const result = await runExecutorBench({
    steps: values.steps === undefined ? undefined : Number(values.steps),
    tasks: values.tasks === undefined ? undefined : Number(values.tasks),
    browser: values["no-browser"] !== true,
  })
  const fixed = (value: number) => value.toFixed(2)
  console.log(`executor overhead per step (fake driver, ${result.steps} steps, driver time excluded)`)
  console.log(
    `  no trace file: ${fixed(result.overhead.plain.perStepMs)} ms/step (run ${fixed(result.overhead.plain.totalMs)} ms, driver ${fixed(result.overhead.plain.driverMs)} ms)`,
  )
  console.log(
    `  JSONL trace:   ${fixed(result.overhead.traced.perStepMs)} ms/step (run ${fixed(result.overhead.traced.totalMs)} ms, driver ${fixed(result.overhead.traced.driverMs)} ms)`,
  )
  console.log("runMany throughput (real Chromium, fresh session per task: launch + navigate + extract)")
  for (const run of result.throughput) {
    console.log(
      `  concurrency ${run.concurrency}: ${run.completed}/${run.tasks} tasks in ${fixed(run.seconds)} s = ${fixed(run.tasksPerMinute)} tasks/min`,
    )
  }
}
