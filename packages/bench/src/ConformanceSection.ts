import { readdir, readFile } from "node:fs/promises"
import { extname, join, relative, resolve, sep } from "node:path"
import type { BrowserDriverShape, PageSnapshot } from "@sextant/core"
import { startLoopbackServer } from "@sextant/testing"
import { launch, makeDriver } from "@sextant/webdriverio"
import { Effect, Exit, Scope } from "effect"
import type { Page } from "playwright-core"
import { openPlaywright, RUN_MARK, VIEWPORT } from "./Browsers.ts"
import { OFFLINE_ARGS } from "./CorpusSection.ts"
import { BenchError } from "./Measure.ts"
import { INTERACTIVE_ROLES as AGENT_ROLES } from "./Recall.ts"
import type { TableSection } from "./Report.ts"

/**
 * What one engine says of one element: its role and accessible name, or that it gives the element
 * no node of its own (`shown: false`: Sextant folds a generic wrapper, a paragraph, a heading
 * without a ref into its parent's lines; Playwright's snapshot prints only the element's children).
 */
export interface Reading {
  readonly shown: boolean
  readonly role: string
  readonly name: string
}

/** One WPT case: an element carrying `data-expectedlabel` and/or `data-expectedrole`. */
export interface ConformanceCase {
  readonly file: string
  /** Position among the file's cases, in document order. */
  readonly index: number
  readonly testname: string
  readonly expectedName?: string
  readonly expectedRole?: string
  readonly chromium: Reading
  readonly sextant: Reading
  readonly playwright: Reading
}

/** The whole run: the folder, the files read and every case. */
export interface ConformanceResult {
  readonly folder: string
  readonly files: ReadonlyArray<string>
  readonly cases: ReadonlyArray<ConformanceCase>
}

/**
 * Roles Chromium gives to things a user operates: the "interactive" rows count cases with these. The
 * recall measure's roles an agent acts on, and `gridcell`, which a WPT grid case operates.
 */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([...AGENT_ROLES, "gridcell"])

/** Roles that mean "no node of its own": an element an engine does not show has one of these. */
const NO_NODE_ROLES: ReadonlySet<string> = new Set(["", "none", "generic", "presentation"])

/**
 * WPT's own label rule (wai-aria/scripts/aria-utils.js): runs of ASCII whitespace become one space
 * and the ends are trimmed; a no-break space stays. Applied to every engine's name alike.
 */
export const normalizeName = (name: string): string =>
  name.replace(/[\t\n\f\r ]+/g, " ").replace(/^ | $/g, "")

/**
 * Whether a reading has the case's expected name. An element given no node has no name: that is
 * right only where the test expects the empty name (a hidden button).
 */
export const nameExact = (expected: string, reading: Reading): boolean =>
  normalizeName(reading.shown ? reading.name : "") === expected

/**
 * Whether a reading has the case's expected role. Where the test expects no node of its own
 * (`none`, `generic`), an engine that gives none, or says `none`/`generic`, passes; otherwise the
 * roles must be equal and the element shown.
 */
export const roleExact = (expected: string, reading: Reading): boolean => {
  if (NO_NODE_ROLES.has(expected)) return !reading.shown || NO_NODE_ROLES.has(reading.role)
  return reading.shown && reading.role === expected
}

type Engine = "chromium" | "sextant" | "playwright"
const ENGINES: ReadonlyArray<Engine> = ["chromium", "sextant", "playwright"]

/** Passes of one engine on one measure over a set of cases. */
export interface Tally {
  readonly cases: number
  readonly chromium: number
  readonly sextant: number
  readonly playwright: number
  /** Cases Sextant gives no node of its own (counted as misses in `sextant` unless none was expected). */
  readonly sextantFolded: number
  /** Sextant's passes among the cases it shows. */
  readonly sextantShownPasses: number
}

const tally = (
  cases: ReadonlyArray<ConformanceCase>,
  passes: (expected: string, reading: Reading) => boolean,
  expectedOf: (item: ConformanceCase) => string | undefined,
): Tally => {
  const counted = cases.filter((item) => expectedOf(item) !== undefined)
  const count = (engine: Engine) => counted.filter((item) => passes(expectedOf(item)!, item[engine])).length
  return {
    cases: counted.length,
    chromium: count("chromium"),
    sextant: count("sextant"),
    playwright: count("playwright"),
    sextantFolded: counted.filter((item) => !item.sextant.shown).length,
    sextantShownPasses: counted.filter(
      (item) => item.sextant.shown && passes(expectedOf(item)!, item.sextant),
    ).length,
  }
}

