import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { BrowserDriverShape } from "@sextant/core"
import { startGrid, startPostgres, startRedis } from "@sextant/testing"
import {
  createDriverPool,
  type LaunchOptions,
  launch,
  makeDriver,
  resolveBinaries,
  type SharedChromedriver,
  startSharedChromedriver,
} from "@sextant/webdriverio"
import { Effect, Exit, Scope } from "effect"
import { chromium } from "playwright-core"
import { createAgent } from "sextant-agent"
import { HEADLESS_ARGS, RUN_MARK, VIEWPORT } from "./Browsers.ts"
import { BenchError } from "./Measure.ts"
import { ms, type TableSection } from "./Report.ts"
import { quantile } from "./Stats.ts"
import { sampleBrowserMemory, type TaskSpan, tasksPerMinute, WorkerLogSpans } from "./Throughput.ts"

/** Median, p95 and the count of one timed series, in ms. */
export interface Spread {
  readonly n: number
  readonly median: number
  readonly p95: number
}

const spread = (samples: ReadonlyArray<number>): Spread => {
  const sorted = [...samples].sort((left, right) => left - right)
  return { n: sorted.length, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) }
}

/** How many runs the scale section takes. */
export interface ScalePlan {
  /** Cold-start pairs, each contender once per pair in alternating order, after one untimed pair. */
  readonly pairs: number
  /** Pool acquires per row, after five untimed ones. */
  readonly acquires: number
}

/** One contender's cold start: launch to the first page read, with its phases. */
export interface ColdStart {
  readonly way: string
  readonly total: Spread
  readonly phases: ReadonlyArray<{ readonly phase: string; readonly time: Spread }>
}

/** One pool row: how long an acquire (or Playwright's equivalent) took. */
export interface AcquireRow {
  readonly way: string
  readonly time: Spread
}

/**
 * A row group of tasks per minute, measured on pieces other engineers are adding (the BullMQ queue,
 * the Selenium Grid adapter). Each group is a function that answers its rows once it can measure them.
 */
export interface ThroughputRow {
  readonly setup: string
  readonly tasksPerMinute: number
  readonly tasks: number
  /** From the first start (or enqueue) to the last completion. */
  readonly wallSeconds: number
  /** One task's own time: taken by a worker (or started) → ended, in seconds. */
  readonly taskSeconds: Spread
  /** Peak over samples of one browser's PSS with its helper processes, in MB. */
  readonly peakMbPerSession: number
  /** The most browser sessions seen alive at once. */
  readonly peakBrowsers: number
  /** How many tasks could run at once (workers × concurrency, or grid slots). */
  readonly slots: number
}

/** What the scale section measured. */
export interface ScaleResult {
  readonly material: string
  /** The throughput rows' material: the task, the machine's cores, the load when they started. */
  readonly throughputMaterial: string
  readonly plan: ScalePlan
  readonly coldStart: ReadonlyArray<ColdStart>
  readonly acquire: ReadonlyArray<AcquireRow>
  readonly throughput: ReadonlyArray<ThroughputRow>
}

type Phases = Record<string, number>

const timed = async (phases: Phases, phase: string, task: () => Promise<unknown>) => {
  const start = performance.now()
  await task()
  phases[phase] = performance.now() - start
}

const { chrome } = resolveBinaries()

// Playwright as its users start it: launch, a context with the viewport, a page, goto, the AI snapshot.
const playwrightColdStart = async (url: string): Promise<Phases> => {
  const phases: Phases = {}
  const started = performance.now()
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined
  try {
    await timed(phases, "launch", async () => {
      browser = await chromium.launch({
        executablePath: chrome,
        args: [...HEADLESS_ARGS.filter((argument) => !argument.startsWith("--headless")), RUN_MARK],
        headless: true,
      })
    })
    let page: Awaited<ReturnType<NonNullable<typeof browser>["newPage"]>> | undefined
    await timed(phases, "context and page", async () => {
      page = await (await browser!.newContext({ viewport: VIEWPORT })).newPage()
    })
    await timed(phases, "goto", () => page!.goto(url))
    await timed(phases, "read (ariaSnapshot ai)", () => page!.ariaSnapshot({ mode: "ai" } as never))
    phases.total = performance.now() - started
    return phases
  } finally {
    await browser?.close()
  }
}

