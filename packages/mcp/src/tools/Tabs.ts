import { z } from "zod"
import { failure, text } from "../internal/Answers.ts"
import { defineMcpTool } from "../McpTool.ts"

/** `tabs`: list the tabs, switch to one or close one (by its number in the list). */
export const tabs = defineMcpTool({
  name: "tabs",
  description: "List tabs; select or close one by number.",
  input: z.strictObject({
    select: z.number().int().nonnegative().max(99).optional(),
    close: z.number().int().nonnegative().max(99).optional(),
  }),
  handle: async (session, args) => {
    try {
      const listed = await session.call((driver) => driver.tabs)
      const pick = (index: number, field: string) => {
        const tab = listed[index]
        if (tab === undefined)
          throw new RangeError(
            `${field}: no tab ${index}, there are ${listed.length} (0–${listed.length - 1})`,
          )
        return tab
      }
      if (args.close !== undefined) {
        const tab = pick(args.close, "close")
        await session.call((driver) => driver.closeTab(tab.handle))
        session.lastSnapshot = undefined
      }
      if (args.select !== undefined) {
        const tab = pick(args.select, "select")
        await session.call((driver) => driver.switchTab(tab.handle))
        session.lastSnapshot = undefined
      }
      const now =
        args.close === undefined && args.select === undefined
          ? listed
          : await session.call((driver) => driver.tabs)
      const lines = now.map((tab, index) => `${index}${tab.active ? "*" : " "} ${tab.title} — ${tab.url}`)
      return text(session, lines.join("\n"))
    } catch (error) {
      return failure(session, error)
    }
  },
})
