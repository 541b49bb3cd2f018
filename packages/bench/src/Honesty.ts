import { OUTCOME_TASKS, type OutcomeTask } from "@sextant/fixture-site"
import { openTestBrowser } from "@sextant/fixture-site/test-browser"
import { createAgent } from "sextant-agent"
import type { TableSection } from "./Report.ts"
import { median } from "./Stats.ts"

/** One truth-table task's run in one mode. */
export interface HonestyRun {
  readonly goal: string
  readonly mode: "plan" | "agent"
  readonly expected: "COMPLETED" | "FAILED"
  readonly status: string
  readonly unmetParts: number
  readonly durationMs: number
  readonly unreachable: boolean
}

/** The outcome honesty section's data: every run, and the counts of true and false outcomes. */
export interface HonestyResult {
  readonly runs: ReadonlyArray<HonestyRun>
}

/**
 * Runs the outcome truth table (`OUTCOME_TASKS` of the fixture site, unreachable hosts included)
 * through `createAgent` in plan and step-wise mode on one browser, recording each status and how long
 * each run took.
 */
export const measureHonesty = async (
  base: string,
  progress: (line: string) => void,
): Promise<HonestyResult> => {
  const test = await openTestBrowser()
  const agent = createAgent({ browser: { from: test.browser }, store: "memory", traceDirectory: false })
  const runs: Array<HonestyRun> = []
  try {
    for (const mode of ["plan", "agent"] as const) {
      const tasks = OUTCOME_TASKS.filter(
        (task: OutcomeTask) => task.modes === undefined || task.modes.includes(mode),
      )
      for (const task of tasks) {
        await test.browser.deleteCookies()
        await test.browser.url("about:blank")
        const started = performance.now()
        const result = await agent.run(
          {
            goal: task.goal,
            ...(task.start === undefined ? {} : { startUrl: task.start.replace("SITE", base) }),
            inputs: { ...(task.inputs ?? {}) },
            secretInputs: [...(task.secret ?? [])],
            constraints: { allowFormSubmission: task.allowSubmit ?? false, maxDurationMs: 60_000 },
          },
          { mode },
        )
        runs.push({
          goal: task.goal,
          mode,
          expected: task.expected,
          status: result.status,
          unmetParts: result.summary.unmetParts?.length ?? 0,
          durationMs: performance.now() - started,
          unreachable: task.unreachable === true,
        })
      }
      progress(`outcome honesty: ${mode} mode done`)
    }
  } finally {
    await agent.close()
    await test.close()
  }
  return { runs }
}

const count = (runs: ReadonlyArray<HonestyRun>, expected: string, status: string) =>
  String(runs.filter((run) => run.expected === expected && run.status === status).length)

/** The "outcome honesty" table: truth × reported status per mode, and the time to fail an unreachable host. */
export const honestySection = (result: HonestyResult): TableSection => {
  const rows = (["plan", "agent"] as const).map((mode) => {
    const runs = result.runs.filter((run) => run.mode === mode)
    const unreachable = runs.filter((run) => run.unreachable).map((run) => run.durationMs)
    const failedWithoutPart = runs.filter((run) => run.status === "FAILED" && run.unmetParts === 0).length
    return [
      mode,
      String(runs.length),
      count(runs, "COMPLETED", "COMPLETED"),
      count(runs, "COMPLETED", "FAILED"),
      count(runs, "FAILED", "COMPLETED"),
      count(runs, "FAILED", "FAILED"),
      String(failedWithoutPart),
      unreachable.length === 0 ? "—" : String(Math.round(median(unreachable))),
    ]
  })
  return {
    title: "Outcome honesty",
    note: "The fixture site's outcome truth table (`OUTCOME_TASKS`) through `createAgent`, rules only. A false COMPLETED is a task the site cannot satisfy that was reported done; it must be 0.",
    headers: [
      "mode",
      "tasks",
      "achievable → COMPLETED",
      "achievable → FAILED",
      "not achievable → COMPLETED (false)",
      "not achievable → FAILED",
      "FAILED naming no part",
      "median ms to fail, unreachable host",
    ],
    rows,
  }
}