// Sextant as its users start it: launch, the driver, navigate, look.
const sextantColdStart = async (url: string, chromedriver?: SharedChromedriver): Promise<Phases> => {
  const phases: Phases = {}
  const scope = await Effect.runPromise(Scope.make())
  const inScope = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) =>
    Effect.runPromise(Scope.provide(effect, scope))
  const options: LaunchOptions = {
    windowSize: VIEWPORT,
    args: [RUN_MARK],
    ...(chromedriver === undefined ? {} : { chromedriver }),
  }
  const started = performance.now()
  try {
    let session: Awaited<ReturnType<typeof inScope<Effect.Success<ReturnType<typeof launch>>, unknown>>>
    await timed(phases, "launch", async () => {
      session = await inScope(launch(options))
    })
    let driver: BrowserDriverShape | undefined
    await timed(phases, "makeDriver", async () => {
      driver = await inScope(makeDriver(session!))
    })
    await timed(phases, "navigate", () => Effect.runPromise(driver!.navigate(url)))
    await timed(phases, "read (look)", () => Effect.runPromise(driver!.look()))
    phases.total = performance.now() - started
    return phases
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

const coldStartRows = (way: string, runs: ReadonlyArray<Phases>): ColdStart => ({
  way,
  total: spread(runs.map((run) => run.total!)),
  phases: Object.keys(runs[0] ?? {})
    .filter((phase) => phase !== "total")
    .map((phase) => ({ phase, time: spread(runs.map((run) => run[phase]!)) })),
})

/**
 * Cold start, side by side: each pair runs every contender once, in an order that alternates from
 * pair to pair, so a slow spell of the machine hits them alike.
 */
export const measureColdStart = async (
  url: string,
  pairs: number,
  progress: (line: string) => void,
): Promise<ReadonlyArray<ColdStart>> => {
  const scope = await Effect.runPromise(Scope.make())
  try {
    const chromedriver = await Effect.runPromise(Scope.provide(startSharedChromedriver(), scope))
    const contenders: ReadonlyArray<{ readonly way: string; readonly run: () => Promise<Phases> }> = [
      {
        way: "Playwright: launch → newContext → newPage → goto → ariaSnapshot({ mode: 'ai' })",
        run: () => playwrightColdStart(url),
      },
      { way: "Sextant: launch → makeDriver → navigate → look()", run: () => sextantColdStart(url) },
      {
        way: "Sextant, ChromeDriver already running (shared): same steps",
        run: () => sextantColdStart(url, chromedriver),
      },
    ]
    const samples = contenders.map(() => [] as Array<Phases>)
    for (let pair = 0; pair <= pairs; pair++) {
      const order = contenders.map((_, index) => index)
      if (pair % 2 === 1) order.reverse()
      for (const index of order) {
        const contender = contenders[index]!
        const phases = await contender.run().catch((cause: unknown) => {
          throw new BenchError(`cold start (${contender.way})`, url, cause)
        })
        // The first pair warms the disk cache and the JIT: it is not counted.
        if (pair > 0) samples[index]!.push(phases)
      }
      progress(`cold start pair ${pair}/${pairs}`)
    }
    return contenders.map((contender, index) => coldStartRows(contender.way, samples[index]!))
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/**
 * Pool acquire: a warm pool of one browser; each holder loads the page and leaves a cookie and
 * localStorage behind, and every acquire must find them gone (checked, not timed). Two rows: the slot
 * had a second after the release to make the next context ready, or none (acquire right after
 * release, so the acquire waits for the context switch and the driver's start). Beside them, Playwright's own per-task isolation: `newContext()` + `newPage()`.
 */
export const measureAcquire = async (
  url: string,
  acquires: number,
  progress: (line: string) => void,
): Promise<ReadonlyArray<AcquireRow>> => {
  const warmup = 5
  const scope = await Effect.runPromise(Scope.make())
  const rows: Array<AcquireRow> = []
  try {
    const pool = await Effect.runPromise(
      Scope.provide(
        createDriverPool({ size: 1, warm: 1, launch: { windowSize: VIEWPORT, args: [RUN_MARK] } }),
        scope,
      ),
    )
    for (const gapMs of [1_000, 0]) {
      const samples: Array<number> = []
      for (let round = 0; round < warmup + acquires; round++) {
        const started = performance.now()
        let acquired = 0
        await Effect.runPromise(
          Effect.scoped(
            Effect.gen(function* () {
              const { driver } = yield* pool.acquire
              acquired = performance.now() - started
              yield* driver.navigate(url)
              const left = (yield* driver.evaluate(
                "const before = document.cookie + '|' + localStorage.getItem('holder'); document.cookie = 'holder=' + Date.now(); localStorage.setItem('holder', 'x'); return before",
              )) as string
              if (left !== "|null") {
                return yield* Effect.die(new Error(`a pooled context saw the previous holder's ${left}`))
              }
            }),
          ),
        ).catch((cause: unknown) => {
          throw new BenchError("pool acquire", url, cause)
        })
        if (round >= warmup) samples.push(acquired)
        if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs))
      }
      rows.push({
        way:
          gapMs > 0
            ? `Sextant pool.acquire, next context prepared while idle (${gapMs} ms from one holder's release to the next acquire)`
            : "Sextant pool.acquire right after the previous release (context switch + driver start in the acquire)",
        time: spread(samples),
      })
      progress(`pool acquire measured (${gapMs} ms gap)`)
    }
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
  const browser = await chromium.launch({
    executablePath: chrome,
    args: [...HEADLESS_ARGS.filter((argument) => !argument.startsWith("--headless")), RUN_MARK],
    headless: true,
  })
  try {
    const samples: Array<number> = []
    for (let round = 0; round < warmup + acquires; round++) {
      const started = performance.now()
      const context = await browser.newContext({ viewport: VIEWPORT })
      const page = await context.newPage()
      const elapsed = performance.now() - started
      await page.goto(url)
      await context.close()
      if (round >= warmup) samples.push(elapsed)
    }
    rows.push({ way: "Playwright browser.newContext() + newPage() (for comparison)", time: spread(samples) })
  } finally {
    await browser.close()
  }
  return rows
}

/** How many tasks each throughput row runs. */
export const THROUGHPUT_TASKS = 10

/** The throughput rows' task: the fixture site's contact form, filled and submitted (6 steps). */
export const contactTask = (siteUrl: string, index: number) => ({
  goal: `type "Scale ${index}" into Name, type "s${index}@example.com" into Email, select Support from Topic, check Email, type "scale-value-${index}" into Message, then click Send message`,
  startUrl: `${siteUrl}/forms/contact`,
  constraints: { allowFormSubmission: true },
})

const cli = fileURLToPath(new URL("../../sextant/src/cli.ts", import.meta.url))

const rowOf = (
  setup: string,
  slots: number,
  spans: ReadonlyArray<TaskSpan>,
  wallMs: number,
  memory: { readonly peakKbPerSession: number; readonly peakBrowsers: number },
): ThroughputRow => ({
  setup,
  tasks: spans.length,
  tasksPerMinute: tasksPerMinute(spans.length, wallMs),
  wallSeconds: wallMs / 1000,
  taskSeconds: spread(spans.map((span) => (span.end - span.start) / 1000)),
  peakMbPerSession: memory.peakKbPerSession / 1024,
  peakBrowsers: memory.peakBrowsers,
  slots,
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Row group: tasks per minute through the task queue (BullMQ) with 1 and 2 `sextant worker` processes
 * (concurrency 1 each) on one Redis and one PostgreSQL store, from `startRedis`/`startPostgres`. Each
 * row enqueues `tasks` contact-form tasks with `sextant enqueue` and times from the enqueue to the last
 * completion; every task must end COMPLETED.
 */
export const measureQueueThroughput = async (
  siteUrl: string,
  tasks: number,
  progress: (line: string) => void,
): Promise<ReadonlyArray<ThroughputRow>> => {
  const redis = await startRedis()
  const postgres = await startPostgres()
  const directory = mkdtempSync(join(tmpdir(), "sextant-bench-queue-"))
  const rows: Array<ThroughputRow> = []
  const children: Array<ChildProcess> = []
  try {
    for (const count of [1, 2]) {
      const logs = Array.from({ length: count }, () => new WorkerLogSpans())
      const text: Array<string> = logs.map(() => "")
      const workers = logs.map((log, index) => {
        const child = spawn(
          process.execPath,
          [
            "--conditions=sextant-source",
            cli,
            "worker",
            ...["--queue", redis.url, "--store", postgres.url, "--concurrency", "1"],
            ...["--trace-dir", join(directory, "traces")],
          ],
          { cwd: directory, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env } },
        )
        child.stderr?.on("data", (chunk) => {
          text[index] += String(chunk)
          log.feed(String(chunk))
        })
        children.push(child)
        return child
      })
      const ready = Date.now() + 60_000
      while (text.some((log) => !log.includes(", concurrency "))) {
        if (Date.now() > ready) throw new BenchError("queue workers", siteUrl, new Error(text.join("\n")))
        await sleep(100)
      }
      const file = join(directory, `tasks-${count}.json`)
      writeFileSync(
        file,
        JSON.stringify(Array.from({ length: tasks }, (_, index) => contactTask(siteUrl, index))),
      )
      const memory = sampleBrowserMemory(() => workers.map((worker) => worker.pid ?? -1))
      const started = performance.now()
      execFileSync(
        process.execPath,
        ["--conditions=sextant-source", cli, "enqueue", file, "--queue", redis.url],
        {
          cwd: directory,
          stdio: "ignore",
        },
      )
      const deadline = Date.now() + 300_000
      const ended = () => logs.flatMap((log) => log.ended())
      while (ended().length < tasks) {
        if (Date.now() > deadline)
          throw new BenchError(
            `queue, ${count} worker(s)`,
            siteUrl,
            new Error(`${ended().length} of ${tasks} ended\n${text.join("\n")}`),
          )
        await sleep(100)
      }
      const wallMs = Math.max(...ended().map((run) => run.span?.end ?? 0)) - started
      const peak = memory.stop()
      const notCompleted = ended().filter((run) => run.status !== "COMPLETED" || run.span === undefined)
      if (notCompleted.length > 0)
        throw new BenchError(
          `queue, ${count} worker(s)`,
          siteUrl,
          new Error(`not COMPLETED: ${JSON.stringify(notCompleted)}\n${text.join("\n")}`),
        )
      rows.push(
        rowOf(
          `BullMQ queue: ${count} \`sextant worker\` process${count === 1 ? "" : "es"} (--concurrency 1 each), Redis + PostgreSQL store`,
          count,
          ended().map((run) => run.span!),
          wallMs,
          peak,
        ),
      )
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (worker.exitCode !== null) return resolve()
              worker.once("exit", () => resolve())
              worker.kill("SIGTERM")
            }),
        ),
      )
      progress(`queue throughput measured (${count} worker(s))`)
    }
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    await redis.stop()
    await postgres.stop()
    rmSync(directory, { recursive: true, force: true })
  }
  return rows
}

