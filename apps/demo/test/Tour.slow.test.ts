import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FIXTURE_PRODUCTS, FIXTURE_USERS } from "@sextant/fixture-site"
import { afterAll, describe, expect, it } from "vitest"
import { runTour, summaryTable } from "../src/index.ts"

const directory = mkdtempSync(join(tmpdir(), "sextant-tour-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe("the demo tour", () => {
  it("runs every task to its verified outcome, saves the 60 products, replays with no action decided by the policy and writes the reports", async () => {
    const lines: Array<string> = []
    const tour = await runTour({ seed: 0, outputDirectory: directory, log: (line) => lines.push(line) })
    expect(tour.rows.map((row) => [row.task, row.outcome])).toEqual([
      ["log in", "COMPLETED"],
      ["search and extract", "COMPLETED"],
      ["paginate and save", "COMPLETED"],
      ["contact form", "COMPLETED"],
      ["cannot succeed", "FAILED"],
      ["SQL, no browser", "COMPLETED"],
      ["step-wise, cold", "COMPLETED"],
      ["replayed from cache", "COMPLETED"],
      ["explore + tests", "COMPLETED"],
      ["run → wdio script", "COMPLETED"],
    ])
    expect(tour.rows.find((row) => row.task === "cannot succeed")?.note).toContain(
      "Invalid email or password",
    )
    // The failed task's lines say what was seen, lead with the first cause, and count the steps as the table does.
    const failedLines = lines.slice(lines.findIndex((line) => line.startsWith("▶ cannot succeed")))
    const outcome = failedLines.find((line) => line.startsWith("  → FAILED: ")) ?? ""
    expect(outcome).toMatch(/^ {2}→ FAILED: Failed at step 1 \(login\) on .*"Invalid email or password"/)
    const steps = tour.rows.find((row) => row.task === "cannot succeed")?.steps
    expect(outcome).toContain(`after ${steps} steps ran`)
    const unmet = failedLines.find((line) => line.startsWith("  unmet: ")) ?? ""
    expect(unmet).toMatch(
      /^ {2}unmet: log in: saw .*Invalid email or password.* \(expected: the login form is gone/,
    )
    expect(tour.policyCalls.cold).toBeGreaterThan(0)
    expect(tour.policyCalls.replayed).toBe(0)

    const names = FIXTURE_PRODUCTS.map((product) => product.name).sort()
    const json = JSON.parse(readFileSync(tour.jsonPath, "utf8")) as Array<{ name: string }>
    expect(json.map((product) => product.name).sort()).toEqual(names)
    const csv = readFileSync(tour.csvPath, "utf8").trim().split("\n")
    expect(csv[0]).toBe("name,price")
    expect(csv).toHaveLength(61)

    expect(tour.reports).toHaveLength(5)
    for (const report of tour.reports) expect(existsSync(report.path)).toBe(true)
    const failed = readFileSync(tour.reports[4]!.path, "utf8")
    expect(failed).toContain('<span class="status FAILED">FAILED</span>')
    expect(failed).toContain("Invalid email or password")
    expect(failed).not.toContain("not-the-password")
    expect(lines.join("\n")).not.toContain("not-the-password")

    // The explorer's generated tests and the exported log-in run: files a user keeps, with no password.
    const password = FIXTURE_USERS[0]!.password
    const spec = readFileSync(tour.specPath, "utf8")
    expect(spec).toContain('name: Form page /forms/contact shows "Contact us"')
    expect(spec).not.toContain(password)
    expect(tour.rows.find((row) => row.task === "explore + tests")?.note).toMatch(
      /^5 pages, (\d+)\/\1 tests passed$/,
    )
    const script = readFileSync(tour.scriptPath, "utf8")
    expect(script).toContain('import { remote } from "webdriverio"')
    expect(script).toContain('secret("SEXTANT_SECRET_PASSWORD")')
    expect(script).not.toContain(password)
    expect(script).not.toMatch(/@sextant\//)
    expect(tour.rows.find((row) => row.task === "run → wdio script")?.note).toBe(
      `ok log in (ended on ${tour.siteUrl}/dashboard)`,
    )

    const table = summaryTable(tour.rows)
    expect(table.split("\n")[0]).toMatch(/^task\s+verified outcome\s+steps\s+time\s+tokens\s+note$/)
  }, 240_000)
})
