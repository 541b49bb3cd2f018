import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

// The `sextant mcp` bin as a client's config starts it (`"command": "sextant", "args": ["mcp"]`), from source.
const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url))
const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]
const TEST_MS = 180_000

type Answer = { content: Array<{ type: string; text?: string }>; isError?: boolean }
const textOf = (answer: Answer): string => answer.content.map((block) => block.text ?? "").join("\n")

let site: FixtureSite
let root: string

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  root = mkdtempSync(join(tmpdir(), "sextant-mcp-session-"))
})
afterAll(async () => {
  await site?.close()
  rmSync(root, { recursive: true, force: true })
})

/** Spawns `sextant mcp <flags>` in an empty working folder, with its own HOME and cache, and connects the SDK client. */
const connect = async (name: string, flags: ReadonlyArray<string>) => {
  const folder = (part: string) => mkdtempSync(join(root, `${name}-${part}-`))
  const cwd = folder("cwd")
  const home = folder("home")
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--conditions=sextant-source", cli, "mcp", ...flags],
    cwd,
    env: {
      ...(process.env as Record<string, string>),
      HOME: home,
      XDG_CACHE_HOME: join(home, ".cache"),
      TMPDIR: folder("tmp"),
    },
    stderr: "pipe",
  })
  const client = new Client({ name: "sextant-first-hour", version: "0.0.0" })
  await client.connect(transport)
  const call = async (tool: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name: tool, arguments: args })) as Answer
  return { client, call, cwd, home }
}

describe("sextant mcp sized for an interactive session", () => {
  it(
    "takes 25 go calls and 3 form submissions with no cap by default, and writes nothing into the client's folder",
    async () => {
      const session = await connect("default", ["--allow-submit"])
      try {
        const pages = ["/products", "/search", "/forms/contact", "/login", "/products?page=2"]
        for (let index = 0; index < 25; index++) {
          const answer = await session.call("go", { url: `${site.url}${pages[index % pages.length]}` })
          expect(answer.isError, `go #${index + 1}: ${textOf(answer)}`).toBeUndefined()
        }
        const before = site.submissions().filter((entry) => entry.path === "/login").length
        for (let round = 1; round <= 3; round++) {
          expect((await session.call("go", { url: `${site.url}/login` })).isError).toBeUndefined()
          const looked = textOf(await session.call("look", { mode: "interactive" }))
          const refOf = (pattern: RegExp) => {
            const ref = looked
              .split("\n")
              .find((line) => pattern.test(line))
              ?.match(/^(e\d+) /)?.[1]
            if (ref === undefined) throw new Error(`no ${pattern} in the outline:\n${looked}`)
            return ref
          }
          for (const [pattern, value] of [
            [/^e\d+ textbox Email/, alice.email],
            [/^e\d+ textbox Password/, alice.password],
          ] as const) {
            const typed = await session.call("act", { ref: refOf(pattern), op: "input", value })
            expect(typed.isError, textOf(typed)).toBeUndefined()
          }
          const sent = await session.call("act", { ref: refOf(/^e\d+ button Sign in/), op: "click" })
          expect(sent.isError, `submission #${round}: ${textOf(sent)}`).toBeUndefined()
          expect(textOf(sent)).toContain(`now at ${site.url}/dashboard`)
        }
        expect(site.submissions().filter((entry) => entry.path === "/login").length - before).toBe(3)
      } finally {
        await session.client.close()
      }
      // No traces, store or profile in the folder the client started the server from; no traces in
      // the cache either without --trace (Chromium keeps its own ~/.cache/chromium and ~/.config).
      expect(readdirSync(session.cwd)).toEqual([])
      expect(existsSync(join(session.home, ".cache", "sextant"))).toBe(false)
    },
    TEST_MS,
  )

  it(
    "names the sextant mcp flag that changes each guardrail it refuses with",
    async () => {
      const session = await connect("limits", ["--allowed-origin", site.url, "--max-navigations", "2"])
      try {
        const opened = await session.call("go", { url: `${site.url}/login` })
        expect(opened.isError, textOf(opened)).toBeUndefined()
        const elsewhere = await session.call("go", { url: "http://127.0.0.1:9/" })
        expect(elsewhere.isError).toBe(true)
        expect(textOf(elsewhere)).toContain("add it with --allowed-origin")

        const looked = textOf(await session.call("look", { mode: "interactive" }))
        const signIn = looked
          .split("\n")
          .find((line) => /^e\d+ button Sign in/.test(line))
          ?.match(/^(e\d+) /)?.[1]
        const submit = await session.call("act", { ref: signIn, op: "click" })
        expect(submit.isError).toBe(true)
        expect(textOf(submit)).toContain("allow it with --allow-submit")

        const signOut = await session.call("go", { url: `${site.url}/logout` })
        expect(signOut.isError).toBe(true)
        expect(textOf(signOut)).toContain("lift the defaults with --allow-destructive")

        expect((await session.call("go", { url: `${site.url}/products` })).isError).toBeUndefined()
        const third = await session.call("go", { url: `${site.url}/search` })
        expect(third.isError).toBe(true)
        expect(textOf(third)).toContain(
          "the navigation quota of 2 is used up: raise it with --max-navigations",
        )
      } finally {
        await session.client.close()
      }
    },
    TEST_MS,
  )

  it(
    "with --trace writes the traces of run calls under XDG_CACHE_HOME/sextant/traces, not into the client's folder",
    async () => {
      const session = await connect("trace", ["--trace"])
      try {
        const ran = await session.call("run", {
          goal: "extract name and price of the products",
          url: `${site.url}/products`,
        })
        const trace = join(session.home, ".cache", "sextant", "traces")
        expect(textOf(ran)).toMatch(new RegExp(`^trace: ${trace}/[0-9a-f-]+\\.jsonl$`, "m"))
        expect(readdirSync(trace).some((file) => file.endsWith(".jsonl"))).toBe(true)
      } finally {
        await session.client.close()
      }
      expect(readdirSync(session.cwd)).toEqual([])
    },
    TEST_MS,
  )
})