/**
 * Row group: tasks per minute on a Selenium Grid 4 (`startGrid`, one session per node) with 1 and then
 * 2 nodes: `createAgent({ browser: { grid } })` runs `tasks` contact-form tasks, as many at once as
 * the grid has slots, each in its own grid session; every task must end COMPLETED.
 */
export const measureGridThroughput = async (
  siteUrl: string,
  tasks: number,
  progress: (line: string) => void,
): Promise<ReadonlyArray<ThroughputRow>> => {
  const grid = await startGrid({ nodes: 1, sessionsPerNode: 1 })
  const directory = mkdtempSync(join(tmpdir(), "sextant-bench-grid-"))
  const rows: Array<ThroughputRow> = []
  try {
    for (const count of [1, 2]) {
      if (grid.nodes.length < count) await grid.addNode()
      const agent = createAgent({
        browser: { grid: grid.url, args: [RUN_MARK] },
        store: { path: join(directory, `runs-${count}.db`) },
        traceDirectory: false,
      })
      try {
        const memory = sampleBrowserMemory(() => grid.nodes.map((node) => node.pid))
        const spans: Array<TaskSpan> = []
        const failed: Array<string> = []
        let next = 0
        const started = performance.now()
        await Promise.all(
          Array.from({ length: count }, async () => {
            while (next < tasks) {
              const index = next++
              const start = performance.now()
              const result = await agent.run(contactTask(siteUrl, index))
              spans.push({ start, end: performance.now() })
              if (result.status !== "COMPLETED") failed.push(`task ${index}: ${result.status}`)
            }
          }),
        )
        const wallMs = performance.now() - started
        const peak = memory.stop()
        if (failed.length > 0)
          throw new BenchError(`grid, ${count} node(s)`, siteUrl, new Error(failed.join("; ")))
        rows.push(
          rowOf(
            `Selenium Grid 4: hub + ${count} node${count === 1 ? "" : "s"} (1 session per node), createAgent({ browser: { grid } }), ${count} run${count === 1 ? "" : "s"} at once`,
            count,
            spans,
            wallMs,
            peak,
          ),
        )
      } finally {
        await agent.close()
      }
      progress(`grid throughput measured (${count} node(s))`)
    }
  } finally {
    await grid.stop()
    rmSync(directory, { recursive: true, force: true })
  }
  return rows
}

