import { BrowserDriver, defineTool, type PageElement } from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import { clickTool, fillTool, pressTool } from "../browser/Input.ts"
import { TargetText } from "../browser/Outputs.ts"
import { CompoundError, ControlNotFound } from "./CompoundError.ts"
import { named, usable } from "./internal/Page.ts"

/** Names of a search field. */
const searchFieldPattern = /search|query|find|keyword|搜索|查找|検索/i

const textRoles = new Set(["searchbox", "combobox", "textbox"])

const findSearchField = (elements: ReadonlyArray<PageElement>): PageElement | undefined => {
  const fields = elements.filter(
    (element) => textRoles.has(element.role) && element.attributes.type !== "password",
  )
  return (
    fields.find((element) => element.role === "searchbox" || element.attributes.type === "search") ??
    // A field inside a search landmark carries it in its identity key.
    fields.find((element) => /(^|\/)search:/.test(element.key ?? "")) ??
    named(fields, searchFieldPattern) ??
    fields.find((element) => element.attributes.name === "q")
  )
}

/**
 * The `search` tool: type a query into the page's search field and submit it.
 *
 * @example
 * ```ts
 * import { searchTool } from "@sextant/tools"
 * const found = searchTool.run({ query: "brass lantern" })
 * ```
 */
export const searchTool = defineTool({
  name: "search",
  group: "forms",
  description: [
    "Search on the current page: type query into its search field (a search box, a field in the search landmark, or one named like Search) and submit with Enter (or selectors.submit).",
    "Returns the page it led to, how many result items it shows, and the page's no-results message if there is one.",
  ].join(" "),
  input: z.object({
    query: z.string().trim().min(1).describe("What to search for"),
    selectors: z
      .object({ input: TargetText.optional(), submit: TargetText.optional() })
      .optional()
      .describe(
        "Ref or CSS selector of the search field and of its button, when they cannot be found by meaning",
      ),
  }),
  output: z.object({
    url: z.string(),
    title: z.string(),
    resultCount: z.number().int().nonnegative(),
    noResults: z.string().optional(),
    hint: z.string(),
  }),
  effects: { clicks: true, submits: true, navigates: true },
  run: ({ query, selectors }) =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      let input = selectors?.input
      if (input === undefined) {
        const snapshot = yield* driver.look()
        const field = findSearchField(usable(snapshot))
        if (field === undefined) {
          return yield* new CompoundError({
            tool: "search",
            reason: new ControlNotFound({
              control: "search field",
              url: snapshot.url,
              hint: "navigate to a page with a search box, or give selectors.input",
            }),
          })
        }
        input = field.ref
      }
      yield* fillTool.run({ target: input, value: query })
      const result =
        selectors?.submit === undefined
          ? yield* pressTool.run({ key: "Enter", target: input })
          : yield* clickTool.run({ target: selectors.submit })
      const resultCount = yield* pageCall(driver, "countItems")
      const noResults = resultCount === 0 ? yield* pageCall(driver, "noResultsText") : ""
      return {
        url: result.url,
        title: yield* driver.title,
        resultCount,
        ...(noResults !== "" ? { noResults } : {}),
        hint: result.hint,
      }
    }),
})
