import { globSync } from "node:fs"
import { availableParallelism } from "node:os"
import { dirname, resolve } from "node:path"
import { defineConfig, type UserWorkspaceConfig } from "vitest/config"
import { slowTestFilesByCost, testFilesByCost } from "./vitest.cost.ts"
import { CHROMEDRIVER_SETUP, PAGE_BUNDLE_SETUP, sextantProject } from "./vitest.shared.ts"
import { PlainSummaryReporter } from "./vitest.summary.ts"

const slowSet = process.env.SEXTANT_TEST_SET === "slow"
/** Unit test files at once: one per core unless SEXTANT_UNIT_WORKERS says otherwise. */
const unitWorkers = Number(process.env.SEXTANT_UNIT_WORKERS) || availableParallelism()
/**
 * Browser test files at once: three unless SEXTANT_BROWSER_WORKERS says otherwise. On two cores the
 * browser tests are mostly CPU work (Chromium, ChromeDriver, child processes): three at a time was about
 * 8% faster than two on a sample of 12 browser files (62.9 s against 68.6 s), and the whole browser set
 * passed three at a time with other work keeping the load at 16.
 */
const browserWorkers = Number(process.env.SEXTANT_BROWSER_WORKERS) || 3

/**
 * Every workspace package with a vitest.config.ts: each is `sextantProject(<name>)` (vitest.shared.ts),
 * read here for its name and rebuilt with the same settings once per cost.
 */
const configs = globSync(
  [
    "packages/*/vitest.config.ts",
    "apps/*/vitest.config.ts",
    "fixtures/*/vitest.config.ts",
    "scripts/vitest.config.ts",
  ],
  { cwd: import.meta.dirname },
).sort()

/**
 * Each package is two projects by cost (vitest.cost.ts): `<package>` holds the tests that start no
 * browser and no child process and runs them on every core; `<package>:browser` holds the ones that
 * start Chromium, ChromeDriver or a Node process, three at a time, with one ChromeDriver for the run
 * (`CHROMEDRIVER_SETUP`) that each worker's shared Chromium (`WebdriverioDriver.layerShared`) runs on.
 * Vitest runs one `sequence.groupOrder`
 * after the other, so the unit tests of every package run first, all cores busy, then the browser
 * tests. `pnpm exec vitest run --project '<package>*'` runs both of a package.
 *
 * The slow set (`SEXTANT_TEST_SET=slow`) splits the same way, every file in a fresh process:
 * `<package>` holds the files that start only their own browsers and processes (browser sweeps, CLI
 * spawns, pack-and-install) and runs them two at a time; `<package>:services` holds the ones that start
 * Redis, PostgreSQL or a Selenium Grid and runs them one at a time (vitest runs an isolated one-worker
 * group after the others).
 */
const byCost = async (config: string): Promise<Array<UserWorkspaceConfig>> => {
  const root = resolve(import.meta.dirname, dirname(config))
  const { default: project } = (await import(resolve(import.meta.dirname, config))) as {
    default: UserWorkspaceConfig
  }
  const name = String(project.test?.name)
  const part = (
    suffix: string,
    include: Array<string>,
    maxWorkers: number,
    groupOrder: number,
    globalSetup: Array<string> = [PAGE_BUNDLE_SETUP],
  ) =>
    include.length === 0
      ? []
      : [
          {
            ...sextantProject(`${name}${suffix}`, {
              include,
              maxWorkers,
              sequence: { groupOrder },
              globalSetup,
            }),
            root,
          },
        ]
  if (slowSet) {
    const { services, other } = slowTestFilesByCost(root)
    return [...part(":services", services, 1, 0), ...part("", other, 2, 1)]
  }
  const { unit, browser } = testFilesByCost(root)
  return [
    ...part("", unit, unitWorkers, 0),
    ...part(":browser", browser, browserWorkers, 1, [PAGE_BUNDLE_SETUP, CHROMEDRIVER_SETUP]),
  ]
}

// One command runs every package's tests.
export default defineConfig({
  test: {
    projects: (await Promise.all(configs.map(byCost))).flat(),
    reporters: ["default", new PlainSummaryReporter()],
    // How many test files run at once is set per project: with `projects`, vitest reads `maxWorkers`
    // from each project, not from this root config.
  },
})
