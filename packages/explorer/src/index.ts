/**
 * @sextant/explorer — explore a web app into an app map from its page semantics, classify pages and
 * forms, generate test specs, run and heal them, offline; a model helps where one is configured.
 */

export * from "./ApiTestExport.ts"
export * from "./AppMap.ts"
export * from "./Explorer.ts"
export * from "./GenerateTests.ts"
export * from "./Healer.ts"
export * from "./ModelAnalysis.ts"
export * from "./PageAnalysis.ts"
export * from "./PageModel.ts"
export * from "./Report.ts"
export * from "./RunExport.ts"
export * from "./Runner.ts"
export * from "./ScriptExport.ts"
export * from "./TestSpec.ts"
