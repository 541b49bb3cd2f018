import { ToolRegistry } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { browserTools } from "../../src/browser/BrowserTools.ts"
import { compoundTools } from "../../src/compound/CompoundTools.ts"
import { crawlTool, submitUrlsTool } from "../../src/session/Crawl.ts"
import { loadAndParseTool } from "../../src/session/LoadAndParse.ts"
import { sqlTool } from "../../src/session/Sql.ts"

describe("the tool catalog", () => {
  it("registers every browser and compound tool under a unique name and renders their input schemas", () => {
    const registry = Effect.runSync(ToolRegistry.make([...browserTools, ...compoundTools]))
    expect(registry.names).toHaveLength(browserTools.length + compoundTools.length)
    const catalog = registry.catalog()
    for (const entry of catalog) expect(entry.inputSchema.type).toBe("object")
    expect(registry.renderCatalog()).toContain(
      "- login(username: string, password: string, selectors?: object)",
    )
  })

  it("decodes a model's arguments and names the field that is wrong", async () => {
    const registry = Effect.runSync(ToolRegistry.make([...browserTools, ...compoundTools]))
    const error = await Effect.runPromise(Effect.flip(registry.decodeArgs("scrollToMiddle", { ratio: 2 })))
    expect(error.message).toContain("ratio")
  })

  it("puts every tool in its capability group, the session tools in `session`", () => {
    const tools = [...browserTools, ...compoundTools, loadAndParseTool, sqlTool, crawlTool, submitUrlsTool]
    const listed = tools.filter((one) => one.deprecated === undefined)
    const byGroup = Object.fromEntries(
      [...new Set(listed.map((tool) => tool.group))].map((group) => [
        group,
        listed
          .filter((tool) => tool.group === group)
          .map((tool) => tool.name)
          .sort(),
      ]),
    )
    expect(byGroup).toEqual({
      core: ["back", "click", "extract", "look", "navigate", "press", "refresh", "scroll", "stop", "waitFor"],
      forms: [
        "check",
        "fill",
        "fillForm",
        "focus",
        "login",
        "pickDate",
        "search",
        "select",
        "setValue",
        "uncheck",
      ],
      files: ["upload"],
      extraction: ["detailPageExtractor", "extractList", "pagination", "screenshot"],
      gestures: [
        "clickMatches",
        "clickNthAnchor",
        "clickTextMatches",
        "delay",
        "drag",
        "hover",
        "scrollInside",
        "selectText",
      ],
      session: ["crawl", "loadAndParse", "sql", "submitUrls"],
    })
  })
})
