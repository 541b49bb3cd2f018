import { agentApiOf, waitConditionOf } from "@sextant/core"
import { z } from "zod"
import { actionsLine, failure, text } from "../internal/Answers.ts"
import { clientScriptRefusal } from "../internal/ClientScript.ts"
import { defineMcpTool } from "../McpTool.ts"

/**
 * `wait`: until a ref, a CSS selector or a JavaScript condition holds, or the time is up. A JavaScript
 * condition is refused in a session with secrets (see `clientScriptRefusal`), as `eval` is.
 */
export const wait = defineMcpTool({
  name: "wait",
  description: "Wait for a ref, selector or JS condition.",
  input: z.strictObject({ for: z.string().min(1), ms: z.number().int().positive().max(120_000).optional() }),
  handle: async (session, args) => {
    // A JavaScript condition (as the agent API reads the argument) is refused before the page is touched.
    if ("js" in waitConditionOf(args.for)) {
      const refused = clientScriptRefusal(session, `the JavaScript condition ${JSON.stringify(args.for)}`)
      if (refused !== undefined) return failure(session, refused)
    }
    try {
      const driver = await session.driver()
      const result = await session.call(() => agentApiOf(driver).wait(args.for, args.ms))
      if ("error" in result) return failure(session, result.error)
      return text(
        session,
        `${result.ok ? "held" : "did not hold"} after ${result.elapsed} ms\n${actionsLine(result.actions)}`,
      )
    } catch (error) {
      return failure(session, error)
    }
  },
})
