import { agentApiOf } from "@sextant/core"
import { z } from "zod"
import { failure, text } from "../internal/Answers.ts"
import { defineMcpTool } from "../McpTool.ts"

/** `eval`: JavaScript in the page; offered only when the server was started with eval allowed. */
export const evaluate = defineMcpTool({
  name: "eval",
  description: "Run JavaScript in the page.",
  input: z.strictObject({ js: z.string().min(1) }),
  handle: async (session, args) => {
    try {
      const driver = await session.driver()
      const result = await session.call(() => agentApiOf(driver).eval(args.js))
      if ("error" in result) return failure(session, result.error)
      return text(
        session,
        typeof result.result === "string" ? result.result : (JSON.stringify(result.result) ?? "undefined"),
      )
    } catch (error) {
      return failure(session, error)
    }
  },
})
