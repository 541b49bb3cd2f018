import {
  BrowserDriver,
  DriverError,
  defineTool,
  parseTarget,
  Timeout,
  type WaitCondition,
} from "@sextant/core"
import { Duration, Effect } from "effect"
import { z } from "zod"
import { TargetText } from "./Outputs.ts"

const describeCondition = (condition: WaitCondition): string => {
  if ("ref" in condition) return `ref ${condition.ref}`
  if ("selector" in condition) return `${condition.selector} to be ${condition.state ?? "present"}`
  if ("text" in condition) return `the text "${condition.text}"`
  if ("js" in condition) return `the condition ${condition.js}`
  return "a navigation"
}

/**
 * The `waitFor` tool: wait until an element, a text, a JavaScript condition or a navigation shows up.
 *
 * @example
 * ```ts
 * import { waitForTool } from "@sextant/tools"
 * const waited = waitForTool.run({ text: "Delayed content loaded", timeoutMs: 3000 })
 * ```
 */
export const waitForTool = defineTool({
  name: "waitFor",
  group: "core",
  description: [
    "Wait until exactly one of: target (a ref or CSS selector) is present (or visible/hidden with state), text appears on the page, js (a JavaScript expression) is truthy, or navigation (true) leaves the current URL.",
    "Fails with a Timeout error after timeoutMs (default 10000).",
  ].join(" "),
  scriptInputs: ["js"],
  input: z
    .object({
      target: TargetText.optional(),
      state: z.enum(["present", "visible", "hidden"]).optional().describe("For a CSS selector target"),
      text: z.string().min(1).optional(),
      js: z.string().min(1).optional().describe("A JavaScript expression, e.g. window.ready === true"),
      navigation: z.literal(true).optional(),
      timeoutMs: z.number().int().positive().max(120_000).default(10_000),
    })
    .refine(
      (input) =>
        [input.target, input.text, input.js, input.navigation].filter((value) => value !== undefined)
          .length === 1,
      { message: "give exactly one of target, text, js or navigation", path: ["target"] },
    ),
  output: z.object({ ok: z.literal(true), elapsedMs: z.number(), condition: z.string() }),
  effects: { reads: true, idempotent: true },
  run: ({ target, state, text, js, timeoutMs }) =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      const parsed = target === undefined ? undefined : parseTarget(target)
      const condition: WaitCondition =
        parsed !== undefined
          ? "ref" in parsed
            ? parsed
            : { selector: parsed.selector, ...(state === undefined ? {} : { state }) }
          : text !== undefined
            ? { text }
            : js !== undefined
              ? { js }
              : { navigation: {} }
      const result = yield* driver.waitFor(condition, { timeoutMs })
      if (!result.ok) {
        return yield* new DriverError({
          method: "waitFor",
          reason: new Timeout({ operation: `waiting for ${describeCondition(condition)}`, timeoutMs }),
        })
      }
      return { ok: true as const, elapsedMs: result.elapsedMs, condition: describeCondition(condition) }
    }),
})

/**
 * The `delay` tool: pause for a fixed time.
 *
 * @example
 * ```ts
 * import { delayTool } from "@sextant/tools"
 * const paused = delayTool.run({ ms: 500 })
 * ```
 */
export const delayTool = defineTool({
  name: "delay",
  group: "gestures",
  description:
    "Pause for ms milliseconds (at most 60000) without touching the page. Prefer waitFor, which stops as soon as what you wait for is there.",
  input: z.object({ ms: z.number().int().nonnegative().max(60_000).describe("How long to pause") }),
  output: z.object({ waitedMs: z.number() }),
  effects: { idempotent: true },
  run: ({ ms }) => Effect.as(Effect.sleep(Duration.millis(ms)), { waitedMs: ms }),
})
