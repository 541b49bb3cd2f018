export * as FetchHttpSession from "./session/FetchHttpSession.ts"
