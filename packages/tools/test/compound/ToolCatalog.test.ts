import { ToolRegistry } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { browserTools } from "../../src/browser/BrowserTools.ts"
import { compoundTools } from "../../src/compound/CompoundTools.ts"

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
})
