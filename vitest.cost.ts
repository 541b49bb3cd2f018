import { existsSync, globSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

/**
 * What in a test file (or a test helper it imports) starts a browser, ChromeDriver or a child Node
 * process: Chromium through the fixture site's test browser or the WebdriverIO adapter, an agent from
 * `createAgent`, a spawned `sextant` / worker / vitest process (also through `spawnSync` or `execFileSync`), an MCP server spawned over stdio by the SDK's
 * `StdioClientTransport`, an MCP tool call (`client.callTool`), which launches the server's browser, or
 * a bench or demo entry point that launches its own browsers (`runGallery`, `measureConformance`,
 * `runLoginDemo`), or the CLI's `main` asked in-process to run or resume a task (`runMain(["run", …`), or
 * `sextant look` called in-process (`lookAt(`).
 */
const STARTS_A_BROWSER =
  /open(Shared)?TestBrowser|runGallery\(|measureConformance\(|runLoginDemo\(|fixture-site\/test-browser|WebdriverioDriver|browserLayer|from "webdriverio"|createAgent\(|\bspawn(Sync)?\(|\bexecFile(Sync)?\(|\bfork\(|chromedriver|StdioClientTransport|\.callTool\(|runMain\(\[\s*"(run|resume)"|\blookAt\(|^import (?!type\b)[^;]*from "@sextant\/webdriverio"/m
/** The WebdriverIO adapter's own tests start Chromium through its index or its driver module. */
const STARTS_THE_ADAPTER = /^import (?!type\b)[^;]*from "\.\.\/src\/(index|WebdriverioDriver)\.ts"/m

const startsABrowser = (file: string, seen: Set<string>): boolean => {
  if (seen.has(file)) return false
  seen.add(file)
  const text = readFileSync(file, "utf8")
  if (STARTS_A_BROWSER.test(text)) return true
  if (file.includes("/packages/webdriverio/test/") && STARTS_THE_ADAPTER.test(text)) return true
  // Test helpers count for the files that import them (relative imports inside a test folder).
  for (const [, path] of text.matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+)"/g)) {
    const target = resolve(dirname(file), path ?? "")
    if (target.includes("/test/") && existsSync(target) && startsABrowser(target, seen)) return true
  }
  return false
}

/**
 * A project's default-set test files (relative to `root`) by what they cost: `unit` start no browser and
 * no child process (pure code, fakes, in-process HTTP servers) and can run as many at once as there are
 * cores; `browser` start Chromium, ChromeDriver or a Node process and share the machine two at a time.
 * Read from the files themselves when the config loads, so a new test file lands on the right side
 * without a list to keep up to date.
 */
export const testFilesByCost = (root: string): { unit: Array<string>; browser: Array<string> } => {
  const unit: Array<string> = []
  const browser: Array<string> = []
  const files = globSync("test/**/*.test.ts", { cwd: root, exclude: (name) => name === "node_modules" })
  for (const file of files.sort()) {
    if (file.endsWith(".slow.test.ts")) continue
    ;(startsABrowser(join(resolve(root), file), new Set()) ? browser : unit).push(file)
  }
  return { unit, browser }
}

/** What in a slow-set test file starts a service: Redis, PostgreSQL or a Selenium Grid (`scripts/services`). */
const STARTS_A_SERVICE = /startRedis|startPostgres|startGrid|scripts\/services/

/**
 * A project's slow-set test files (`*.slow.test.ts`, relative to `root`) by what they start: `services`
 * start Redis, PostgreSQL or a Selenium Grid and run one at a time; `other` (browser sweeps, CLI spawns,
 * pack-and-install) start only their own browsers and processes and can share the machine two at a time.
 */
export const slowTestFilesByCost = (root: string): { services: Array<string>; other: Array<string> } => {
  const services: Array<string> = []
  const other: Array<string> = []
  const files = globSync("test/**/*.slow.test.ts", { cwd: root, exclude: (name) => name === "node_modules" })
  for (const file of files.sort()) {
    ;(STARTS_A_SERVICE.test(readFileSync(join(resolve(root), file), "utf8")) ? services : other).push(file)
  }
  return { services, other }
}

/** For messages: a project folder as the repository names it. */
export const projectFolder = (root: string): string => relative(import.meta.dirname, resolve(root))
