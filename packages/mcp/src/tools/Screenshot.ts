import { parseTarget } from "@sextant/core"
import { z } from "zod"
import { failure } from "../internal/Answers.ts"
import { defineMcpTool } from "../McpTool.ts"

/** `screenshot`: a PNG of the viewport or of one ref, as an image block. */
export const screenshot = defineMcpTool({
  name: "screenshot",
  description: "PNG of the page or a ref.",
  input: z.strictObject({ ref: z.string().min(1).optional() }),
  handle: async (session, args) => {
    try {
      const png = await session.call((driver) =>
        driver.screenshot(args.ref === undefined ? {} : { target: parseTarget(args.ref) }),
      )
      return {
        content: [{ type: "image", data: Buffer.from(png).toString("base64"), mimeType: "image/png" }],
      }
    } catch (error) {
      return failure(session, error)
    }
  },
})
