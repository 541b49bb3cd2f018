import { describe, expect, it } from "vitest"
import {
  endedByCrash,
  isReachable,
  SOAK_FAULTS,
  type SoakFault,
  type SoakResources,
  type SoakRun,
  soakSections,
} from "../src/SoakReport.ts"

const resources: SoakResources = {
  browserProcesses: 0,
  chromedriverProcesses: 0,
  openFds: 20,
  activeHandles: { TCPServerWrap: 1 },
  profileDirs: 0,
  heapUsedMb: 100,
  rssMb: 200,
}

const run = (fault: SoakFault, status: string, extra: Partial<SoakRun> = {}): SoakRun => ({
  index: 0,
  fault,
  reachable: isReachable(fault),
  status,
  firstStatus: status,
  durationMs: 5_000,
  retries: 0,
  killed: SOAK_FAULTS[fault].crash,
  resumes: 0,
  message: "",
  ...extra,
})

const figures = (runs: ReadonlyArray<SoakRun>) => {
  const [summary] = soakSections({
    tasks: runs.length,
    seed: 0,
    pool: 4,
    maxResumes: 2,
    material: "fixture site (seed 0) on 127.0.0.1",
    wallMs: 60_000,
    runs: runs.map((each, index) => ({ ...each, index })),
    before: resources,
    after: resources,
  })
  return (start: string): string => {
    const row = summary?.rows.find((cells) => cells[0]?.startsWith(start))
    if (row === undefined) throw new Error(`no row starting "${start}" in ${JSON.stringify(summary?.rows)}`)
    return row[1] ?? ""
  }
}

describe("soak accounting", () => {
  it("counts a killed ChromeDriver, a killed Chromium and a crashed tab as reachable goals", () => {
    for (const fault of ["kill-chromedriver", "kill-chromium", "crash-tab"] as const) {
      expect(isReachable(fault), fault).toBe(true)
      expect(SOAK_FAULTS[fault].crash, fault).toBe(true)
    }
    // Only goals the site itself cannot meet are unreachable.
    const unreachable = (Object.keys(SOAK_FAULTS) as Array<SoakFault>).filter((fault) => !isReachable(fault))
    expect(unreachable.sort()).toEqual(["http-500-always", "model-bad-output"])
  })

  it("puts a kill task that ended FAILED against the success rate, never among the correct failures", () => {
    const figure = figures([
      run("none", "COMPLETED"),
      run("kill-chromium", "FAILED"),
      run("crash-tab", "FAILED"),
      run("kill-chromedriver", "COMPLETED", { firstStatus: "FAILED", resumes: 1 }),
      run("http-500-always", "FAILED"),
    ])
    expect(figure("Reachable goals COMPLETED")).toBe("2/4 (50.0%)")
    expect(figure("False successes")).toBe("0/1")
    expect(figure("Recovered after a kill or a crashed tab")).toBe(
      "1/3 (33.3%): 1 by agent.resume on a new browser, 0 within the run",
    )
  })

  it("tells recoveries by resume from recoveries within the run, and leaves kills that never landed out", () => {
    const figure = figures([
      run("kill-chromium", "COMPLETED", { firstStatus: "FAILED", resumes: 1 }),
      run("crash-tab", "COMPLETED"),
      run("kill-chromedriver", "COMPLETED", { killed: false }),
    ])
    expect(figure("Recovered after a kill or a crashed tab")).toBe(
      "2/2 (100.0%): 1 by agent.resume on a new browser, 1 within the run",
    )
    expect(figure("Kill or crash tasks where no process was killed")).toBe("1")
    expect(figure("Reachable goals COMPLETED")).toBe("3/3 (100.0%)")
    expect(figure("Resumes")).toBe("1")
  })

  it("names the material and every fault that ran", () => {
    const figure = figures([run("page-never-loads", "FAILED"), run("crash-tab", "FAILED")])
    expect(figure("Material")).toBe("fixture site (seed 0) on 127.0.0.1")
    expect(figure("Faults injected")).toBe("page-never-loads 1, crash-tab 1")
  })
})

describe("endedByCrash", () => {
  const observation = (ok: boolean, reason?: string) => ({
    ok,
    ...(reason === undefined ? {} : { error: { reason } }),
  })

  it("is true for a FAILED run whose last failed step says DriverCrashed", () => {
    expect(
      endedByCrash({
        status: "FAILED",
        observations: [observation(false, "Timeout"), observation(true), observation(false, "DriverCrashed")],
      }),
    ).toBe(true)
  })

  it("is false when the last failure is something else, or the run did not fail", () => {
    expect(
      endedByCrash({
        status: "FAILED",
        observations: [observation(false, "DriverCrashed"), observation(false, "Timeout")],
      }),
    ).toBe(false)
    expect(endedByCrash({ status: "COMPLETED", observations: [observation(false, "DriverCrashed")] })).toBe(
      false,
    )
  })
})
