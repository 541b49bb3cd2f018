import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const repository = resolve(import.meta.dirname, "..", "..")
const scratch = mkdtempSync(join(tmpdir(), "sextant-summary-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Runs vitest (one retry, as the browser projects do) on the given test files with the plain summary reporter. */
const runWithSummary = (files: Record<string, string>): { stdout: string; status: number | null } => {
  const root = mkdtempSync(join(scratch, "run-"))
  writeFileSync(
    join(root, "vitest.config.ts"),
    `import { PlainSummaryReporter } from ${JSON.stringify(join(repository, "vitest.summary.ts"))}
export default { test: { include: ["*.check.ts"], globals: true, retry: 1, reporters: [new PlainSummaryReporter()] } }
`,
  )
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text)
  const run = spawnSync(
    process.execPath,
    [join(repository, "node_modules/vitest/vitest.mjs"), "run", "--root", root],
    {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    },
  )
  return { stdout: run.stdout, status: run.status }
}

describe("the test run's plain summary (vitest.summary.ts)", () => {
  it("names every failed test and every test that passed only when retried, with its error's first line, before the counts", () => {
    const { stdout, status } = runWithSummary({
      "widgets.check.ts": `
test("opens the menu", () => {})
test("shows the delayed element", () => { throw new Error("expected the delayed element to show\\nsecond line") })
let tries = 0
test("settles the page", () => { tries++; if (tries === 1) throw new Error("settle took too long") })
`,
    })
    expect(status).toBe(1)
    const summary = stdout.slice(stdout.indexOf("\nfailed:"))
    expect(summary).toContain(
      "failed:\n  widgets.check.ts > shows the delayed element: expected the delayed element to show\n",
    )
    expect(summary).not.toContain("second line")
    expect(summary).toContain(
      "passed only when retried:\n  widgets.check.ts > settles the page: settle took too long\n",
    )
    expect(summary.trimEnd().split("\n").at(-1)).toBe("2 passed (1 only when retried), 1 failed, 0 skipped")
  }, 60_000)

  it("names a file that failed before any test ran, with its error", () => {
    const { stdout, status } = runWithSummary({
      "broken.check.ts": `throw new Error("the fixture site did not start")\n`,
    })
    expect(status).toBe(1)
    expect(stdout).toContain("failed:\n  broken.check.ts: the fixture site did not start\n")
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("0 passed, 1 failed, 0 skipped")
  }, 60_000)
})
