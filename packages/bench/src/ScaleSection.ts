import type { BrowserDriverShape } from "@sextant/core"
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
import { HEADLESS_ARGS, RUN_MARK, VIEWPORT } from "./Browsers.ts"
import { BenchError } from "./Measure.ts"
import { ms, type TableSection } from "./Report.ts"
import { quantile } from "./Stats.ts"

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
}

/** What the scale section measured. */
export interface ScaleResult {
  readonly material: string
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

/**
 * Row group: tasks per minute through the task queue (BullMQ) with 1 and 2 workers. The queue is
 * being added in another change; until it lands nothing is measured and no row is printed.
 */
export const measureQueueThroughput = async (): Promise<ReadonlyArray<ThroughputRow>> => []

/**
 * Row group: tasks per minute on a Selenium Grid with 1 and 2 nodes. The Grid adapter is being added
 * in another change; until it lands nothing is measured and no row is printed.
 */
export const measureGridThroughput = async (): Promise<ReadonlyArray<ThroughputRow>> => []

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
            title: "Tasks per minute",
            headers: ["setup", "tasks", "tasks / minute"],
            rows: result.throughput.map((row) => [
              row.setup,
              String(row.tasks),
              row.tasksPerMinute.toFixed(1),
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
  const throughput = [...(await measureQueueThroughput()), ...(await measureGridThroughput())]
  return { material, plan, coldStart, acquire, throughput }
}
