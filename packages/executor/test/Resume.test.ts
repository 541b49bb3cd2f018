import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Step, Store } from "@sextant/core"
import {
  FIXTURE_PRODUCTS,
  type FixtureSite,
  PRODUCTS_PER_PAGE,
  startFixtureSite,
} from "@sextant/fixture-site"
import { SqliteStore } from "@sextant/memory"
import { Planner } from "@sextant/planner"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resume } from "../src/index.ts"
import { browserProcesses, isAlive, profileDirectories } from "./support/Processes.ts"
import { noReplanner, resumePlan } from "./support/ResumePlan.ts"
import { testTools } from "./support/TestTools.ts"

const PAGES = 4
const CHILD = join(import.meta.dirname, "support", "resume-child.ts")

let site: FixtureSite
let directory: string

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-resume-"))
})

afterAll(async () => {
  await site.close()
  rmSync(directory, { recursive: true, force: true })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("resume after SIGKILL", () => {
  it("continues a killed run to completion without repeating a step or losing or duplicating a record", async () => {
    const databasePath = join(directory, "store.db")
    const runId = "killed-run"
    const child = spawn(
      process.execPath,
      ["--conditions=sextant-source", CHILD, site.url, databasePath, runId, String(PAGES)],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    )
    let childOutput = ""
    child.stdout.on("data", (chunk) => (childOutput += String(chunk)))
    child.stderr.on("data", (chunk) => (childOutput += String(chunk)))
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    const store = ManagedRuntime.make(SqliteStore.layer({ path: databasePath }))
    const listSteps = () =>
      store.runPromise(Store.use((service) => service.listSteps(runId)).pipe(Effect.orElseSucceed(() => [])))

    // Wait until the first page is done (navigate, extract, wait), then kill the process and its browser.
    let before: ReadonlyArray<Step> = []
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      before = await listSteps()
      if (before.filter((step) => step.state === "succeeded").length >= 3) break
      await sleep(50)
    }
    const orphans = browserProcesses(child.pid ?? -1)
    const profiles = profileDirectories(orphans.map((orphan) => orphan.pid))
    child.kill("SIGKILL")
    await exited
    // SIGKILL gives the child no chance to end its browser: end the processes it started, by id.
    for (const orphan of orphans) if (isAlive(orphan.pid)) process.kill(orphan.pid, "SIGKILL")
    for (const profile of profiles) rmSync(profile, { recursive: true, force: true })
    const done = before.filter((step) => step.state === "succeeded")
    expect(done.length, childOutput).toBeGreaterThanOrEqual(3)
    expect(done.length).toBeLessThan(PAGES * 3)
    expect(childOutput).not.toContain("finished")

    const runtime = ManagedRuntime.make(
      Layer.mergeAll(
        WebdriverioDriver.layer({}),
        SqliteStore.layer({ path: databasePath }),
        Layer.succeed(Planner, noReplanner),
      ),
    )
    try {
      // The killed process holds the run's lease until it lapses (HostileResume covers the refusal).
      await sleep(1_100)
      const result = await runtime.runPromise(resume(runId, { tools: testTools }))
      expect(result.status).toBe("COMPLETED")
      const steps = await runtime.runPromise(Store.use((service) => service.listSteps(runId)))
      expect(steps.map((step) => step.state)).toEqual(
        resumePlan(site.url, PAGES).steps.map(() => "succeeded"),
      )
      // Steps finished before the kill keep their first observation: they were not run again.
      for (const step of done) {
        expect(steps[step.index]?.observation?.at).toBe(step.observation?.at)
      }
      const observations = await runtime.runPromise(Store.use((service) => service.listObservations(runId)))
      const keys = observations
        .filter((observation) => observation.ok)
        .map((observation) => `${observation.tool}@${observation.url}`)
      expect(keys.length).toBe(PAGES * 3)
      expect(new Set(keys).size).toBe(keys.length)
      const records = await runtime.runPromise(Store.use((service) => service.listRecords(runId)))
      const expected = FIXTURE_PRODUCTS.slice(0, PAGES * PRODUCTS_PER_PAGE).map(
        (product) => `key:${product.id}`,
      )
      expect(records.map((record) => record.key).sort()).toEqual([...expected].sort())
    } finally {
      await runtime.dispose()
      await store.dispose()
    }
  }, 120_000)
})
