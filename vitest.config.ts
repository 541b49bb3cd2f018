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
 * How many times a failed test that drives a browser or a child process runs again before it counts as
 * failed: once. On this two-core machine a browser test now and then misses a deadline when other work
 * loads the machine (a delayed element, a settle wait), and one such miss failed a whole CI run. A test
 * whose behaviour is broken fails both times and the run fails; one that passed only on its second try
 * is named in the run's summary ("passed only when retried", vitest.summary.ts), so a flaky test stays
 * in view to be mended. The unit tests and the services run no retry: they do not depend on load.
 */
const BROWSER_RETRIES = 1

/**
 * Every workspace package with a vitest.config.ts (each is `sextantProject(<name>)`, vitest.shared.ts,
 * for running a package's tests from its own folder): the root config takes their test files.
 */
const packages = globSync(
  [
    "packages/*/vitest.config.ts",
    "apps/*/vitest.config.ts",
    "fixtures/*/vitest.config.ts",
    "scripts/vitest.config.ts",
  ],
  { cwd: import.meta.dirname },
)
  .map((config) => dirname(config))
  .sort()

/** Every package's files of one kind, as paths from the repository root. */
const filesOf = (pick: (root: string) => Array<string>): Array<string> =>
  packages.flatMap((folder) => pick(resolve(import.meta.dirname, folder)).map((file) => `${folder}/${file}`))

const project = (
  name: string,
  include: Array<string>,
  maxWorkers: number,
  groupOrder: number,
  globalSetup: Array<string> = [PAGE_BUNDLE_SETUP],
  retry = 0,
): Array<UserWorkspaceConfig> =>
  include.length === 0
    ? []
    : [
        {
          ...sextantProject(name, { include, maxWorkers, sequence: { groupOrder }, globalSetup, retry }),
          root: import.meta.dirname,
        },
      ]

/**
 * Two vitest projects by cost (vitest.cost.ts), each over the test files of every package: `unit` holds
 * the tests that start no browser and no child process and runs them first, on every core; `browser`
 * holds the ones that start Chromium, ChromeDriver or a Node process and runs them after, three at a
 * time, with one ChromeDriver for the run (`CHROMEDRIVER_SETUP`) that each worker's shared Chromium
 * (`WebdriverioDriver.layerShared`) runs on. One project per cost, not one per package and cost:
 * vitest hands a worker process on only to the next file of the same project, so with a project per
 * package every package started its own workers, each importing Effect, WebdriverIO and zod again and
 * launching its own shared Chromium (on 37 browser files of nine packages, 129 s against 109 s; the
 * unit tests 42 s against 26 s). Running the unit tests beside the browser tests (one group, three at a
 * time) was no faster: the browser tests keep both cores busy (122 files, 127 s and 128 s against 132 s
 * and 122 s one after the other). Across packages the files run longest first (from vitest's results
 * cache, or by size on a clean clone). `pnpm exec vitest run packages/<package>/` runs a package's
 * files.
 *
 * The slow set (`SEXTANT_TEST_SET=slow`) splits the same way, every file in a fresh process: `slow`
 * holds the files that start only their own browsers and processes (browser sweeps, CLI spawns,
 * pack-and-install) and runs them two at a time; `slow:services` holds the ones that start Redis,
 * PostgreSQL or a Selenium Grid and runs them one at a time (vitest runs an isolated one-worker group
 * after the others).
 */
const projects = slowSet
  ? [
      ...project(
        "slow:services",
        filesOf((root) => slowTestFilesByCost(root).services),
        1,
        0,
      ),
      ...project(
        "slow",
        filesOf((root) => slowTestFilesByCost(root).other),
        2,
        1,
        [PAGE_BUNDLE_SETUP],
        BROWSER_RETRIES,
      ),
    ]
  : [
      ...project(
        "unit",
        filesOf((root) => testFilesByCost(root).unit),
        unitWorkers,
        0,
      ),
      ...project(
        "browser",
        filesOf((root) => testFilesByCost(root).browser),
        browserWorkers,
        1,
        [PAGE_BUNDLE_SETUP, CHROMEDRIVER_SETUP],
        BROWSER_RETRIES,
      ),
    ]

// One command runs every package's tests.
export default defineConfig({
  test: {
    projects,
    reporters: ["default", new PlainSummaryReporter()],
    // How many test files run at once is set per project: with `projects`, vitest reads `maxWorkers`
    // from each project, not from this root config.
  },
})
