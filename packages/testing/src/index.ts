/**
 * @sextant/testing — test doubles for Sextant: fake service layers and a scripted OpenAI-compatible server.
 */

export * from "./ChildRun.ts"
export * from "./fakes/FakeBrowserDriver.ts"
export * from "./fakes/FakeHttpSession.ts"
export * from "./fakes/FakeLanguageModel.ts"
export * from "./fakes/MemoryStore.ts"
export * from "./LoopbackServer.ts"
export * from "./openai/OpenAiServer.ts"
export * from "./openai/Reply.ts"
export * from "./ProcessTree.ts"
export * from "./Services.ts"
