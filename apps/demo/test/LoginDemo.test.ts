import { describe, expect, it } from "vitest"
import { runLoginDemo } from "../src/LoginDemo.ts"

describe("the login demo", () => {
  it.each([0, 7])("logs in through look and act on seed %i and ends on the dashboard", async (seed) => {
    const lines: Array<string> = []
    const report = await runLoginDemo({ seed, log: (line) => lines.push(line) })
    expect(report.loginOutline).toMatch(/textbox "Email[^"]*"/i)
    expect(report.steps.map((step) => step.call)).toHaveLength(3)
    expect(report.steps[2]!.signals).toContain("NavigationOccurred")
    expect(new URL(report.finalUrl).pathname).toBe("/dashboard")
    expect(report.finalOutline).toContain("Welcome, Alice")
    expect(lines.join("\n")).not.toContain("wonderland")
  })
})
