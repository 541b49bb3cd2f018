/**
 * @sextant/tools — tools for Sextant agents, made with `defineTool` from `@sextant/core`.
 * Session tools (HTTP, no browser) live in `src/session/`.
 */

export * from "./browser/BrowserTools.ts"
export * from "./browser/ClickMatching.ts"
export * from "./browser/Extract.ts"
export * from "./browser/Input.ts"
export * from "./browser/Navigation.ts"
export * from "./browser/Outputs.ts"
export * from "./browser/Screenshot.ts"
export * from "./browser/Scroll.ts"
export * from "./browser/Wait.ts"
export * from "./session/Crawl.ts"
export * as FetchHttpSession from "./session/FetchHttpSession.ts"
export * from "./session/LoadAndParse.ts"
export * from "./session/Sql.ts"
