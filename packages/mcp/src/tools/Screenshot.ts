import { parseTarget } from "@sextant/core"
import { withMaskedPage } from "@sextant/perception"
import { z } from "zod"
import { failure } from "../internal/Answers.ts"
import { defineMcpTool } from "../McpTool.ts"

/**
 * `screenshot`: a PNG of the viewport or of one ref, as an image block. Every text field's value, and in a
 * session with secrets every text that holds one, is drawn masked (`withMaskedPage` of
 * `@sextant/perception`, as a run's screenshots are): a value the client typed into a plain text box
 * is as private as a declared secret. When the page cannot be masked no image is taken and the answer
 * says why.
 */
export const screenshot = defineMcpTool({
  name: "screenshot",
  description: "PNG of the page or a ref.",
  input: z.strictObject({ ref: z.string().min(1).optional() }),
  handle: async (session, args) => {
    try {
      const png = await session.call((driver) => {
        const take = driver.screenshot(args.ref === undefined ? {} : { target: parseTarget(args.ref) })
        return withMaskedPage(driver, session.redactor.text, take)
      })
      return {
        content: [{ type: "image", data: Buffer.from(png).toString("base64"), mimeType: "image/png" }],
      }
    } catch (error) {
      return failure(session, error)
    }
  },
})