/** The three rows of one measure: all cases, the cases Chromium passes, Chromium's interactive roles. */
export interface MeasureRows {
  readonly all: Tally
  readonly chromiumPasses: Tally
  readonly interactive: Tally
}

/** Names exact and roles exact, each as {@link MeasureRows}. */
export interface ConformanceScore {
  readonly names: MeasureRows
  readonly roles: MeasureRows
}

const rowsOf = (
  cases: ReadonlyArray<ConformanceCase>,
  passes: (expected: string, reading: Reading) => boolean,
  expectedOf: (item: ConformanceCase) => string | undefined,
): MeasureRows => ({
  all: tally(cases, passes, expectedOf),
  chromiumPasses: tally(
    cases.filter((item) => {
      const expected = expectedOf(item)
      return expected !== undefined && passes(expected, item.chromium)
    }),
    passes,
    expectedOf,
  ),
  interactive: tally(
    cases.filter((item) => item.chromium.shown && INTERACTIVE_ROLES.has(item.chromium.role)),
    passes,
    expectedOf,
  ),
})

/** Scores every case: names against `data-expectedlabel`, roles against `data-expectedrole`. */
export const scoreConformance = (cases: ReadonlyArray<ConformanceCase>): ConformanceScore => ({
  names: rowsOf(cases, nameExact, (item) => item.expectedName),
  roles: rowsOf(cases, roleExact, (item) => item.expectedRole),
})

const share = (passes: number, of: number) =>
  of === 0 ? "—" : `${passes}/${of} (${((passes / of) * 100).toFixed(1)}%)`

const measureSection = (title: string, rows: MeasureRows): TableSection => ({
  title,
  headers: [
    "Cases",
    "n",
    "Chromium",
    "Sextant look()",
    "Playwright ariaSnapshot",
    "Sextant: folded (no node)",
    "Sextant among shown",
  ],
  rows: (
    [
      ["All", rows.all],
      ["Chromium passes", rows.chromiumPasses],
      ["Interactive (Chromium's role)", rows.interactive],
    ] as const
  ).map(([label, row]) => [
    label,
    String(row.cases),
    share(row.chromium, row.cases),
    share(row.sextant, row.cases),
    share(row.playwright, row.cases),
    String(row.sextantFolded),
    share(row.sextantShownPasses, row.cases - row.sextantFolded),
  ]),
})

/**
 * The run as tables: names exact, roles exact (three rows each), then passes per file and the
 * cases Sextant misses where Chromium passes.
 */
export const conformanceSections = (result: ConformanceResult): ReadonlyArray<TableSection> => {
  const score = scoreConformance(result.cases)
  const perFile: TableSection = {
    title: "Passes per file (names exact + roles exact)",
    headers: ["File", "Cases", "Chromium", "Sextant", "Playwright", "Sextant folded"],
    rows: result.files.map((file) => {
      const cases = result.cases.filter((item) => item.file === file)
      const checks = cases.flatMap((item) =>
        [
          ...(item.expectedName === undefined
            ? []
            : [(reading: Reading) => nameExact(item.expectedName!, reading)]),
          ...(item.expectedRole === undefined
            ? []
            : [(reading: Reading) => roleExact(item.expectedRole!, reading)]),
        ].map((check) => ({ item, check })),
      )
      const passes = (engine: Engine) => checks.filter(({ item, check }) => check(item[engine])).length
      return [
        file,
        String(checks.length),
        ...ENGINES.map((engine) => String(passes(engine))),
        String(cases.filter((item) => !item.sextant.shown).length),
      ]
    }),
  }
  const misses = result.cases.filter(
    (item) =>
      (item.expectedName !== undefined &&
        nameExact(item.expectedName, item.chromium) &&
        !nameExact(item.expectedName, item.sextant)) ||
      (item.expectedRole !== undefined &&
        roleExact(item.expectedRole, item.chromium) &&
        !roleExact(item.expectedRole, item.sextant)),
  )
  const missed: TableSection = {
    title: "Cases Chromium passes and Sextant misses",
    headers: ["File", "Test", "Expected", "Sextant"],
    rows: misses.map((item) => [
      item.file,
      item.testname.slice(0, 90),
      [item.expectedRole, item.expectedName === undefined ? undefined : JSON.stringify(item.expectedName)]
        .filter((part) => part !== undefined)
        .join(" "),
      item.sextant.shown ? `${item.sextant.role} ${JSON.stringify(item.sextant.name)}` : "folded (no node)",
    ]),
  }
  return [
    measureSection("Accessible names exact", score.names),
    measureSection("Roles exact", score.roles),
    perFile,
    ...(misses.length === 0 ? [] : [missed]),
  ]
}

