import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Store } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { SqliteStore } from "@sextant/memory"
import { Planner } from "@sextant/planner"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resume } from "../src/index.ts"
import { browserProcesses, isAlive, profileDirectories } from "./support/Processes.ts"
import { noReplanner } from "./support/ResumePlan.ts"
import { signIn, testTools } from "./support/TestTools.ts"

const CHILD = join(import.meta.dirname, "support", "submit-child.ts")

let site: FixtureSite
let directory: string

beforeAll(async () => {
  // The site logs the sign-in as it arrives and answers it 4 s later: the kill lands in between.
  site = await startFixtureSite({ port: 0, submissionDelayMs: 4_000 })
  directory = mkdtempSync(join(tmpdir(), "sextant-resume-submit-"))
})

afterAll(async () => {
  await site.close()
  rmSync(directory, { recursive: true, force: true })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("resume after a SIGKILL while a submission was in flight", () => {
  it("does not submit again: the run ends FAILED (needs-review) naming the step, and the site saw one sign-in", async () => {
    const databasePath = join(directory, "store.db")
    const runId = "killed-while-submitting"
    const child = spawn(
      process.execPath,
      ["--conditions=sextant-source", CHILD, site.url, databasePath, runId],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    )
    let childOutput = ""
    child.stdout.on("data", (chunk) => (childOutput += String(chunk)))
    child.stderr.on("data", (chunk) => (childOutput += String(chunk)))
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    const signIns = () => site.submissions().filter((entry) => entry.path === "/login")

    const deadline = Date.now() + 60_000
    while (signIns().length === 0 && Date.now() < deadline) await sleep(25)
    expect(signIns(), childOutput).toHaveLength(1)
    const orphans = browserProcesses(child.pid ?? -1)
    const profiles = profileDirectories(orphans.map((orphan) => orphan.pid))
    child.kill("SIGKILL")
    await exited
    // SIGKILL gives the child no chance to end its browser: end the processes it started, by id.
    for (const orphan of orphans) if (isAlive(orphan.pid)) process.kill(orphan.pid, "SIGKILL")
    for (const profile of profiles) rmSync(profile, { recursive: true, force: true })
    expect(childOutput).not.toContain("finished")

    const runtime = ManagedRuntime.make(
      Layer.mergeAll(
        WebdriverioDriver.layer({}),
        SqliteStore.layer({ path: databasePath }),
        Layer.succeed(Planner, noReplanner),
      ),
    )
    try {
      const stepsBefore = await runtime.runPromise(Store.use((service) => service.listSteps(runId)))
      expect(stepsBefore.find((step) => step.index === 1)?.state).toBe("running")
      // The killed process holds the run's lease until it lapses.
      await sleep(1_100)
      const result = await runtime.runPromise(resume(runId, { tools: [...testTools, signIn] }))
      // Any second sign-in would be logged at once; the delay only holds its answer.
      await sleep(500)
      expect(signIns()).toHaveLength(1)
      expect(result.status).toBe("FAILED")
      expect(result.endReason).toBe("needs-review")
      expect(result.summary.unmetParts?.[0]?.part).toBe("step 1 (signIn)")
      expect(result.summary.summary).toMatch(/step 1 \(signIn\) had started .* it is not repeated/)
      // Resuming the reviewed run again answers the same result: nothing is submitted later either.
      const again = await runtime.runPromise(resume(runId, { tools: [...testTools, signIn] }))
      expect(again.endReason).toBe("needs-review")
      expect(signIns()).toHaveLength(1)
    } finally {
      await runtime.dispose()
    }
  }, 120_000)
})
