import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { slowTestFilesByCost, testFilesByCost } from "../../vitest.cost.ts"

const repository = resolve(import.meta.dirname, "..", "..")
const scratch = mkdtempSync(join(tmpdir(), "sextant-cost-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

// The names the classifier looks for, spelled in parts so that this file itself reads as a unit test.
const stdio = ["Stdio", "ClientTransport"].join("")
const callTool = [".call", "Tool("].join("")
const testBrowser = ["fixture-site/test", "-browser"].join("")

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
      "Stdio.test.ts": `import { ${stdio} } from "@modelcontextprotocol/sdk/client/stdio.js"\nnew ${stdio}({ command: "node" })\n`,
      "ToolCall.test.ts": `await client${callTool}{ name: "browser_navigate", arguments: {} })\n`,
      "Pure.test.ts": `import { listTools } from "../src/index.ts"\nlistTools()\n`,
    })
    expect(testFilesByCost(root)).toEqual({
      unit: ["test/Pure.test.ts"],
      browser: ["test/Stdio.test.ts", "test/ToolCall.test.ts"],
    })
  })

  it("puts a file that starts a child process and waits for it (spawnSync, execFileSync) with the browser tests", () => {
    const root = packageWith({
      "Waits.test.ts": `const run = ${["spawn", "Sync("].join("")}process.execPath, ["vitest.mjs", "run"])\n`,
      "WaitsForFile.test.ts": `const out = ${["execFile", "Sync("].join("")}"bash", ["-c", "true"])\n`,
      "Pure.test.ts": `import { listTools } from "../src/index.ts"\nlistTools()\n`,
    })
    expect(testFilesByCost(root)).toEqual({
      unit: ["test/Pure.test.ts"],
      browser: ["test/Waits.test.ts", "test/WaitsForFile.test.ts"],
    })
  })

  it("counts a test helper's browser for the files that import it, and leaves slow-set files out", () => {
    const root = packageWith({
      "helper.ts": `import { open } from "@sextant/${testBrowser}"\n`,
      "UsesHelper.test.ts": `import { open } from "./helper.ts"\n`,
      "Long.slow.test.ts": `import { open } from "@sextant/${testBrowser}"\n`,
    })
    expect(testFilesByCost(root)).toEqual({ unit: [], browser: ["test/UsesHelper.test.ts"] })
  })

  it("classes the MCP package's stdio and tool-calling tests as browser tests, its tool list and itself as unit", () => {
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
    expect(testFilesByCost(join(repository, "scripts")).unit).toContain("test/cost.test.ts")
  })

  it("classes the bench's gallery and conformance runs and the login demo, which launch their own browsers, as browser tests", () => {
    const { unit, browser } = testFilesByCost(join(repository, "packages", "bench"))
    expect(browser).toEqual(
      expect.arrayContaining([
        "test/Gallery.test.ts",
        "test/GalleryStatements.test.ts",
        "test/ConformanceSection.test.ts",
      ]),
    )
    expect(unit).toEqual(expect.arrayContaining(["test/Stats.test.ts", "test/Report.test.ts"]))
    expect(testFilesByCost(join(repository, "apps", "demo")).browser).toContain("test/LoginDemo.test.ts")
  })

  it("splits the slow set into the files that start Redis, PostgreSQL or a Grid and the others", () => {
    const root = packageWith({
      "Queue.slow.test.ts": `import { startRedis } from "@sextant/testing"\nawait startRedis()\n`,
      "Sweep.slow.test.ts": `import { startFixtureSite } from "@sextant/fixture-site"\n`,
      "Quick.test.ts": `import { startGrid } from "@sextant/testing"\n`,
    })
    expect(slowTestFilesByCost(root)).toEqual({
      services: ["test/Queue.slow.test.ts"],
      other: ["test/Sweep.slow.test.ts"],
    })
    const sextant = slowTestFilesByCost(join(repository, "packages", "sextant"))
    expect(sextant.services).toEqual(
      expect.arrayContaining(["test/QueueWorkers.slow.test.ts", "test/Grid.slow.test.ts"]),
    )
    expect(sextant.other).toEqual(
      expect.arrayContaining(["test/PackInstall.slow.test.ts", "test/TruthTable.slow.test.ts"]),
    )
  })
})