const CASES = "[data-expectedlabel],[data-expectedrole]"

/**
 * Stand-ins for the WPT harness: empty scripts for `/resources/*.js`, and an `AriaUtils` whose
 * checks do nothing, so a file's inline scripts (shadow roots, expanders) run to their end.
 */
const ARIA_UTILS_STAND_IN = `window.AriaUtils = {
  assignAndVerifyRolesByRoleNames() {}, verifyRolesBySelector() {}, verifyRoleOrVariantRolesBySelector() {},
  verifyGenericRolesBySelector() {}, verifyLabelsBySelector() {}, verifyRoleAndLabelBySelector() {},
};
window.promise_test = function () {}; window.test = function () {};`

/**
 * Serves a folder of WPT files from 127.0.0.1 under their own paths (`/accname/name/comp_label.html`);
 * `/resources/*.js` and `/wai-aria/scripts/aria-utils.js` are the bench's stand-ins, anything outside
 * the folder is a 404.
 */
export const serveWpt = (folder: string) =>
  startLoopbackServer((request, response) => {
    const path = decodeURIComponent((request.url ?? "/").split("?")[0]!)
    if (path.startsWith("/resources/") && path.endsWith(".js")) {
      response.writeHead(200, { "content-type": "text/javascript" }).end("")
      return
    }
    if (path === "/wai-aria/scripts/aria-utils.js") {
      response.writeHead(200, { "content-type": "text/javascript" }).end(ARIA_UTILS_STAND_IN)
      return
    }
    const file = resolve(folder, `.${path}`)
    if (!file.startsWith(resolve(folder) + sep) || extname(file) !== ".html") {
      response.writeHead(404).end()
      return
    }
    readFile(file).then(
      (body) => response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body),
      () => response.writeHead(404).end(),
    )
  })

/** Every `.html` file under a folder, as sorted paths relative to it. */
export const wptFiles = async (folder: string): Promise<ReadonlyArray<string>> => {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".html"))
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort()
}

/** Role and name of the first line of Playwright's snapshot of one element, or no node. */
export const playwrightReading = (snapshot: string): Reading => {
  const top = snapshot.split("\n").filter((line) => /^- /.test(line))
  const match = /^- ([a-z]+)(?: ("(?:[^"\\]|\\.)*"))?/.exec(top[0] ?? "")
  // Several top-level lines, or text first: the element itself printed no node, only its children.
  if (match === null || top.length !== 1 || match[1] === "text") return { shown: false, role: "", name: "" }
  return {
    shown: true,
    role: match[1]!,
    name: match[2] === undefined ? "" : (JSON.parse(match[2]) as string),
  }
}

/** Container lines name their role by a shorter word; the rest print the role itself. */
const CONTAINER_ROLE: Record<string, string> = {
  header: "banner",
  nav: "navigation",
  footer: "contentinfo",
  aside: "complementary",
}

/** In the page, after a look: each case's expectations and Sextant's ref for it. */
const READ_CASES = `
const found = [...document.querySelectorAll(${JSON.stringify(CASES)})]
return JSON.stringify({
  cases: found.map((element) => ({
    testname: element.getAttribute("data-testname") ?? "",
    expectedName: element.getAttribute("data-expectedlabel") ?? undefined,
    expectedRole: element.getAttribute("data-expectedrole") ?? undefined,
    ref: globalThis.__sextant.refOf(element) ?? null,
    printed: globalThis.__sextant.printedAs(element) ?? null,
  })),
})`

interface PageCase {
  readonly testname: string
  readonly expectedName?: string
  readonly expectedRole?: string
  readonly ref: string | null
  /**
   * The line the element printed without a ref (`h2 "Prices"`, `img "Logo"`), or for a table's row
   * or cell, which share the row's line, what that line shows it as (`row`, `columnheader "Price"`);
   * or null.
   */
  readonly printed: string | null
}

/**
 * Sextant's reading of an element from its ref: an element of the snapshot (role and name), a
 * container (`nav "label"`: the first line of `look({ within: ref })`, given as `within`), or no
 * node of its own (no ref, or a ref that names nothing). An element with a line of its own but no
 * ref (`printed`: `h2 "Prices"`, `img "Logo"`, `meter "Progress": 40`) is read from that line, the
 * heading level's label back to its role: the line says the role and the name as a reader sees them.
 * A table's row or cell is read from what its row's line shows it as (`row`, `rowheader "Basic"`,
 * `cell "$5"`: a bold cell is a header, a data cell is a grid cell under a grid).
 */
