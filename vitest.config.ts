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
    // How many test files run at once is set per project in vitest.shared.ts: with `projects`, vitest
    // reads `maxWorkers` from each project, not from this root config.
  },
})
