import { execFileSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { Reply, startOpenAiServer } from "@sextant/testing"
import { type Agent, createAgent, type TraceRecord } from "sextant-agent"
import type { TableSection } from "./Report.ts"
import { quantile } from "./Stats.ts"

/** The faults a soak task may carry. */
export type SoakFault =
  | "none"
  | "http-500-once"
  | "http-500-always"
  | "http-429-once"
  | "slow-page"
  | "alert"
  | "kill-chromedriver"
  | "kill-chromium"
  | "model-ok"
  | "model-bad-output"

/** Whether the goal stays reachable under the fault (COMPLETED is then right) or not. */
const POSSIBLE: Record<SoakFault, boolean> = {
  none: true,
  "http-500-once": true,
  "http-500-always": false,
  "http-429-once": true,
  "slow-page": true,
  alert: true,
  "kill-chromedriver": false,
  "kill-chromium": false,
  "model-ok": true,
  "model-bad-output": false,
}

/** How often each fault is drawn (out of the sum). */
const WEIGHTS: ReadonlyArray<readonly [SoakFault, number]> = [
  ["none", 4],
  ["http-500-once", 1],
  ["http-500-always", 1],
  ["http-429-once", 1],
  ["slow-page", 1],
  ["alert", 1],
  ["kill-chromedriver", 1],
  ["kill-chromium", 1],
  ["model-ok", 1],
  ["model-bad-output", 1],
]

/** One soak task's run. */
export interface SoakRun {
  readonly index: number
  readonly fault: SoakFault
  readonly possible: boolean
  readonly status: string
  readonly durationMs: number
  readonly retries: number
  readonly killed: boolean
  readonly message: string
}

/** What the process holds: counted before the soak and after every agent is closed. */
export interface SoakResources {
  readonly browserProcesses: number
  readonly chromedriverProcesses: number
  readonly openFds: number
  readonly activeHandles: Readonly<Record<string, number>>
  readonly profileDirs: number
  readonly heapUsedMb: number
  readonly rssMb: number
}

export interface SoakResult {
  readonly tasks: number
  readonly seed: number
  readonly pool: number
  readonly wallMs: number
  readonly runs: ReadonlyArray<SoakRun>
  readonly before: SoakResources
  readonly after: SoakResources
}

/** A small seeded generator (mulberry32): the same seed draws the same faults. */
const seeded = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const draw = (random: () => number): SoakFault => {
  const total = WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0)
  let point = random() * total
  for (const [fault, weight] of WEIGHTS) {
    point -= weight
    if (point < 0) return fault
  }
  return "none"
}

interface Row {
  readonly pid: number
  readonly ppid: number
  readonly args: string
}

const processTable = (): ReadonlyArray<Row> =>
  execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 })
    .trim()
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .flatMap((match) =>
      match === null ? [] : [{ pid: Number(match[1]), ppid: Number(match[2]), args: match[3] ?? "" }],
    )

/** This process's descendants. */
const descendants = (): ReadonlyArray<Row> => {
  const rows = processTable()
  const found: Array<Row> = []
  const queue = [process.pid]
  while (queue.length > 0) {
    const parent = queue.shift()
    for (const row of rows) {
      if (row.ppid !== parent) continue
      found.push(row)
      queue.push(row.pid)
    }
  }
  return found
}

const isChromedriver = (row: Row) => /chromedriver/i.test(row.args.split(" ")[0] ?? "")
const isBrowser = (row: Row) =>
  /chrom/i.test(row.args.split(" ")[0] ?? "") && !isChromedriver(row) && !row.args.includes("--type=")

/** Chromium and ChromeDriver processes still alive anywhere that carry this process's profile folders. */
const countResources = (): SoakResources => {
  const mine = `sextant-chromium-${process.pid}-`
  const everything = processTable()
  const ours = (row: Row) => row.args.includes(mine)
  const below = descendants()
  const browsers = new Set([
    ...below.filter(isBrowser).map((row) => row.pid),
    ...everything.filter((row) => isBrowser(row) && ours(row)).map((row) => row.pid),
  ])
  const handles: Record<string, number> = {}
  for (const name of process.getActiveResourcesInfo()) handles[name] = (handles[name] ?? 0) + 1
  const memory = process.memoryUsage()
  return {
    browserProcesses: browsers.size,
    chromedriverProcesses: below.filter(isChromedriver).length,
    openFds: readdirSync("/proc/self/fd").length,
    activeHandles: handles,
    profileDirs: readdirSync(tmpdir()).filter((name) => name.startsWith(mine)).length,
    heapUsedMb: Math.round((memory.heapUsed / 2 ** 20) * 10) / 10,
    rssMb: Math.round((memory.rss / 2 ** 20) * 10) / 10,
  }
}

/** Serializes browser launches so the processes a task started are known to be its own. */
class Lock {
  private tail: Promise<void> = Promise.resolve()
  acquire(): Promise<() => void> {
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const ready = this.tail.then(() => release)
    this.tail = this.tail.then(() => held)
    return ready
  }
}

