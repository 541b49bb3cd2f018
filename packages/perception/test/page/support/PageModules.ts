import { join } from "node:path"
import { build } from "esbuild"
import { afterAll, beforeAll } from "vitest"
import type * as act from "../../../src/page/act.ts"
import type * as calendar from "../../../src/page/calendar.ts"
import type * as frames from "../../../src/page/frames.ts"
import type * as goals from "../../../src/page/goals.ts"
import type * as names from "../../../src/page/names.ts"
import type * as pick from "../../../src/page/pick.ts"
import type * as records from "../../../src/page/records.ts"
import type * as roles from "../../../src/page/roles.ts"
import type * as selectors from "../../../src/page/selectors.ts"
import type * as spec from "../../../src/page/spec.ts"
import type * as states from "../../../src/page/states.ts"
import type * as submission from "../../../src/page/submission.ts"
import type * as tools from "../../../src/page/tools.ts"
import type * as values from "../../../src/page/values.ts"
import type * as visibility from "../../../src/page/visibility.ts"
import { openBrowser, type TestBrowser } from "../../support/Browser.ts"
import { type PageServer, startPageServer } from "../../support/PageServer.ts"

/** The page modules a browser test can call, as `globalThis.__page` holds them after `inject`. */
export interface PageModules {
  readonly act: typeof act
  readonly frames: typeof frames
  readonly names: typeof names
  readonly pick: typeof pick
  readonly roles: typeof roles
  readonly selectors: typeof selectors
  readonly states: typeof states
  readonly values: typeof values
  readonly visibility: typeof visibility
  readonly calendar: typeof calendar
  readonly records: typeof records
  readonly spec: typeof spec
  readonly submission: typeof submission
  readonly tools: typeof tools
  readonly goals: typeof goals
}

const pageDirectory = join(import.meta.dirname, "..", "..", "..", "src", "page")
const moduleNames = [
  "act",
  "frames",
  "names",
  "pick",
  "roles",
  "selectors",
  "states",
  "values",
  "visibility",
  "calendar",
  "records",
  "spec",
  "submission",
  "tools",
  "goals",
] as const

let bundled: Promise<string> | undefined

/**
 * The page modules bundled (as the page script is) into one script that sets `globalThis.__page`,
 * so a test can call a module's exports inside a real page. Built once per test file.
 */
export const pageModulesScript = (): Promise<string> => {
  bundled ??= build({
    stdin: {
      contents: [
        ...moduleNames.map((name) => `import * as ${name} from "./${name}.ts"`),
        `globalThis.__page = { ${moduleNames.join(", ")} }`,
      ].join("\n"),
      resolveDir: pageDirectory,
      sourcefile: "page-modules.ts",
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2024",
    logLevel: "silent",
  }).then((result) => result.outputFiles[0]?.text ?? "")
  return bundled
}

/** What a browser test of the page modules shares: a server of minimal pages and one browser. */
export interface PageHarness {
  readonly browser: WebdriverIO.Browser
  /** Opens a page with this HTML and injects the page modules into it. */
  readonly open: (html: string) => Promise<void>
  readonly pages: PageServer
}

export const usePageHarness = (): PageHarness => {
  let pages: PageServer | undefined
  let session: TestBrowser | undefined
  beforeAll(async () => {
    pages = await startPageServer()
    session = await openBrowser()
  })
  afterAll(async () => {
    await session?.close()
    await pages?.close()
  })
  const started = <A>(value: A | undefined): A => {
    if (value === undefined) throw new Error("the page harness starts in beforeAll: use it inside a test")
    return value
  }
  return {
    get browser() {
      return started(session).browser
    },
    get pages() {
      return started(pages)
    },
    open: async (html: string) => {
      const browser = started(session).browser
      await browser.url(`${started(pages).url}/inline?html=${encodeURIComponent(html)}`)
      await browser.execute(await pageModulesScript())
    },
  }
}
