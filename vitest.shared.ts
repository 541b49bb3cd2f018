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
      // Two files at once: most test time is spent waiting on Chromium and ChromeDriver, so two keep
      // both cores busy (vitest's default on two cores is one at a time); three made timing-bound
      // tests (liveness, dialogs, live regions) miss their limits on this machine. With `projects`,
      // vitest takes this from each project; the same value in the root config is ignored.
      maxWorkers: 2,
      ...overrides,
    },
  })