const PLAN_MARK = "soak task"

/**
 * Runs `tasks` tasks over the fixture site, `pool` at a time, each in its own browser through
 * `createAgent`, with seeded faults: 500 and 429 answers, slow pages, alert dialogs, ChromeDriver or
 * Chromium killed mid-task, and bad model output from the scripted OpenAI-compatible server. Counts
 * leftover processes, file descriptors, handles and profile folders once every agent is closed.
 */
export const measureSoak = async (
  base: string,
  options: { readonly tasks: number; readonly seed: number; readonly pool: number },
  progress: (line: string) => void,
): Promise<SoakResult> => {
  const random = seeded(options.seed)
  const faults = Array.from({ length: options.tasks }, () => draw(random))
  const bad = new Set(faults.flatMap((fault, index) => (fault === "model-bad-output" ? [index] : [])))
  const globalGc = (globalThis as { gc?: () => void }).gc
  globalGc?.()
  const before = countResources()
  const started = performance.now()
  const server = await startOpenAiServer({
    model: "soak-model",
    replies: (request) => {
      const index = Number(new RegExp(`${PLAN_MARK} (\\d+)`).exec(request.text)?.[1] ?? -1)
      if (bad.has(index)) return Reply.malformed()
      if (request.text.includes(`Goal: list the products on page`)) {
        const page = Number(/on page (\d+)/.exec(request.text)?.[1] ?? 1)
        return Reply.json({
          steps: [
            { tool: "navigate", args: { url: `${base}/products?page=${page}` } },
            { tool: "extract", args: { target: "li[data-product-id] h2", all: true } },
          ],
        })
      }
      return Reply.json({ isComplete: true, summary: "listed the products", suggestions: [] })
    },
  })
  const common = { store: "memory", traceDirectory: false, screenshots: "never" } as const
  const rules = createAgent(common)
  const model = createAgent({
    ...common,
    planner: "model",
    model: { baseURL: server.baseURL, apiKey: "soak", model: "soak-model", maxRetries: 0 },
  })
  const lock = new Lock()
  const runs: Array<SoakRun> = []
  try {
    let next = 0
    const runOne = async (index: number): Promise<SoakRun> => {
      const fault = faults[index] as SoakFault
      const key = `soak-${options.seed}-${index}`
      const page = (index % 3) + 1
      const agent: Agent = fault.startsWith("model") ? model : rules
      const url = (() => {
        switch (fault) {
          case "http-500-once":
            return `${base}/faults/status?code=500&fail=1&key=${key}`
          case "http-500-always":
            return `${base}/faults/status?code=500&key=${key}`
          case "http-429-once":
            return `${base}/faults/status?code=429&fail=1&retryAfter=1&key=${key}`
          case "slow-page":
            return `${base}/faults/slow?ms=1500`
          case "alert":
            return `${base}/faults/alert?text=soak`
          default:
            return `${base}/products?page=${page}`
        }
      })()
      const goal = fault.startsWith("model")
        ? `list the products on page ${page} (${PLAN_MARK} ${index})`
        : fault.startsWith("http") || fault === "slow-page" || fault === "alert"
          ? `go to ${url}`
          : "extract name and price of the products"
      const kills = fault === "kill-chromedriver" || fault === "kill-chromium"
      let killed = false
      let release: (() => void) | undefined
      let known = new Set<number>()
      // Every task launches its browser under the lock, so the processes new by its first event are
      // its own (a kill must never hit another task's browser).
      release = await lock.acquire()
      if (kills) known = new Set(descendants().map((row) => row.pid))
      const onEvent = (event: TraceRecord) => {
        if (!kills) {
          if (event.type === "run-start") {
            release?.()
            release = undefined
          }
          return
        }
        if (event.type === "run-start" && release !== undefined) {
          // The browser of this run is up: its processes are the new ones (launches wait on the lock).
          const mine = descendants().filter((row) => !known.has(row.pid))
          known = new Set(mine.map((row) => row.pid))
          release()
          release = undefined
        }
        if (event.type === "step-end" && !killed) {
          const victims = descendants().filter(
            (row) =>
              known.has(row.pid) && (fault === "kill-chromedriver" ? isChromedriver(row) : isBrowser(row)),
          )
          for (const victim of victims) {
            try {
              process.kill(victim.pid, "SIGKILL")
              killed = true
            } catch {}
          }
        }
      }
      const taskStarted = performance.now()
      try {
        const result = await agent.run(
          { goal, startUrl: url, constraints: { maxDurationMs: 90_000 } },
          { onEvent, runId: key },
        )
        return {
          index,
          fault,
          possible: POSSIBLE[fault],
          status: result.status,
          durationMs: performance.now() - taskStarted,
          retries: result.metrics.retries,
          killed,
          message: result.status === "COMPLETED" ? "" : result.summary.summary.slice(0, 160),
        }
      } catch (error) {
        return {
          index,
          fault,
          possible: POSSIBLE[fault],
          status: "THREW",
          durationMs: performance.now() - taskStarted,
          retries: 0,
          killed,
          message: String(error instanceof Error ? error.message : error).slice(0, 160),
        }
      } finally {
        release?.()
      }
    }
    const worker = async () => {
      while (next < faults.length) {
        const index = next++
        const run = await runOne(index)
        runs.push(run)
        progress(
          `soak ${runs.length}/${faults.length}: #${index} ${run.fault} → ${run.status} in ${(run.durationMs / 1000).toFixed(1)} s${run.status !== "COMPLETED" && run.possible ? ` (${run.message})` : ""}`,
        )
      }
    }
    await Promise.all(Array.from({ length: options.pool }, worker))
  } finally {
    await rules.close()
    await model.close()
    await server.close()
  }
  const wallMs = performance.now() - started
  // Let closed sockets and exited children settle before counting what is left.
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  globalGc?.()
  const after = countResources()
  runs.sort((left, right) => left.index - right.index)
  return { tasks: options.tasks, seed: options.seed, pool: options.pool, wallMs, runs, before, after }
}

