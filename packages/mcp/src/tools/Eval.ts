import { agentApiOf } from "@sextant/core"
import { z } from "zod"
import { failure, text } from "../internal/Answers.ts"
import { clientScriptRefusal } from "../internal/ClientScript.ts"
import { defineMcpTool } from "../McpTool.ts"

/**
 * `eval`: JavaScript in the page; offered only when the server was started with eval allowed, and refused
 * in a session with secrets (see `clientScriptRefusal`).
 */
export const evaluate = defineMcpTool({
  name: "eval",
  description: "Run JavaScript in the page.",
  input: z.strictObject({ js: z.string().min(1) }),
  handle: async (session, args) => {
    const refused = clientScriptRefusal(session, "eval")
    if (refused !== undefined) return failure(session, refused)
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
