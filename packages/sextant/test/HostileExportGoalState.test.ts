import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { runNode } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAgent } from "../src/index.ts"
import { exportCommand, testCommand } from "../src/internal/ExplorerCommands.ts"
import { sink } from "./support/Sink.ts"

/**
 * A run whose goal was to set a box and a field, COMPLETED after checking both on the page, exported
 * as a test, then run against the same site with a regression that loses what was set a moment later
 * (the fixture's `contact-choices-reset` drift: the box unchecks itself). A test named after the goal
 * must fail there, since the box is not checked and the goal not met; replaying the click and the
 * typing and asserting the URL passed.
 */

// Inside the package, so the exported script's `webdriverio` import resolves as in a user's project.
const directory = mkdtempSync(join(import.meta.dirname, "..", ".exported-"))
const traces = join(directory, "traces")
const store = join(directory, "sextant.db")
let site: FixtureSite
let broken: FixtureSite

beforeAll(async () => {
  site = await startFixtureSite()
  broken = await startFixtureSite({ drift: ["contact-choices-reset"] })
})
afterAll(async () => {
  await site?.close()
  await broken?.close()
  rmSync(directory, { recursive: true, force: true })
})

const GOAL = "check Subscribe to the newsletter and type Ada into Name"

describe("an exported test of a run that set a box and a field", () => {
  it("asserts the box checked and the field holding the value at the end, so it fails where the page loses the choice", async () => {
    const agent = createAgent({ store: { path: store }, traceDirectory: traces })
    try {
      const result = await agent.run(
        { goal: GOAL, startUrl: `${site.url}/forms/contact` },
        { runId: "export-choices" },
      )
      expect(result.status).toBe("COMPLETED")
    } finally {
      await agent.close()
    }

    const spec = join(directory, "choices.yaml")
    const script = join(directory, "choices.wdio.ts")
    for (const [to, out] of [
      ["spec", spec],
      ["wdio", script],
    ] as const) {
      const err = sink()
      const code = await exportCommand(
        { source: "export-choices", to, traceDir: traces, store, out },
        sink().stream,
        err.stream,
      )
      expect(err.text()).toBe("")
      expect(code).toBe(0)
    }
    // Sextant's runner: the test passes where the goal holds, and fails where the page loses it.
    const test = async (baseUrl: string) => {
      const out = sink()
      const code = await testCommand({ specs: [spec], baseUrl }, out.stream, sink().stream)
      return { code, out: out.text() }
    }
    const passing = await test(site.url)
    expect(passing.out).toContain(`✓ ${GOAL}`)
    expect(passing.code).toBe(0)
    const failing = await test(broken.url)
    expect(failing.out).toContain(
      'expected checkbox "Subscribe to the newsletter" to be checked, but it is unchecked',
    )
    expect(failing.code).toBe(1)

    // The plain WebdriverIO script, likewise.
    const [replay, regression] = await Promise.all([
      runNode([script], { BASE_URL: site.url }),
      runNode([script], { BASE_URL: broken.url }),
    ])
    expect(replay.output).toContain(`ok ${GOAL}`)
    expect(replay.code).toBe(0)
    expect(regression.output).toContain(
      `FAILED ${GOAL}: expected checkbox "Subscribe to the newsletter" is checked`,
    )
    expect(regression.code).toBe(1)
    // Each part the run verified on the page is asserted on the element the run set.
    const written = readFileSync(spec, "utf8")
    expect(written).toMatch(
      /type: FieldHolds\n\s+target:\n\s+role: checkbox\n\s+name: Subscribe to the newsletter\n\s+selector: "#subscribe"\n\s+fieldType: checkbox\n\s+value: "true"/,
    )
    expect(written).toMatch(
      /type: FieldHolds\n\s+target:\n\s+role: textbox\n\s+name: Name\n\s+selector: "#name"\n\s+fieldType: text\n\s+value: Ada/,
    )
  }, 240_000)

  it("says which verified part the test does not assert: the records a run extracted", async () => {
    const agent = createAgent({ store: { path: store }, traceDirectory: traces })
    try {
      const result = await agent.run(
        { goal: "extract the products", startUrl: `${site.url}/products` },
        { runId: "export-records" },
      )
      expect(result.status).toBe("COMPLETED")
    } finally {
      await agent.close()
    }
    const err = sink()
    const code = await exportCommand(
      { source: "export-records", to: "spec", traceDir: traces, store },
      sink().stream,
      err.stream,
    )
    expect(code).toBe(0)
    expect(err.text()).toContain(
      'sextant export: the run verified "extract products" on the page, but the script does not assert it (a test spec has no check of the records a run extracted)',
    )
  }, 120_000)
})
