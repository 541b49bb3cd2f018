import { BrowserDriver, defineTool, parseTarget } from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"
import { TargetText } from "./Outputs.ts"

/**
 * The `screenshot` tool: a PNG of the viewport or of one element, as base64.
 *
 * @example
 * ```ts
 * import { screenshotTool } from "@sextant/tools"
 * const shot = screenshotTool.run({ target: "#spec-table" })
 * ```
 */
export const screenshotTool = defineTool({
  name: "screenshot",
  group: "extraction",
  description:
    "Take a PNG screenshot of the visible page, or of one element given as target (a ref from look() or a CSS selector). Returns the image as base64 with its size.",
  input: z.object({ target: TargetText.optional() }),
  output: z.object({
    mimeType: z.literal("image/png"),
    base64: z.string(),
    bytes: z.number().int().nonnegative(),
    width: z.number().int().nonnegative(),
    height: z.number().int().nonnegative(),
  }),
  effects: { reads: true, idempotent: true },
  run: ({ target }) =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      const png = yield* driver.screenshot(target === undefined ? undefined : { target: parseTarget(target) })
      // The PNG header's IHDR chunk holds the width and height as big-endian integers at 16 and 20.
      const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
      const size =
        png.byteLength >= 24
          ? { width: view.getUint32(16), height: view.getUint32(20) }
          : { width: 0, height: 0 }
      return {
        mimeType: "image/png" as const,
        base64: Buffer.from(png).toString("base64"),
        bytes: png.byteLength,
        ...size,
      }
    }),
})
