import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { type OpenAiServer, Reply, startOpenAiServer } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const CLI = join(import.meta.dirname, "..", "src", "cli.ts")
const BROWSER_TEST_MS = 90_000

let site: FixtureSite
let directory: string

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-cli-upload-"))
  mkdirSync(join(directory, "outbox"))
  writeFileSync(join(directory, "outbox", "note.txt"), "a note")
})
afterAll(async () => {
  await site?.close()
  rmSync(directory, { recursive: true, force: true })
})

const sextant = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const environment: Record<string, string | undefined> = {
      ...process.env,
      OPENAI_BASE_URL: undefined,
      OPENAI_API_KEY: undefined,
      SEXTANT_MODEL: undefined,
      OPENAI_MODEL: undefined,
      ...env,
    }
    for (const [name, value] of Object.entries(environment)) if (value === undefined) delete environment[name]
    const child = spawn(process.execPath, ["--conditions=sextant-source", CLI, ...args], {
      env: environment as NodeJS.ProcessEnv,
      cwd: directory,
      stdio: ["ignore", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += String(chunk)))
    child.stderr.on("data", (chunk) => (stderr += String(chunk)))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

/** `sextant run` with a model that plans one upload of `path` into the contact form. */
const runUpload = async (path: string, flags: ReadonlyArray<string>) => {
  await using server: OpenAiServer = await startOpenAiServer({
    model: "scripted-model",
    replies: (request) =>
      request.text.includes("Goal: put the note on the contact form")
        ? Reply.json({
            steps: [
              { tool: "navigate", args: { url: `${site.url}/forms/contact` } },
              { tool: "upload", args: { target: "#attachment", path } },
            ],
          })
        : Reply.json({ isComplete: true, summary: "attached the note", suggestions: [] }),
  })
  // Awaited here, so the model server is still up while the command runs.
  return await sextant(
    [
      "run",
      "put the note on the contact form",
      "--planner",
      "model",
      "--model",
      "scripted-model",
      "--base-url",
      server.baseURL,
      "--store",
      join(directory, "cli.db"),
      "--trace-dir",
      join(directory, "traces"),
      "--json",
      ...flags,
    ],
    { OPENAI_API_KEY: "test-key" },
  )
}

interface Ran {
  readonly observations: ReadonlyArray<{ tool: string; ok: boolean; error?: { message: string } }>
}
const uploadOf = (stdout: string) =>
  (JSON.parse(stdout) as Ran).observations.find((item) => item.tool === "upload")

describe("sextant run --allow-upload-dir", () => {
  it(
    "refuses an upload the model asks for when no folder is allowed, naming the flag",
    async () => {
      const ran = await runUpload("/etc/hostname", [])
      const upload = uploadOf(ran.stdout)
      expect(upload?.ok, ran.stderr).toBe(false)
      expect(upload?.error?.message).toContain("no folder is allowed for uploads")
      expect(upload?.error?.message).toContain("--allow-upload-dir")
    },
    BROWSER_TEST_MS,
  )

  it(
    "uploads from the folder the flag names (relative to the working directory), and nothing from outside it",
    async () => {
      const inside = await runUpload(join(directory, "outbox", "note.txt"), ["--allow-upload-dir", "outbox"])
      expect(uploadOf(inside.stdout)?.ok, inside.stderr).toBe(true)
      const outside = await runUpload("/etc/hostname", ["--allow-upload-dir", "outbox"])
      expect(uploadOf(outside.stdout)?.error?.message).toContain(
        `is not inside an allowed upload folder (${join(directory, "outbox")})`,
      )
    },
    BROWSER_TEST_MS * 2,
  )
})
