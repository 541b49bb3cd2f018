import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { describe, expect, it } from "vitest"

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url))

describe("sextant mcp", () => {
  it("serves the Sextant tools to an MCP client over stdio, with eval when asked", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--conditions=sextant-source", cli, "mcp", "--eval", "--allow-submit"],
      stderr: "pipe",
    })
    const client = new Client({ name: "sextant-cli-test", version: "0.0.0" })
    await client.connect(transport)
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual([
        "look",
        "act",
        "go",
        "back",
        "wait",
        "eval",
        "screenshot",
        "run",
        "tabs",
      ])
    } finally {
      await client.close()
    }
  })

  it("answers a bad flag with exit code 2, the flag's name and the usage", async () => {
    const ran = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ["--conditions=sextant-source", cli, "mcp", "--max-clicks=lots"],
        {
          stdio: ["ignore", "ignore", "pipe"],
        },
      )
      let stderr = ""
      child.stderr.on("data", (chunk) => {
        stderr += String(chunk)
      })
      child.once("error", reject)
      child.once("close", (code) => resolve({ code, stderr }))
    })
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain("--max-clicks must be a whole number ≥ 0, got lots")
    expect(ran.stderr).toContain("usage: sextant mcp [options]")
    expect(ran.stderr).not.toMatch(/\bat .*:\d+:\d+/)
  })
})
