import type { AnyTool } from "@sextant/core"
import { detailPageExtractorTool } from "./DetailPageExtractor.ts"
import { extractListTool } from "./ExtractList.ts"
import { fillFormTool } from "./FillForm.ts"
import { loginTool } from "./Login.ts"
import { paginationTool } from "./Pagination.ts"
import { searchTool } from "./Search.ts"

/**
 * Every compound tool, for a `ToolRegistry`. They need the `BrowserDriver` service;
 * `detailPageExtractor` also needs an `HttpSession` (e.g. `FetchHttpSession.layer()`).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ToolRegistry } from "@sextant/core"
 * import { browserTools, compoundTools } from "@sextant/tools"
 * const registry = Effect.runSync(ToolRegistry.make([...browserTools, ...compoundTools]))
 * ```
 */
export const compoundTools: ReadonlyArray<AnyTool> = [
  loginTool,
  searchTool,
  fillFormTool,
  paginationTool,
  extractListTool,
  detailPageExtractorTool,
]
