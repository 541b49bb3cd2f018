/** @sextant/openai — the core `LanguageModel` on the openai SDK, for any OpenAI-compatible endpoint. */
export { generateObject, parseModelJson } from "@sextant/core"
export * from "./OpenAiConfig.ts"
export * from "./OpenAiLanguageModel.ts"
