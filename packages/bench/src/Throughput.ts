import { readdirSync, readFileSync } from "node:fs"

/**
 * The helpers of the scale section's throughput rows: per-task times from a worker's log, tasks per
 * minute, and the memory of the Chromium processes below a set of processes, read from /proc.
 */

/** One task's span, in ms on one clock (`performance.now()` of the bench). */
export interface TaskSpan {
  readonly start: number
  readonly end: number
}

/** Tasks per minute: `tasks` finished in `wallMs` from the first enqueue (or start) to the last end. */
export const tasksPerMinute = (tasks: number, wallMs: number): number =>
  wallMs <= 0 ? 0 : (tasks * 60_000) / wallMs

/**
 * Reads the lines a `sextant worker` writes (`run <id>: taken …`, `run <id>: COMPLETED`) as they
 * arrive, stamping each with `now()`: the span of every run from taken to its end, and its status.
 */
export class WorkerLogSpans {
  readonly #taken = new Map<string, number>()
  readonly #ended = new Map<string, { readonly end: number; readonly status: string }>()
  readonly #now: () => number
  #partial = ""
  constructor(now: () => number = () => performance.now()) {
    this.#now = now
  }

  /** Feeds a chunk of the worker's stderr. */
  feed(chunk: string): void {
    const lines = (this.#partial + chunk).split("\n")
    this.#partial = lines.pop() ?? ""
    const at = this.#now()
    for (const line of lines) {
      const match = /^run (\S+): (taken|COMPLETED|FAILED|BLOCKED|CANCELLED|NEEDS_INPUT)\b/.exec(line.trim())
      if (match === null) continue
      const [, runId, word] = match as unknown as [string, string, string]
      if (word === "taken") this.#taken.set(runId, at)
      else this.#ended.set(runId, { end: at, status: word })
    }
  }

  /** The runs that ended, with their status and span (taken → end). */
  ended(): ReadonlyArray<{ readonly runId: string; readonly status: string; readonly span?: TaskSpan }> {
    return [...this.#ended].map(([runId, { end, status }]) => {
      const start = this.#taken.get(runId)
      return start === undefined ? { runId, status } : { runId, status, span: { start, end } }
    })
  }
}

/** A process's parent id, from /proc/<pid>/stat (undefined when it is gone). */
const parentOf = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}

/** Every live process below the given roots, from /proc. */
export const descendantsOf = (roots: ReadonlyArray<number>): ReadonlyArray<number> => {
  const parents = new Map<number, number>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const parent = parentOf(Number(entry))
    if (parent !== undefined) parents.set(Number(entry), parent)
  }
  const tree = new Set(roots)
  let grew = true
  while (grew) {
    grew = false
    for (const [child, parent] of parents)
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child)
        grew = true
      }
  }
  for (const root of roots) tree.delete(root)
  return [...tree]
}

const readOr = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return undefined
  }
}

/** The memory of the Chromium processes below some roots at one moment. */
export interface BrowserMemory {
  /** Chromium browser processes (a Chromium whose parent is not a Chromium): one per session, counting ones still shutting down. */
  readonly browsers: number
  /** Proportional set size of every Chromium process, summed, in kB (shared pages split among sharers). */
  readonly pssKb: number
  /** The largest PSS of one browser with its own helper processes (renderers, GPU, utility), in kB. */
  readonly largestBrowserKb: number
}

/** An exited process its parent has not reaped yet (state Z): it holds no memory and is no session. */
const isZombie = (pid: number): boolean => {
  const stat = readOr(`/proc/${pid}/stat`) ?? ""
  return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")
}

const isChromium = (pid: number): boolean => {
  const command = readOr(`/proc/${pid}/comm`)?.trim() ?? ""
  // ChromeDriver is "chromedriver"; the browser and its helpers are "chromium", "chrome" or "headless_shell".
  return /^(chromium|chrome|headless_shell)/.test(command) && !command.startsWith("chromedriver")
}

/** Reads the Chromium processes below `roots` now: how many browsers, their summed PSS, the largest one. */
export const browserMemory = (roots: ReadonlyArray<number>): BrowserMemory => {
  // A browser that has exited but is not reaped yet still heads its helpers until they end too: they
  // belong to it (and to no browser of their own), and it counts as no session.
  const chromium = descendantsOf(roots).filter(isChromium)
  const ended = new Set(chromium.filter(isZombie))
  const parents = new Map(chromium.map((pid) => [pid, parentOf(pid)]))
  // Each Chromium process belongs to the browser above it: walk up while the parent is a Chromium.
  const browserOf = (pid: number): number => {
    let current = pid
    for (
      let parent = parents.get(current);
      parent !== undefined && parents.has(parent);
      parent = parents.get(current)
    )
      current = parent
    return current
  }
  const perBrowser = new Map<number, number>()
  let pssKb = 0
  for (const pid of chromium) {
    if (ended.has(pid)) continue
    const pss = /^Pss:\s+(\d+) kB/m.exec(readOr(`/proc/${pid}/smaps_rollup`) ?? "")
    const kb = pss === null ? 0 : Number(pss[1])
    pssKb += kb
    const browser = browserOf(pid)
    if (ended.has(browser)) continue
    perBrowser.set(browser, (perBrowser.get(browser) ?? 0) + kb)
  }
  return { browsers: perBrowser.size, pssKb, largestBrowserKb: Math.max(0, ...perBrowser.values()) }
}

/**
 * Samples {@link browserMemory} of `roots()` every `intervalMs` until stopped; `stop()` answers the
 * peak PSS of one browser session with its helpers (kB) over the samples, and the peak browser count.
 */
export const sampleBrowserMemory = (
  roots: () => ReadonlyArray<number>,
  intervalMs = 250,
): {
  /** Takes one sample now (besides the timer's). */
  readonly sample: () => void
  readonly stop: () => { readonly peakKbPerSession: number; readonly peakBrowsers: number }
} => {
  let peakKbPerSession = 0
  let peakBrowsers = 0
  const sample = () => {
    const memory = browserMemory(roots())
    if (memory.browsers === 0) return
    peakBrowsers = Math.max(peakBrowsers, memory.browsers)
    peakKbPerSession = Math.max(peakKbPerSession, memory.largestBrowserKb)
  }
  const timer = setInterval(sample, intervalMs)
  return {
    sample,
    stop: () => {
      clearInterval(timer)
      return { peakKbPerSession, peakBrowsers }
    },
  }
}
