/** @sextant/openai — the core `LanguageModel` on the openai SDK, for any OpenAI-compatible endpoint. */
export { generateObject, parseModelJson } from "@sextant/core"
export * from "./OpenAiConfig.ts"
/** The adapter: `OpenAiLanguageModel.layer(options)`, `.layerConfig(environment?)`, `.make`, `.fromOptions`. */
export * as OpenAiLanguageModel from "./OpenAiLanguageModel.ts"
export { fromOptions, make } from "./OpenAiLanguageModel.ts"
