/**
 * @sextant/tools — tools for Sextant agents, made with `defineTool` from `@sextant/core`.
 * Session tools (HTTP, no browser) live in `src/session/`.
 */

export * from "./session/Crawl.ts"
export * as FetchHttpSession from "./session/FetchHttpSession.ts"
export * from "./session/LoadAndParse.ts"
export * from "./session/Sql.ts"