export const sextantReading = (
  ref: string | null,
  snapshot: PageSnapshot,
  within?: string,
  printed?: string | null,
): Reading => {
  const element = ref === null ? undefined : snapshot.elements[ref]
  if (element !== undefined) return { shown: true, role: element.role, name: element.name }
  const line = ref !== null ? within?.split("\n")[0]?.replace(/^- /, "") : (printed ?? undefined)
  const match = /^([a-z]+[1-6]?)(?: link)?(?: ("(?:[^"\\]|\\.)*"))?/.exec(line ?? "")
  if (match === null) return { shown: false, role: "", name: "" }
  const label = match[1]!
  return {
    shown: true,
    role: /^h[1-6]$/.test(label) ? "heading" : (CONTAINER_ROLE[label] ?? label),
    name: match[2] === undefined ? "" : (JSON.parse(match[2]) as string),
  }
}

/**
 * Measures every WPT file under `folder` (both browsers offline but for 127.0.0.1, as the corpus is): for each element with `data-expectedlabel` or
 * `data-expectedrole`, Chromium's computed role and label (WebDriver, as WPT's own harness asks),
 * Sextant's `look()` (the element's node found by its ref) and Playwright's `ariaSnapshot()` of the
 * element, on the same served file.
 */
export const measureConformance = async (
  folder: string,
  progress: (line: string) => void,
): Promise<ConformanceResult> => {
  const files = await wptFiles(folder)
  if (files.length === 0)
    throw new BenchError(
      "conformance files",
      folder,
      "holds no .html file: see the bench README for the WPT paths",
    )
  const server = await serveWpt(folder)
  const scope = await Effect.runPromise(Scope.make())
  const closers: Array<() => Promise<void>> = [
    () => server.close(),
    () => Effect.runPromise(Scope.close(scope, Exit.void)),
  ]
  try {
    const session = await Effect.runPromise(
      Scope.provide(scope)(
        launch({
          windowSize: { width: VIEWPORT.width, height: VIEWPORT.height },
          args: [RUN_MARK, ...OFFLINE_ARGS],
        }),
      ),
    )
    const driver: BrowserDriverShape = await Effect.runPromise(Scope.provide(scope)(makeDriver(session)))
    const playwright = await openPlaywright(OFFLINE_ARGS)
    closers.push(playwright.close)
    const page: Page = playwright.value
    const cases: Array<ConformanceCase> = []
    const read: Array<string> = []
    for (const file of files) {
      const url = `${server.url}/${file}`
      try {
        await Effect.runPromise(driver.navigate(url))
        const snapshot = await Effect.runPromise(driver.look({ mode: "full" }))
        const inPage = JSON.parse(String(await Effect.runPromise(driver.evaluate(READ_CASES)))) as {
          cases: ReadonlyArray<PageCase>
        }
        if (inPage.cases.length === 0) continue
        read.push(file)
        const elements = await session.browser.$$(CASES).getElements()
        if (elements.length !== inPage.cases.length)
          throw new BenchError(
            "conformance page",
            file,
            `WebDriver found ${elements.length} cases, the page ${inPage.cases.length}`,
          )
        await page.goto(url, { waitUntil: "load" })
        for (const [index, found] of inPage.cases.entries()) {
          const element = elements[index]!
          const chromiumRole = await element.getComputedRole()
          const chromiumName = await element.getComputedLabel()
          const snapshotText = await page
            .locator(CASES)
            .nth(index)
            .ariaSnapshot({ timeout: 5_000 })
            .catch(() => "")
          cases.push({
            file,
            index,
            testname: found.testname,
            ...(found.expectedName === undefined ? {} : { expectedName: found.expectedName }),
            ...(found.expectedRole === undefined ? {} : { expectedRole: found.expectedRole }),
            // Chromium is the reference: its computed role and label always stand, "none" included.
            chromium: { shown: true, role: chromiumRole, name: chromiumName },
            sextant: sextantReading(
              found.ref,
              snapshot,
              found.ref !== null && snapshot.elements[found.ref] === undefined
                ? (await Effect.runPromise(driver.look({ mode: "full", within: found.ref }))).tree
                : undefined,
              found.printed,
            ),
            playwright: playwrightReading(snapshotText),
          })
        }
        progress(`conformance: ${file}: ${inPage.cases.length} cases`)
      } catch (cause) {
        throw cause instanceof BenchError ? cause : new BenchError("conformance page", file, cause)
      }
    }
    return { folder, files: read, cases }
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined)
  }
}
