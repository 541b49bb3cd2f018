import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { decodeAgentTask } from "@sextant/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { planAndRun, type TraceRecord } from "../src/index.ts"
import { EMAIL, hostileTools, leaks, PASSWORD, startRig, taskFor } from "./support/HostileRig.ts"

/**
 * Fields that lose keystrokes, in real headless Chromium, run by the rule planner: a fill the field did
 * not take whole fails, so the run is not COMPLETED; and the failure names lengths, never a password.
 */
const rig = startRig({ attacker: false })

let traces = ""
beforeAll(async () => {
  traces = await mkdtemp(join(tmpdir(), "sextant-lost-keys-"))
})
afterAll(async () => {
  await rm(traces, { recursive: true, force: true })
})

/** Runs `task` with the rule planner; the result, its events and every trace file's text. */
const run = async (task: ReturnType<typeof taskFor>) => {
  const events: Array<TraceRecord> = []
  const traceDirectory = await mkdtemp(join(traces, "run-"))
  const result = await rig.runtime.runPromise(
    planAndRun(task, {
      tools: hostileTools,
      onEvent: (event) => events.push(event),
      screenshots: "never",
      traceDirectory,
    }),
  )
  const files = await readdir(traceDirectory, { recursive: true })
  const written = await Promise.all(
    files.map((file) => readFile(join(traceDirectory, file), "utf8").catch(() => "")),
  )
  return { result, events, written: written.join("\n") }
}

const typeTask = (value: string, startUrl: string) =>
  Effect.runSync(
    decodeAgentTask({
      goal: `type "${value}" into the Code field`,
      startUrl,
      constraints: { maxSteps: 8, stepTimeoutMs: 8_000, maxDurationMs: 30_000 },
    }),
  )

describe("a field that loses a keystroke of what is typed", () => {
  it("completes when it loses one only the first time: the fill types again and the field holds the value", async () => {
    const { result } = await run(typeTask("ABCD-1234-WXYZ", `${rig.site.url}/typing/field?drop=once`))
    expect(result.status).toBe("COMPLETED")
  }, 60_000)

  it("is not COMPLETED when the field loses one every time, and says what the field holds", async () => {
    const { result, written } = await run(
      typeTask("ABCD-1234-WXYZ", `${rig.site.url}/typing/field?drop=always`),
    )
    expect(result.status).not.toBe("COMPLETED")
    expect(written).toContain("holds 13 of 14 characters")
  }, 60_000)

  it("fails a sign-in whose password field loses a key, with lengths only: the password is in no error, result or trace", async () => {
    const { result, events, written } = await run(
      taskFor(`log in as ${EMAIL} with password ${PASSWORD}`, `${rig.site.url}/typing/login?drop=always`),
    )
    expect(result.status).not.toBe("COMPLETED")
    const errors = result.observations.flatMap((observation) =>
      observation.error === undefined ? [] : [JSON.stringify(observation.error), observation.message ?? ""],
    )
    expect(errors.join("\n")).toContain("holds 13 of 14 characters")
    expect(leaks(errors.join("\n"))).toBe(false)
    expect(leaks(JSON.stringify(result))).toBe(false)
    expect(leaks(JSON.stringify(events))).toBe(false)
    expect(written).toContain("holds 13 of 14 characters")
    expect(leaks(written)).toBe(false)
  }, 60_000)
})
