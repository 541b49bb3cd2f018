/**
 * @sextant/memory — what an agent remembers: a short-term window of observations for prompts,
 * step-wise history lines, and a persistent SQLite `Store`.
 */
export * from "./History.ts"
export * from "./Redaction.ts"
export * from "./ShortTermMemory.ts"
export * as SqliteStore from "./SqliteStore.ts"