const spreadCells = (time: Spread) => [ms(time.median), ms(time.p95)]

/** The scale section's tables; the throughput table only when some row group measured something. */
export const scaleSections = (result: ScaleResult): ReadonlyArray<TableSection> => {
  const playwright = result.coldStart[0]!
  const cold: TableSection = {
    title: `Cold start: launch → first page read, side by side (${result.plan.pairs} pairs, interleaved in alternating order, after 1 untimed pair)`,
    note: `Material: ${result.material}. Ratio = median ÷ Playwright's median.`,
    headers: ["way", "n", "median ms", "p95 ms", "× Playwright"],
    rows: result.coldStart.map((row) => [
      row.way,
      String(row.total.n),
      ...spreadCells(row.total),
      `${(row.total.median / playwright.total.median).toFixed(2)}×`,
    ]),
  }
  const phases: TableSection = {
    title: "Cold start by phase (median / p95 ms)",
    headers: ["way", "phase", "median ms", "p95 ms"],
    rows: result.coldStart.flatMap((row) =>
      row.phases.map((phase) => [row.way.split(":")[0]!, phase.phase, ...spreadCells(phase.time)]),
    ),
  }
  const acquire: TableSection = {
    title: `Pool acquire: a fresh, isolated browser context (${result.plan.acquires} acquires per row after 5 untimed)`,
    note: `Material: ${result.material}; a warm pool of one browser on a shared ChromeDriver. Each holder navigates and leaves a cookie and localStorage; every acquire is checked to see none of them. Goal: p50 ≤ 50 ms.`,
    headers: ["way", "n", "p50 ms", "p95 ms"],
    rows: result.acquire.map((row) => [row.way, String(row.time.n), ...spreadCells(row.time)]),
  }
  const throughput: ReadonlyArray<TableSection> =
    result.throughput.length === 0
      ? []
      : [
          {
            title: "Tasks per minute: queue workers and grid nodes",
            note: `Material: ${result.throughputMaterial}. Tasks / minute = tasks ÷ (first enqueue or start → last completion). Per task = one task's own time (taken by a worker, or started → ended), the figure the capacity model in the root README uses. PSS per session = the peak, over samples every 250 ms, of one browser's proportional set size with its renderer, GPU and utility processes (from /proc/<pid>/smaps_rollup, shared pages split among sharers). Browsers alive at once counts a finished task's Chromium while it still shuts down. On 2 cores a second worker or node may not raise throughput: each task's Chromium is CPU-bound (layout, script, the renderer and the GPU process on software), so two browsers at once share the same two cores, and the machine's other work shares them too.`,
            headers: [
              "setup",
              "tasks",
              "wall s",
              "tasks / minute",
              "per task s (median / p95)",
              "PSS per session MB (peak)",
              "browsers at once (peak)",
            ],
            rows: result.throughput.map((row) => [
              row.setup,
              String(row.tasks),
              row.wallSeconds.toFixed(1),
              row.tasksPerMinute.toFixed(1),
              `${row.taskSeconds.median.toFixed(2)} / ${row.taskSeconds.p95.toFixed(2)}`,
              row.peakBrowsers === 0 ? "not seen" : row.peakMbPerSession.toFixed(0),
              String(row.peakBrowsers),
            ]),
          },
        ]
  return [cold, phases, acquire, ...throughput]
}

/** Runs the whole scale section against `url`. */
export const measureScale = async (
  url: string,
  plan: ScalePlan,
  material: string,
  progress: (line: string) => void,
): Promise<ScaleResult> => {
  const coldStart = await measureColdStart(url, plan.pairs, progress)
  const acquire = await measureAcquire(url, plan.acquires, progress)
  const siteUrl = new URL(url).origin
  const throughputMaterial = `${THROUGHPUT_TASKS} tasks per row, each filling and submitting the fixture site's /forms/contact (six steps: type Name, Email, select Topic, check Email, type Message, click Send message; the grammar planner, no model), a fresh browser session per task; ${cpus().length} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")} when they started`
  const throughput = [
    ...(await measureQueueThroughput(siteUrl, THROUGHPUT_TASKS, progress)),
    ...(await measureGridThroughput(siteUrl, THROUGHPUT_TASKS, progress)),
  ]
  return { material, throughputMaterial, plan, coldStart, acquire, throughput }
}
