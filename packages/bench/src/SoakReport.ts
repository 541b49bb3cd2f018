import type { TableSection } from "./Report.ts"
import { quantile } from "./Stats.ts"

/** The faults a soak task may carry. */
export type SoakFault =
  | "none"
  | "http-500-once"
  | "http-500-always"
  | "http-429-once"
  | "slow-page"
  | "page-never-loads"
  | "alert"
  | "kill-chromedriver"
  | "kill-chromium"
  | "crash-tab"
  | "model-ok"
  | "model-bad-output"

/** What a fault does to a task, and whether the site can still meet the task's goal. */
export interface SoakFaultInfo {
  /** What the soak does to the task. */
  readonly injected: string
  /**
   * True when the site can still meet the goal, so COMPLETED is right and anything else is a miss.
   * Only a goal the site itself cannot meet is unreachable: a killed driver or browser or a crashed
   * tab is the agent's own failure, which it must recover from.
   */
  readonly reachable: boolean
  /** True for faults that kill a process of the task mid-run: the run must recover from them. */
  readonly crash: boolean
}

/** Every fault, in the order the tables list them. */
export const SOAK_FAULTS: Readonly<Record<SoakFault, SoakFaultInfo>> = {
  none: { injected: "nothing", reachable: true, crash: false },
  "http-500-once": {
    injected: "the start page answers 500 once, then 200 (/faults/status?fail=1)",
    reachable: true,
    crash: false,
  },
  "http-429-once": {
    injected: "the start page answers 429 with Retry-After: 1 once, then 200",
    reachable: true,
    crash: false,
  },
  "slow-page": { injected: "the start page answers after 1.5 s", reachable: true, crash: false },
  "page-never-loads": {
    injected:
      "the start page sends its headers and every product card, then holds the connection open: it never finishes loading (/faults/unfinished)",
    reachable: true,
    crash: false,
  },
  alert: { injected: "the start page opens an alert() while it loads", reachable: true, crash: false },
  "kill-chromedriver": {
    injected: "the task's ChromeDriver is killed (SIGKILL) after its first step",
    reachable: true,
    crash: true,
  },
  "kill-chromium": {
    injected: "the task's Chromium browser process is killed (SIGKILL) after its first step",
    reachable: true,
    crash: true,
  },
  "crash-tab": {
    injected:
      "the renderer processes of the task's Chromium (--type=renderer) are killed (SIGKILL) after its first step, as the kernel's out-of-memory killer ends a renderer",
    reachable: true,
    crash: true,
  },
  "model-ok": {
    injected: "the plan comes from the scripted model server, valid",
    reachable: true,
    crash: false,
  },
  "http-500-always": {
    injected: "the start page answers 500 on every request",
    reachable: false,
    crash: false,
  },
  "model-bad-output": {
    injected: "the scripted model server answers malformed output on every call",
    reachable: false,
    crash: false,
  },
}

/** True when the site can still meet the goal of a task with this fault (see {@link SoakFaultInfo}). */
export const isReachable = (fault: SoakFault): boolean => SOAK_FAULTS[fault].reachable

/** How often each fault is drawn (out of the sum). */
export const SOAK_WEIGHTS: ReadonlyArray<readonly [SoakFault, number]> = [
  ["none", 4],
  ["http-500-once", 1],
  ["http-500-always", 1],
  ["http-429-once", 1],
  ["slow-page", 1],
  ["page-never-loads", 1],
  ["alert", 1],
  ["kill-chromedriver", 1],
  ["kill-chromium", 1],
  ["crash-tab", 1],
  ["model-ok", 1],
  ["model-bad-output", 1],
]

/** One soak task: its first run and every resume after a crash, summed. */
export interface SoakRun {
  readonly index: number
  readonly fault: SoakFault
  readonly reachable: boolean
  /** How the task ended: the status of its last run or resume, or THREW. */
  readonly status: string
  /** How the first run ended, before any resume. */
  readonly firstStatus: string
  /** First run plus every resume. */
  readonly durationMs: number
  /** Retries summed over the first run and every resume. */
  readonly retries: number
  /** For a crash fault: whether a process of the task was really killed (false when none was found). */
  readonly killed: boolean
  /** `agent.resume` calls after runs that ended FAILED because the driver or browser died. */
  readonly resumes: number
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
  /** The most `agent.resume` calls a task gets after crashes. */
  readonly maxResumes: number
  /** What the tasks ran against, e.g. "fixture site (seed 0) on 127.0.0.1". */
  readonly material: string
  readonly wallMs: number
  readonly runs: ReadonlyArray<SoakRun>
  readonly before: SoakResources
  readonly after: SoakResources
}

/**
 * True when a run ended FAILED because its driver or browser died (its last failed observation says
 * `DriverCrashed`): `agent.resume(runId)` may continue it on a new browser.
 */
