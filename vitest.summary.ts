import type { Reporter, TestModule } from "vitest/node"

/**
 * Ends a run with one plain line, `N passed, N failed, N skipped`, that any CI log reader can count
 * without knowing vitest's own summary format.
 */
export class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === "passed") passed++
        else if (state === "failed") failed++
        else skipped++
      }
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed++
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
