import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url))

const runDemo = (args: ReadonlyArray<string>): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=sextant-source", main, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    child.stdout.on("data", (chunk) => {
      output += String(chunk)
    })
    child.stderr.on("data", (chunk) => {
      output += String(chunk)
    })
    child.once("error", reject)
    child.once("close", (code) => resolve({ code, output }))
  })

// Each of these fails before the site or a browser starts, so the test needs neither.
describe("the demo's command line", () => {
  it.each([
    [["--seed", "abc"], "--seed must be a whole number ≥ 0, got abc"],
    [["--", "--seed=-2"], "--seed must be a whole number ≥ 0, got -2"],
    [["--speed", "3"], "Unknown option '--speed'"],
    [["extra"], "Unexpected argument 'extra'"],
    [["--base-url", "localhost:11434"], "--base-url must be an http or https URL, got localhost:11434"],
    [["--api-key-env", "my key"], "--api-key-env must name an environment variable, got my key"],
  ])(
    "answers %j with exit code 2, the option's name and the usage, no stack trace",
    async (args, message) => {
      const ran = await runDemo(args)
      expect(ran.code).toBe(2)
      expect(ran.output).toContain(message)
      expect(ran.output).toContain("usage: pnpm demo [--seed N] [--model NAME]")
      expect(ran.output).not.toMatch(/\bat .*:\d+:\d+/)
    },
  )
})
