import { defineProject, type UserWorkspaceConfig } from "vitest/config"

/**
 * The settings every package's vitest project shares: workspace packages resolve to their `src/`
 * through the `sextant-source` export condition, so tests need no build step.
 */
export const sextantProject = (name: string, overrides: UserWorkspaceConfig["test"] = {}) =>
  defineProject({
    resolve: { conditions: ["sextant-source", "import", "module", "node", "default"] },
    ssr: { resolve: { conditions: ["sextant-source", "import", "module", "node", "default"] } },
    test: {
      name,
      include: ["test/**/*.test.ts"],
      environment: "node",
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // Most test time is spent waiting on Chromium and ChromeDriver, not on this process: three files
      // at once keep two cores busy (vitest's default on two cores is one file at a time). With
      // `projects`, vitest takes this from each project; the same value in the root config is ignored.
      maxWorkers: 3,
      ...overrides,
    },
  })
