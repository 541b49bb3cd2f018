import { relative } from "node:path"
import type { Reporter, TestModule } from "vitest/node"

/** How many of the slowest test files the summary names. */
const SLOWEST = 8

/**
 * Ends a run with one plain line, `N passed, N failed, N skipped`, that any CI log reader can count
 * without knowing vitest's own summary format, after the slowest test files and their times (tests
 * and hooks, plus importing the file), so the suite's time has names beside it.
 */
export class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    const times: Array<{ readonly file: string; readonly ms: number }> = []
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === "passed") passed++
        else if (state === "failed") failed++
        else skipped++
      }
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed++
      const diagnostic = module.diagnostic()
      times.push({
        file: relative(process.cwd(), module.moduleId),
        ms: diagnostic.duration + diagnostic.collectDuration,
      })
    }
    const slowest = times.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)
    if (slowest.length > 0)
      process.stdout.write(
        `\nslowest test files:\n${slowest.map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`).join("\n")}\n`,
      )
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
