import { execFileSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { Reply, startOpenAiServer } from "@sextant/testing"
import { type Agent, createAgent, type TraceRecord } from "sextant-agent"
import {
  endedByCrash,
  isReachable,
  SOAK_FAULTS,
  SOAK_WEIGHTS,
  type SoakFault,
  type SoakResources,
  type SoakResult,
  type SoakRun,
} from "./SoakReport.ts"

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
  const total = SOAK_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0)
  let point = random() * total
  for (const [fault, weight] of SOAK_WEIGHTS) {
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

/** The descendants of `root` (default: this process) in a process table. */
const descendants = (
  root: number = process.pid,
  rows: ReadonlyArray<Row> = processTable(),
): ReadonlyArray<Row> => {
  const found: Array<Row> = []
  const queue = [root]
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
const isRenderer = (row: Row) => row.args.includes("--type=renderer")

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

/** How much of a failed run's summary a soak run keeps (enough to name the error that ended it). */
const MESSAGE_CHARACTERS = 300

/** How long a resume may hold the launch lock while its new browser comes up. */
const RESUME_LAUNCH_WAIT_MS = 30_000

/** Options of {@link measureSoak}. */
export interface SoakOptions {
  /** How many tasks to run. */
  readonly tasks: number
  /** The seed of the fault draw. */
  readonly seed: number
  /** Tasks at a time, each in its own browser. */
  readonly pool: number
  /**
   * The most `agent.resume` calls a task gets after runs that ended FAILED because the driver or
   * browser died — what a supervisor does with such a run.
   */
  readonly maxResumes: number
  /** What the tasks run against, for the tables (e.g. "fixture site (seed 0) on 127.0.0.1"). */
  readonly material: string
}

/**
 * Runs `tasks` tasks over the fixture site, `pool` at a time, each in its own browser through
 * `createAgent`, with seeded faults: 500 and 429 answers, slow pages, a page that never finishes
 * loading, alert dialogs, ChromeDriver, Chromium or the tab's renderer killed mid-task, and bad model
 * output from the scripted OpenAI-compatible server. A run that ends FAILED because its driver or
 * browser died is resumed with `agent.resume` (at most `maxResumes` times), whatever its fault, as a
 * supervisor would. Counts leftover processes, file descriptors, handles and profile folders once
 * every agent is closed.
 */
export const measureSoak = async (
  base: string,
  options: SoakOptions,
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

  // A resume launches a browser too: it holds the lock until that browser is up, so a kill task's
  // "processes new since my launch" never takes in another task's new browser.
  const resumeLocked = async (agent: Agent, runId: string) => {
    const release = await lock.acquire()
    const seen = new Set(descendants().map((row) => row.pid))
    let settled = false
    const resumed = agent.resume(runId).finally(() => {
      settled = true
    })
    // Handled by the caller once the browser is up; until then a rejection must not count as unhandled.
    resumed.catch(() => {})
    const deadline = performance.now() + RESUME_LAUNCH_WAIT_MS
    try {
      while (
        !settled &&
        performance.now() < deadline &&
        !descendants().some((row) => isBrowser(row) && !seen.has(row.pid))
      ) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    } finally {
      release()
    }
    return resumed
  }

  try {
    let next = 0
    const runOne = async (index: number): Promise<SoakRun> => {
      const fault = faults[index] as SoakFault
      const crash = SOAK_FAULTS[fault].crash
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
          case "page-never-loads":
            return `${base}/faults/unfinished?page=${page}`
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
      let killed = false
      let release: (() => void) | undefined
      let known = new Set<number>()
      // Every task launches its browser under the lock, so the processes new by its first event are
      // its own (a kill must never hit another task's browser).
      release = await lock.acquire()
      if (crash) known = new Set(descendants().map((row) => row.pid))
      const onEvent = (event: TraceRecord) => {
        if (!crash) {
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
          const rows = processTable()
          const alive = descendants(process.pid, rows).filter((row) => known.has(row.pid))
          // A tab's renderer is started after launch (it is not among `known`): it is found under the
          // task's own browser process, through Chromium's zygote.
          const victims =
            fault === "kill-chromedriver"
              ? alive.filter(isChromedriver)
              : fault === "kill-chromium"
                ? alive.filter(isBrowser)
                : alive
                    .filter(isBrowser)
                    .flatMap((browser) => descendants(browser.pid, rows).filter(isRenderer))
          for (const victim of victims) {
            try {
              process.kill(victim.pid, "SIGKILL")
              killed = true
            } catch {}
          }
        }
      }
      const taskStarted = performance.now()
      let firstStatus = "THREW"
      let retries = 0
      let resumes = 0
      try {
        let result = await agent.run(
          { goal, startUrl: url, constraints: { maxDurationMs: 90_000 } },
          { onEvent, runId: key },
        )
        firstStatus = result.status
        retries += result.metrics.retries
        while (endedByCrash(result) && resumes < options.maxResumes) {
          resumes++
          result = await resumeLocked(agent, key)
          retries += result.metrics.retries
        }
        return {
          index,
          fault,
          reachable: isReachable(fault),
          status: result.status,
          firstStatus,
          durationMs: performance.now() - taskStarted,
          retries,
          killed,
          resumes,
          message: result.status === "COMPLETED" ? "" : result.summary.summary.slice(0, MESSAGE_CHARACTERS),
        }
      } catch (error) {
        return {
          index,
          fault,
          reachable: isReachable(fault),
          status: "THREW",
          firstStatus,
          durationMs: performance.now() - taskStarted,
          retries,
          killed,
          resumes,
          message: String(error instanceof Error ? error.message : error).slice(0, MESSAGE_CHARACTERS),
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
        const resumed = run.resumes === 0 ? "" : ` after ${run.firstStatus} and ${run.resumes} resume(s)`
        progress(
          `soak ${runs.length}/${faults.length}: #${index} ${run.fault}${SOAK_FAULTS[run.fault].crash && !run.killed ? " (nothing killed)" : ""} → ${run.status}${resumed} in ${(run.durationMs / 1000).toFixed(1)} s${run.status !== "COMPLETED" && run.reachable ? ` (${run.message})` : ""}`,
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
  return {
    tasks: options.tasks,
    seed: options.seed,
    pool: options.pool,
    maxResumes: options.maxResumes,
    material: options.material,
    wallMs,
    runs,
    before,
    after,
  }
}
