import type { ActionResult } from "./Actions.ts"
import type { GoalResult } from "./Goals.ts"
import type { PageViewResult, ViewCost } from "./PageView.ts"
import { isMissing, type Missing } from "./Sextant.ts"
import type { Summary } from "./Stats.ts"

/** A section that is measured elsewhere or later: a title, a header and rows of cells. */
export interface TableSection {
  readonly title: string
  readonly note?: string
  readonly headers: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
}

/** Renders a GitHub-flavoured Markdown table; numbers (and "—") are right-aligned. */
export const markdownTable = (
  headers: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
): string => {
  const numeric = headers.map(
    (_, column) => rows.length > 0 && rows.every((row) => /^[-\d.,×%/ ]+$|^—$/.test(row[column] ?? "")),
  )
  const escapeCell = (cell: string) => cell.replace(/\|/g, "\\|")
  const line = (cells: ReadonlyArray<string>) => `| ${cells.map(escapeCell).join(" | ")} |`
  return [
    line(headers),
    `|${headers.map((_, column) => (numeric[column] ? " ---: " : " --- ")).join("|")}|`,
    ...rows.map(line),
  ].join("\n")
}

/** Milliseconds with as many decimals as their size deserves. */
export const ms = (value: number) =>
  value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)
/** A median / p90 cell. */
export const timeCell = (summary: Summary) => `${ms(summary.median)} / ${ms(summary.p90)}`
const ratio = (value: number) => `${value.toFixed(2)}×`
const percent = (value: number) => `${(value * 100).toFixed(1)}%`
const dash = "—"

const tokensCell = (view: ViewCost | Missing) =>
  isMissing(view) ? dash : view.tokens.toLocaleString("en-US")
const ratioCell = (view: ViewCost | Missing, base: ViewCost) =>
  isMissing(view) ? dash : ratio(view.tokens / base.tokens)

/** The page-view tables: sizes with recall, then times. */
export const pageViewSections = (pages: ReadonlyArray<PageViewResult>): ReadonlyArray<TableSection> => {
  const missing = pages.map((page) => page.lookFull).find(isMissing)
  const note = missing === undefined ? undefined : `Sextant columns not yet measured: ${missing.missing}.`
  return [
    {
      title: "Page view: size (o200k tokens)",
      ...(note === undefined ? {} : { note }),
      headers: [
        "page",
        "Playwright AI",
        "raw HTML",
        "look full",
        "full ×PW",
        "look interactive",
        "interactive ×PW",
        "chars PW / full",
        "interactive recall",
        "text recall",
        "requests / look",
      ],
      rows: pages.map((page) => [
        page.path,
        tokensCell(page.playwright),
        tokensCell(page.rawHtml),
        tokensCell(page.lookFull),
        ratioCell(page.lookFull, page.playwright),
        tokensCell(page.lookInteractive),
        ratioCell(page.lookInteractive, page.playwright),
        `${page.playwright.chars.toLocaleString("en-US")} / ${isMissing(page.lookFull) ? dash : page.lookFull.chars.toLocaleString("en-US")}`,
        isMissing(page.interactiveRecall)
          ? dash
          : `${page.interactiveRecall.matched}/${page.interactiveRecall.expected}`,
        isMissing(page.textRecall) ? dash : percent(page.textRecall.recall),
        isMissing(page.roundTrips) ? dash : `${page.roundTrips.median} (max ${page.roundTrips.max})`,
      ]),
    },
    {
      title: "Page view: time (ms, median / p90)",
      ...(note === undefined ? {} : { note }),
      headers: [
        "page",
        "Playwright AI snapshot",
        "raw HTML",
        "look full",
        "look interactive",
        "full ÷ PW",
        "full in page",
        "no-op round trip",
      ],
      rows: pages.map((page) => [
        page.path,
        timeCell(page.playwright.time),
        timeCell(page.rawHtml.time),
        isMissing(page.lookFull) ? dash : timeCell(page.lookFull.time),
        isMissing(page.lookInteractive) ? dash : timeCell(page.lookInteractive.time),
        isMissing(page.lookFull) ? dash : ratio(page.lookFull.time.median / page.playwright.time.median),
        isMissing(page.lookFull) || page.lookFull.inPageMedian === undefined
          ? dash
          : ms(page.lookFull.inPageMedian),
        isMissing(page.noOpRoundTrip) ? dash : timeCell(page.noOpRoundTrip),
      ]),
    },
  ]
}

/** The action table. */
export const actionSection = (actions: ReadonlyArray<ActionResult>): TableSection => ({
  title: "Actions on /forms/contact (ms, median / p90)",
  headers: [
    "action",
    "Sextant act()",
    "Playwright",
    "WebdriverIO",
    "act ÷ PW",
    "act ÷ WebdriverIO",
    "requests / act",
  ],
  rows: actions.map((action) => [
    action.action,
    isMissing(action.sextant) ? `not yet measured: ${action.sextant.missing}` : timeCell(action.sextant),
    timeCell(action.playwright),
    timeCell(action.webdriverio),
    isMissing(action.sextant) ? dash : ratio(action.sextant.median / action.playwright.median),
    isMissing(action.sextant) ? dash : ratio(action.sextant.median / action.webdriverio.median),
    isMissing(action.sextantRequests)
      ? dash
      : `${action.sextantRequests.median} (max ${action.sextantRequests.max})`,
  ]),
})

/** The goals table. */
export const goalSection = (goals: ReadonlyArray<GoalResult>): TableSection => ({
  title: "Goals",
  headers: ["goal", "target", "measured", "met", "margin"],
  rows: goals.map((goal) => [
    goal.goal,
    goal.target,
    goal.measured,
    goal.met === undefined ? "not yet measured" : goal.met ? "yes" : "NO",
    goal.margin,
  ]),
})

/** Renders sections as Markdown, each under a `###` heading. */
export const renderSections = (sections: ReadonlyArray<TableSection>): string =>
  sections
    .map((section) =>
      [
        `### ${section.title}`,
        "",
        ...(section.note === undefined ? [] : [section.note, ""]),
        markdownTable(section.headers, section.rows),
      ].join("\n"),
    )
    .join("\n\n")
