import { configDefaults, defineProject, type UserWorkspaceConfig } from "vitest/config"

/**
 * Which tests a run takes. The default set is the README's test command and needs no server. The slow
 * set (`SEXTANT_TEST_SET=slow`, `pnpm test:slow`) is every `*.slow.test.ts`: tests that start Redis,
 * PostgreSQL or a Selenium Grid through `scripts/services`, and the long whole-suite sweeps (the outcome
 * truth table, the real-page corpus, pack-and-install, every gallery page on both seeds, the CLI spawns
 * that run a whole task or more); `.ci/run` runs it after the default set.
 */
const slowSet = process.env.SEXTANT_TEST_SET === "slow"

/** Perception's page-script bundle, (re)generated before any test runs (every project). */
export const PAGE_BUNDLE_SETUP = new URL(
  "./packages/perception/scripts/page-bundle.setup.ts",
  import.meta.url,
).pathname

/**
 * The browser projects' one ChromeDriver for the whole run: started before their first test file and
 * stopped after the last; the shared browser of each worker (`WebdriverioDriver.layerShared`) runs on it.
 */
export const CHROMEDRIVER_SETUP = new URL(
  "./packages/webdriverio/scripts/chromedriver.setup.ts",
  import.meta.url,
).pathname

/**
 * The settings every package's vitest project shares: workspace packages resolve to their `src/`
 * through the `sextant-source` export condition, so tests need no build step.
 */
export const sextantProject = (name: string, overrides: UserWorkspaceConfig["test"] = {}) =>
  defineProject({
    resolve: { conditions: ["sextant-source", "import", "module", "node", "default"] },
    // Vitest hands these to Node as `--conditions` for the test process, where they apply to native
    // `require()` too: "import" there would make a CommonJS package's `require("pg-pool")` load its ESM
    // build (pg fails with "Class extends value [object Module]"). Vite adds import/require by itself.
    ssr: { resolve: { conditions: ["sextant-source", "module", "node", "default"] } },
    test: {
      name,
      include: slowSet ? ["test/**/*.slow.test.ts"] : ["test/**/*.test.ts"],
      exclude: slowSet ? configDefaults.exclude : [...configDefaults.exclude, "test/**/*.slow.test.ts"],
      environment: "node",
      // Perception's page script is bundled from its `src/page/` modules into a git-ignored file
      // that every package reaches through perception; this (re)generates it before any test runs.
      globalSetup: [PAGE_BUNDLE_SETUP],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // Two files at once: most test time is spent waiting on Chromium and ChromeDriver, so two keep
      // both cores busy (vitest's default on two cores is one at a time). This is only the default: the
      // root config (vitest.config.ts) sets `maxWorkers` on every project it builds (with `projects`,
      // vitest takes it from each project; the same value in the root config is ignored): the tests that
      // start no browser on every core, the browser tests three at a time (three made timing-bound tests
      // miss their limits when every file launched its own Chromium; with one Chromium per worker and
      // one ChromeDriver for the run they pass); in the slow set the files that start Redis, PostgreSQL
      // or a Grid one at a time and the others two at a time.
      maxWorkers: slowSet ? 1 : 2,
      // In the default set a worker keeps its modules from one test file to the next instead of
      // importing Effect, WebdriverIO, zod and the packages afresh for every file (about a third of the
      // test command's time went to those imports). What those modules hold at module level survives
      // from file to file in the same worker too: caches (the browser window frames Session.ts measured,
      // the one-time sweep of orphaned browsers), the registry of live browsers ended on exit, and the
      // worker's shared browser. Test files start and close their own sites and servers in their hooks;
      // the browser files that take `WebdriverioDriver.layerShared` (or, below @sextant/webdriverio,
      // `openSharedTestBrowser`) share the worker's one Chromium, which hands each file a fresh browser
      // context with the previous file's tabs closed, so no page, cookie, storage or server passes from
      // one file to the next (HostileSharedBrowser.test.ts, HostileSharedTestBrowser.test.ts). The slow
      // set keeps one fresh process per file: its files start service containers, worker processes and
      // grids.
      isolate: slowSet,
      ...overrides,
    },
  })
