import { BrowserDriver, defineTool } from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import { NavigationOutput } from "./Outputs.ts"

/**
 * The `navigate` tool: load a URL in the browser.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { navigateTool } from "@sextant/tools"
 * const page = navigateTool.run({ url: "http://127.0.0.1:4000/login" }) // needs BrowserDriver
 * ```
 */
export const navigateTool = defineTool({
  name: "navigate",
  group: "core",
  description:
    "Load an absolute http(s) URL in the browser and wait for the page to load. Returns the URL the page ended on (after redirects) and its title. Call look() afterwards to see the page.",
  input: z.object({
    url: z.url({ protocol: /^https?$/ }).describe("Absolute http(s) URL to open"),
    timeoutMs: z.number().int().positive().max(120_000).optional().describe("Longest wait for the load"),
  }),
  output: NavigationOutput,
  effects: { navigates: true, idempotent: true },
  run: ({ url, timeoutMs }) =>
    BrowserDriver.use((driver) => driver.navigate(url, timeoutMs === undefined ? undefined : { timeoutMs })),
})

/**
 * The `back` tool: go back one page in the browser history.
 *
 * @example
 * ```ts
 * import { backTool } from "@sextant/tools"
 * const page = backTool.run({})
 * ```
 */
export const backTool = defineTool({
  name: "back",
  group: "core",
  description: "Go back one page in the browser history, like the Back button. Returns where the page ended.",
  input: z.object({}),
  output: NavigationOutput,
  effects: { navigates: true },
  run: () => BrowserDriver.use((driver) => driver.back),
})

/**
 * The `refresh` tool: reload the current page.
 *
 * @example
 * ```ts
 * import { refreshTool } from "@sextant/tools"
 * const page = refreshTool.run({})
 * ```
 */
export const refreshTool = defineTool({
  name: "refresh",
  group: "core",
  description:
    "Reload the current page, like the Reload button. Unsaved input on the page is lost. Returns where the page ended.",
  input: z.object({}),
  output: NavigationOutput,
  effects: { navigates: true, idempotent: true },
  run: () => BrowserDriver.use((driver) => driver.refresh),
})

/**
 * The `stop` tool: stop loading the current page (`window.stop()`), keeping what has loaded.
 *
 * @example
 * ```ts
 * import { stopTool } from "@sextant/tools"
 * const page = stopTool.run({})
 * ```
 */
export const stopTool = defineTool({
  name: "stop",
  group: "core",
  description:
    "Stop loading the current page, like the Stop button: pending requests, images and frames are cancelled and what has loaded stays. Use it when a slow page already shows what you need.",
  input: z.object({}),
  output: NavigationOutput,
  effects: { idempotent: true },
  run: () =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      yield* pageCall(driver, "stopLoading")
      return { url: yield* driver.currentUrl, title: yield* driver.title }
    }),
})
