import type { AnyTool } from "@sextant/core"
import { clickMatchesTool, clickNthAnchorTool, clickTextMatchesTool } from "./ClickMatching.ts"
import { extractTool } from "./Extract.ts"
import {
  checkTool,
  clickTool,
  dragTool,
  fillTool,
  focusTool,
  hoverTool,
  pressTool,
  scrollInsideTool,
  selectTextTool,
  selectTool,
  setValueTool,
  uncheckTool,
  uploadTool,
} from "./Input.ts"
import { lookTool } from "./Look.ts"
import { backTool, navigateTool, refreshTool, stopTool } from "./Navigation.ts"
import { pickDateTool } from "./PickDate.ts"
import { screenshotTool } from "./Screenshot.ts"
import {
  scrollDownTool,
  scrollToBottomTool,
  scrollToMiddleTool,
  scrollTool,
  scrollToScreenTool,
  scrollToTopTool,
  scrollUpTool,
} from "./Scroll.ts"
import { delayTool, waitForTool } from "./Wait.ts"

/**
 * Every browser tool, for a `ToolRegistry`. They need the `BrowserDriver` service and nothing else.
 * The six page-scroll tools folded into `scroll` are here too, deprecated: they run for stored plans
 * but no catalog lists them.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ToolRegistry } from "@sextant/core"
 * import { browserTools } from "@sextant/tools"
 * const registry = Effect.runSync(ToolRegistry.make(browserTools))
 * ```
 */
export const browserTools: ReadonlyArray<AnyTool> = [
  navigateTool,
  clickTool,
  fillTool,
  pressTool,
  hoverTool,
  focusTool,
  setValueTool,
  pickDateTool,
  dragTool,
  selectTextTool,
  scrollInsideTool,
  checkTool,
  uncheckTool,
  selectTool,
  uploadTool,
  scrollDownTool,
  scrollUpTool,
  scrollToTopTool,
  scrollToBottomTool,
  scrollToMiddleTool,
  scrollToScreenTool,
  scrollTool,
  waitForTool,
  extractTool,
  clickTextMatchesTool,
  clickMatchesTool,
  clickNthAnchorTool,
  screenshotTool,
  delayTool,
  backTool,
  refreshTool,
  stopTool,
  lookTool,
]
