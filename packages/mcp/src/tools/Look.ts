import { z } from "zod"
import { failure, text } from "../internal/Answers.ts"
import { defineMcpTool } from "../McpTool.ts"

/** `look`: the page outline with refs, the whole page or only what changed since the last look. */
export const look = defineMcpTool({
  name: "look",
  description:
    'Page outline with element refs. mode "interactive": controls only, one per line as `ref role name`; a ref and a name alone is a link. within: one region (a ref a cut names); from: the view from that line on (the next part of a cut).',
  input: z.strictObject({
    mode: z.enum(["full", "interactive"]).optional(),
    tokens: z.number().int().positive().max(100_000).optional(),
    diff: z.boolean().optional(),
    within: z
      .string()
      .regex(/^e\d+$/, "a ref such as e11")
      .optional(),
    from: z.number().int().nonnegative().optional(),
  }),
  handle: async (session, args) => {
    try {
      const since = args.diff === true ? session.lastSnapshot : undefined
      const snapshot = await session.call((driver) =>
        driver.look({
          ...(args.mode === undefined ? {} : { mode: args.mode }),
          ...(args.tokens === undefined ? {} : { maxTokens: args.tokens }),
          ...(since === undefined ? {} : { since }),
          ...(args.within === undefined ? {} : { within: args.within }),
          ...(args.from === undefined ? {} : { from: args.from }),
        }),
      )
      session.lastSnapshot = snapshot
      const heading = `${snapshot.title} — ${snapshot.url}${since === undefined ? "" : " (changes since last look)"}`
      return text(session, `${heading}\n${snapshot.tree}`)
    } catch (error) {
      return failure(session, error)
    }
  },
})
