import { BrowserDriver, defineTool } from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"

/** What the `look` tool answers: the part of the page asked for, also as the hint a step-wise run shows the model. */
export const LookOutput = z.object({
  url: z.string(),
  title: z.string(),
  tree: z.string(),
  hint: z.string(),
})

/**
 * The `look` tool: read a part of the page the view left out — one region (`within` a ref that a
 * `[… left out: look({ within: "e11" })]` line names) or the view from a line on (`from`, the next part
 * of a long list or region) — within `maxTokens` (600), cut with a hint naming the next part.
 *
 * @example
 * ```ts
 * import { lookTool } from "@sextant/tools"
 * const part = lookTool.run({ within: "e11" }) // { url, title, tree, hint }, needs BrowserDriver
 * ```
 */
export const lookTool = defineTool({
  name: "look",
  group: "core",
  description:
    'Read page text the view left out: within a ref (a region, a select\'s options) and/or from a line on, as a "[… left out: look(…)]" line names it.',
  input: z.object({
    within: z
      .string()
      .regex(/^e\d+$/, "a ref such as e11")
      .optional()
      .describe("Ref of the region to read"),
    from: z.number().int().nonnegative().optional().describe("Line to start at"),
    maxTokens: z.number().int().positive().max(4000).optional().describe("Longest answer (default 600)"),
  }),
  output: LookOutput,
  effects: { reads: true, idempotent: true },
  run: ({ within, from, maxTokens }) =>
    BrowserDriver.use((driver) =>
      driver.look({
        ...(within === undefined ? {} : { within }),
        ...(from === undefined ? {} : { from }),
        maxTokens: maxTokens ?? 600,
      }),
    ).pipe(
      Effect.map((snapshot) => ({
        url: snapshot.url,
        title: snapshot.title,
        tree: snapshot.tree,
        hint: `${within === undefined ? "the page" : within}${from === undefined ? "" : ` from line ${from}`}:\n${snapshot.tree}`,
      })),
    ),
})
