import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { testFilesByCost } from "../../vitest.cost.ts"

const repository = resolve(import.meta.dirname, "..", "..")
const scratch = mkdtempSync(join(tmpdir(), "sextant-cost-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A package folder holding the given test files, for the classifier to read. */
const packageWith = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(scratch, "package-"))
  mkdirSync(join(root, "test"))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, "test", name), text)
  return root
}

describe("testFilesByCost (vitest.cost.ts)", () => {
  it("puts a file that spawns an MCP server over stdio, or calls an MCP tool, with the browser tests", () => {
    const root = packageWith({
      "Stdio.test.ts": `import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"\nnew StdioClientTransport({ command: "node" })\n`,
      "ToolCall.test.ts": `await client.callTool({ name: "browser_navigate", arguments: {} })\n`,
      "Pure.test.ts": `import { listTools } from "../src/index.ts"\nlistTools()\n`,
    })
    expect(testFilesByCost(root)).toEqual({
      unit: ["test/Pure.test.ts"],
      browser: ["test/Stdio.test.ts", "test/ToolCall.test.ts"],
    })
  })

  it("counts a test helper's browser for the files that import it, and leaves slow-set files out", () => {
    const root = packageWith({
      "helper.ts": `import { openTestBrowser } from "@sextant/fixture-site/test-browser"\n`,
      "UsesHelper.test.ts": `import { open } from "./helper.ts"\n`,
      "Long.slow.test.ts": `import { openTestBrowser } from "@sextant/fixture-site/test-browser"\n`,
    })
    expect(testFilesByCost(root)).toEqual({ unit: [], browser: ["test/UsesHelper.test.ts"] })
  })

  it("classes the MCP package's stdio and tool-calling tests as browser tests, its tool list as unit", () => {
    const { unit, browser } = testFilesByCost(join(repository, "packages", "mcp"))
    expect(browser).toEqual(
      expect.arrayContaining([
        "test/McpServer.test.ts",
        "test/HostileMcpUpload.test.ts",
        "test/HostileMcpSecrets.test.ts",
        "test/HostileMcpStrictGuard.test.ts",
      ]),
    )
    expect(unit).toEqual(expect.arrayContaining(["test/ToolList.test.ts", "test/HttpServer.test.ts"]))
  })
})
