import { defineConfig } from "vitest/config"
import { PlainSummaryReporter } from "./vitest.summary.ts"

// One command runs every package's tests: each workspace package with a vitest.config.ts is a project.
export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      "apps/*/vitest.config.ts",
      "fixtures/*/vitest.config.ts",
      "scripts/vitest.config.ts",
    ],
    reporters: ["default", new PlainSummaryReporter()],
    // Most test time is spent waiting on Chromium and ChromeDriver, not on this process: three files
    // at once keep two cores busy (vitest's default on two cores is one file at a time).
    maxWorkers: 3,
  },
})
