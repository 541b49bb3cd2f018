import { relative } from "node:path"
import type { Reporter, TestCase, TestModule } from "vitest/node"

/** How many of the slowest test files the summary names. */
const SLOWEST = 8

/** How much of an error's message a summary line keeps. */
const MESSAGE_CHARS = 300

/** The first line of an error's message, cut to MESSAGE_CHARS. */
const firstLine = (message: string | undefined): string => {
  const line = (message ?? "").split("\n").find((text) => text.trim() !== "") ?? "(no message)"
  return line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS)}…` : line.trim()
}

/**
 * Ends a run with one plain line, `N passed, N failed, N skipped`, that any CI log reader can count
 * without knowing vitest's own summary format, after the slowest test files and their times (tests
 * and hooks, plus importing the file), so the suite's time has names beside it. Before those it names,
 * one line each, every test that failed and every test that passed only when retried (the browser
 * projects retry a failed test once, vitest.shared.ts), with the first line of its error: a CI log is
 * often read only from its end, and a flaky test stays in view even when the run passed.
 */
export class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    const failures: Array<string> = []
    const flaky: Array<string> = []
    const times: Array<{ readonly file: string; readonly ms: number }> = []
    const name = (module: TestModule, test?: TestCase): string =>
      `${relative(process.cwd(), module.moduleId)}${test === undefined ? "" : ` > ${test.fullName}`}`
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result()
        if (result.state === "passed") {
          passed++
          if (test.diagnostic()?.flaky === true)
            flaky.push(`${name(module, test)}: ${firstLine(result.errors?.[0]?.message)}`)
        } else if (result.state === "failed") {
          failed++
          failures.push(`${name(module, test)}: ${firstLine(result.errors[0]?.message)}`)
        } else skipped++
      }
      if (module.state() === "failed") {
        if ([...module.children.allTests()].length === 0) failed++
        for (const error of module.errors()) failures.push(`${name(module)}: ${firstLine(error.message)}`)
      }
      const diagnostic = module.diagnostic()
      times.push({
        file: relative(process.cwd(), module.moduleId),
        ms: diagnostic.duration + diagnostic.collectDuration,
      })
    }
    if (failures.length > 0)
      process.stdout.write(`\nfailed:\n${failures.map((line) => `  ${line}`).join("\n")}\n`)
    if (flaky.length > 0)
      process.stdout.write(`\npassed only when retried:\n${flaky.map((line) => `  ${line}`).join("\n")}\n`)
    const slowest = times.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)
    if (slowest.length > 0)
      process.stdout.write(
        `\nslowest test files:\n${slowest.map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`).join("\n")}\n`,
      )
    const retried = flaky.length > 0 ? ` (${flaky.length} only when retried)` : ""
    process.stdout.write(`\n${passed} passed${retried}, ${failed} failed, ${skipped} skipped\n`)
  }
}
