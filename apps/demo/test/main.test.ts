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
  ])(
    "answers %j with exit code 2, the option's name and the usage, no stack trace",
    async (args, message) => {
      const ran = await runDemo(args)
      expect(ran.code).toBe(2)
      expect(ran.output).toContain(message)
      expect(ran.output).toContain("usage: pnpm demo [--seed N]")
      expect(ran.output).not.toMatch(/\bat .*:\d+:\d+/)
    },
  )
})
