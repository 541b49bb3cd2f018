/**
 * @sextant/tools — tools for Sextant agents, made with `defineTool` from `@sextant/core`.
 * Session tools (HTTP, no browser) live in `src/session/`.
 */

// Calendar days live in core (the planner and the executor read them too); tools keeps exporting them.
export { type CalendarDay, isoDay, readCalendarDay } from "@sextant/core"
export * from "./browser/BrowserTools.ts"
export * from "./browser/ClickMatching.ts"
export * from "./browser/Extract.ts"
export * from "./browser/Input.ts"
export * from "./browser/Look.ts"
export * from "./browser/Navigation.ts"
export * from "./browser/Outputs.ts"
export * from "./browser/PickDate.ts"
export * from "./browser/Screenshot.ts"
export * from "./browser/Scroll.ts"
export * from "./browser/Wait.ts"
export * from "./compound/CompoundError.ts"
export * from "./compound/CompoundTools.ts"
export * from "./compound/DetailPageExtractor.ts"
export * from "./compound/ExtractList.ts"
export * from "./compound/FillForm.ts"
export * from "./compound/Login.ts"
export * from "./compound/Pagination.ts"
export * from "./compound/RecordSchema.ts"
export * from "./compound/Search.ts"
export * from "./session/Crawl.ts"
export * as FetchHttpSession from "./session/FetchHttpSession.ts"
export * from "./session/LoadAndParse.ts"
export * from "./session/Sql.ts"
