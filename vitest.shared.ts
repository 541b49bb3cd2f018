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
      ...overrides,
    },
  })
