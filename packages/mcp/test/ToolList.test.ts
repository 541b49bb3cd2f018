import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import { describe, expect, it } from "vitest"
import { listTools, parseMcpCommand } from "../src/index.ts"

describe("the tool list a client loads", () => {
  it("costs at most 600 o200k tokens with every tool offered", () => {
    const tools = listTools({ allowEval: true })
    expect(tools).toHaveLength(9)
    expect(countTokens(JSON.stringify({ tools }))).toBeLessThanOrEqual(600)
  })

  it("gives every tool a JSON Schema object input and a one-line description", () => {
    for (const tool of listTools({ allowEval: true })) {
      expect(tool.inputSchema.type).toBe("object")
      expect(tool.inputSchema).not.toHaveProperty("$schema")
      expect(tool.description).not.toContain("\n")
    }
  })
})

describe("the flags of sextant mcp", () => {
  it("turn into guardrails, secrets and the transport", () => {
    const command = parseMcpCommand([
      "--http",
      "--port",
      "8931",
      "--allowed-origin",
      "http://127.0.0.1:4000",
      "--allow-submit",
      "--max-clicks",
      "5",
      "--secret",
      "password",
      "--eval",
    ])
    expect(command.http).toEqual({ port: 8931 })
    expect(command.options.constraints).toEqual({
      allowedOrigins: ["http://127.0.0.1:4000"],
      allowFormSubmission: true,
      quotas: { clicks: 5 },
    })
    expect(command.options.secrets).toEqual(["password"])
    expect(command.options.allowEval).toBe(true)
  })

  it.each([
    [["--max-clicks=-1"], "--max-clicks must be a whole number ≥ 0, got -1"],
    [["--port", "80"], "--port needs --http"],
    [["--allowed-origin", "ftp://x"], "--allowed-origin must be an http(s) URL"],
    [["--speed"], "Unknown option '--speed'"],
  ])("refuse %j naming the flag", (args, message) => {
    expect(() => parseMcpCommand(args)).toThrow(message)
  })
})
