import { join } from "node:path"
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
    ])
    expect(command.http).toEqual({ port: 8931, allowedHosts: [], allowedOriginHeaders: [] })
    expect(command.options.constraints).toEqual({
      allowedOrigins: ["http://127.0.0.1:4000"],
      allowFormSubmission: true,
      quotas: { clicks: 5 },
    })
    expect(command.options.secrets).toEqual(["password"])
    expect(command.options.allowEval).toBe(false)
    expect(parseMcpCommand(["--eval"]).options.allowEval).toBe(true)
  })

  it("turn into the HTTP gate, the idle timeout and the secret origins", () => {
    const command = parseMcpCommand([
      "--http",
      "--allowed-host",
      "mcp.internal:8080",
      "--allowed-origin-header",
      "http://localhost:6274",
      "--idle-timeout",
      "60",
      "--secret-origin",
      "http://127.0.0.1:4000",
    ])
    expect(command.http).toEqual({
      port: 0,
      allowedHosts: ["mcp.internal:8080"],
      allowedOriginHeaders: ["http://localhost:6274"],
      idleTimeoutMs: 60_000,
    })
    expect(command.options.secretOrigins).toEqual(["http://127.0.0.1:4000"])
  })

  it("take upload folders, repeated, relative ones resolved against the working folder", () => {
    const command = parseMcpCommand(["--allow-upload-dir", "outbox", "--allow-upload-dir", "/srv/files"])
    expect(command.options.allowUploadDirs).toEqual([join(process.cwd(), "outbox"), "/srv/files"])
    expect(parseMcpCommand([]).options.allowUploadDirs).toEqual([])
  })

  it.each([
    [["--allow-upload-dir", " "], "--allow-upload-dir must name a folder"],
    [["--idle-timeout", "30"], "--idle-timeout needs --http"],
    [["--http", "--idle-timeout", "0"], "--idle-timeout must be a whole number ≥ 1, got 0"],
    [["--allowed-host", "x:1"], "--allowed-host needs --http"],
    [["--secret-origin", "javascript:x"], "--secret-origin must be an http(s) URL"],
    [["--max-clicks=-1"], "--max-clicks must be a whole number ≥ 0, got -1"],
    [["--port", "80"], "--port needs --http"],
    [["--allowed-origin", "ftp://x"], "--allowed-origin must be an http(s) URL"],
    [["--speed"], "Unknown option '--speed'"],
    [
      ["--allowed-orign", "http://127.0.0.1:4000"],
      "Unknown option '--allowed-orign': did you mean --allowed-origin?",
    ],
    [["--alow-submit"], "Unknown option '--alow-submit': did you mean --allow-submit?"],
    [
      ["--eval", "--secret", "password"],
      "--eval cannot go with --secret: a session with secrets refuses eval",
    ],
  ])("refuse %j naming the flag", (args, message) => {
    expect(() => parseMcpCommand(args)).toThrow(message)
  })
})