const percentile = (values: ReadonlyArray<number>, p: number): number | undefined =>
  values.length === 0
    ? undefined
    : quantile(
        [...values].sort((left, right) => left - right),
        p / 100,
      )

const handleText = (handles: Readonly<Record<string, number>>) =>
  Object.entries(handles)
    .map(([name, count]) => `${name} ${count}`)
    .join(", ") || "none"

/** The soak's figures as tables. */
export const soakSections = (result: SoakResult): ReadonlyArray<TableSection> => {
  const runs = result.runs
  const possible = runs.filter((run) => run.possible)
  const impossible = runs.filter((run) => !run.possible)
  const completed = (list: ReadonlyArray<SoakRun>) => list.filter((run) => run.status === "COMPLETED").length
  const durations = runs.map((run) => run.durationMs)
  const seconds = (ms: number | undefined) => (ms === undefined ? "–" : `${(ms / 1000).toFixed(1)} s`)
  const faults = [...new Set(runs.map((run) => run.fault))]
  return [
    {
      title: `Soak: ${result.tasks} tasks, pool of ${result.pool}, seed ${result.seed}`,
      headers: ["Figure", "Value"],
      rows: [
        ["Tasks", String(runs.length)],
        [
          "Success rate (COMPLETED where the goal stayed reachable)",
          `${completed(possible)}/${possible.length} (${possible.length === 0 ? "–" : ((100 * completed(possible)) / possible.length).toFixed(1)}%)`,
        ],
        [
          "False successes (COMPLETED where the fault made the goal impossible)",
          `${completed(impossible)}/${impossible.length}`,
        ],
        [
          "Runs that threw instead of returning a result",
          String(runs.filter((run) => run.status === "THREW").length),
        ],
        [
          "Task time p50 / p95",
          `${seconds(percentile(durations, 50))} / ${seconds(percentile(durations, 95))}`,
        ],
        ["Retries (sum over tasks)", String(runs.reduce((sum, run) => sum + run.retries, 0))],
        ["Wall time", seconds(result.wallMs)],
      ],
    },
    {
      title: "Soak: outcomes by fault",
      headers: ["Fault", "Goal reachable", "Tasks", "COMPLETED", "FAILED", "Other", "p50 time"],
      rows: faults.map((fault) => {
        const of = runs.filter((run) => run.fault === fault)
        return [
          fault,
          POSSIBLE[fault] ? "yes" : "no",
          String(of.length),
          String(completed(of)),
          String(of.filter((run) => run.status === "FAILED").length),
          String(of.filter((run) => run.status !== "COMPLETED" && run.status !== "FAILED").length),
          seconds(
            percentile(
              of.map((run) => run.durationMs),
              50,
            ),
          ),
        ]
      }),
    },
    {
      title: "Soak: leaks, before the first task and after every agent closed",
      headers: ["Resource", "Before", "After"],
      rows: [
        [
          "Chromium browser processes",
          String(result.before.browserProcesses),
          String(result.after.browserProcesses),
        ],
        [
          "ChromeDriver processes",
          String(result.before.chromedriverProcesses),
          String(result.after.chromedriverProcesses),
        ],
        [
          "Profile folders (sextant-chromium-<pid>-*)",
          String(result.before.profileDirs),
          String(result.after.profileDirs),
        ],
        [
          "Open file descriptors (/proc/self/fd)",
          String(result.before.openFds),
          String(result.after.openFds),
        ],
        [
          "Active handles (getActiveResourcesInfo)",
          handleText(result.before.activeHandles),
          handleText(result.after.activeHandles),
        ],
        ["Node heap used", `${result.before.heapUsedMb} MB`, `${result.after.heapUsedMb} MB`],
        ["Node RSS", `${result.before.rssMb} MB`, `${result.after.rssMb} MB`],
      ],
    },
  ]
}