export const endedByCrash = (result: {
  readonly status: string
  readonly observations: ReadonlyArray<{ readonly ok: boolean; readonly error?: { readonly reason: string } }>
}): boolean =>
  result.status === "FAILED" &&
  result.observations.findLast((observation) => !observation.ok)?.error?.reason === "DriverCrashed"

const percentile = (values: ReadonlyArray<number>, p: number): number | undefined =>
  values.length === 0
    ? undefined
    : quantile(
        [...values].sort((left, right) => left - right),
        p / 100,
      )

const seconds = (ms: number | undefined) => (ms === undefined ? "–" : `${(ms / 1000).toFixed(1)} s`)

const handleText = (handles: Readonly<Record<string, number>>) =>
  Object.entries(handles)
    .map(([name, count]) => `${name} ${count}`)
    .join(", ") || "none"

const share = (part: number, whole: number) =>
  `${part}/${whole} (${whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`})`

/** The soak's figures as tables. */
export const soakSections = (result: SoakResult): ReadonlyArray<TableSection> => {
  const runs = result.runs
  const reachable = runs.filter((run) => run.reachable)
  const unreachable = runs.filter((run) => !run.reachable)
  const completed = (list: ReadonlyArray<SoakRun>) => list.filter((run) => run.status === "COMPLETED").length
  const crashes = runs.filter((run) => SOAK_FAULTS[run.fault].crash)
  const landed = crashes.filter((run) => run.killed)
  const recovered = landed.filter((run) => run.status === "COMPLETED")
  const faults = (Object.keys(SOAK_FAULTS) as Array<SoakFault>).filter((fault) =>
    runs.some((run) => run.fault === fault),
  )
  const durations = runs.map((run) => run.durationMs)
  return [
    {
      title: `Soak: ${result.tasks} tasks, pool of ${result.pool}, seed ${result.seed}`,
      headers: ["Figure", "Value"],
      rows: [
        ["Material", result.material],
        ["Tasks", String(runs.length)],
        [
          "Faults injected (tasks each)",
          faults.map((fault) => `${fault} ${runs.filter((run) => run.fault === fault).length}`).join(", "),
        ],
        [
          "Reachable goals COMPLETED (killed ChromeDriver, killed Chromium and crashed tab included)",
          share(completed(reachable), reachable.length),
        ],
        [
          `Recovered after a kill or a crashed tab (COMPLETED of the tasks whose kill landed; up to ${result.maxResumes} agent.resume calls)`,
          `${share(recovered.length, landed.length)}: ${recovered.filter((run) => run.resumes > 0).length} by agent.resume on a new browser, ${recovered.filter((run) => run.resumes === 0).length} within the run`,
        ],
        [
          "Kill or crash tasks where no process was killed (the task ended first)",
          String(crashes.length - landed.length),
        ],
        [
          "False successes (COMPLETED where the site cannot meet the goal)",
          `${completed(unreachable)}/${unreachable.length}`,
        ],
        [
          "Runs that threw instead of returning a result",
          String(runs.filter((run) => run.status === "THREW").length),
        ],
        [
          "Task time p50 / p95 (first run plus resumes)",
          `${seconds(percentile(durations, 50))} / ${seconds(percentile(durations, 95))}`,
        ],
        ["Retries (sum over runs and resumes)", String(runs.reduce((sum, run) => sum + run.retries, 0))],
        ["Resumes (sum over tasks)", String(runs.reduce((sum, run) => sum + run.resumes, 0))],
        ["Wall time", seconds(result.wallMs)],
      ],
    },
    {
      title: "Soak: the faults",
      headers: ["Fault", "What is done to the task", "Goal reachable"],
      rows: faults.map((fault) => [
        fault,
        SOAK_FAULTS[fault].injected,
        SOAK_FAULTS[fault].reachable ? "yes" : "no",
      ]),
    },
    {
      title: "Soak: outcomes by fault",
      headers: [
        "Fault",
        "Goal reachable",
        "Tasks",
        "Kill landed",
        "COMPLETED",
        "FAILED",
        "Other",
        "Resumed",
        "p50 time",
        "p95 time",
      ],
      rows: faults.map((fault) => {
        const of = runs.filter((run) => run.fault === fault)
        const times = of.map((run) => run.durationMs)
        return [
          fault,
          SOAK_FAULTS[fault].reachable ? "yes" : "no",
          String(of.length),
          SOAK_FAULTS[fault].crash ? String(of.filter((run) => run.killed).length) : "—",
          String(completed(of)),
          String(of.filter((run) => run.status === "FAILED").length),
          String(of.filter((run) => run.status !== "COMPLETED" && run.status !== "FAILED").length),
          String(of.filter((run) => run.resumes > 0).length),
          seconds(percentile(times, 50)),
          seconds(percentile(times, 95)),
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
