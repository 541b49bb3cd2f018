/**
 * A model driving `sextant mcp` asks `act` to upload a file. The server uploads only from the folders
 * it was started with (`--allow-upload-dir DIR`, option `allowUploadDirs`), on the file's real path: a
 * file outside them, a `..` out of one and a symlink in one pointing elsewhere are refused, and a
 * server started with none refuses every upload. Each refusal names the MCP flag that changes it,
 * never a setting the MCP server does not read. Through the SDK's own client over stdio, on the
 * fixture site's contact form in real Chromium.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const BROWSER_TEST_MS = 60_000

type Answer = { content: Array<{ type: string; text?: string }>; isError?: boolean }
const textOf = (answer: Answer): string => answer.content.map((block) => block.text ?? "").join("\n")

let site: FixtureSite
let root: string
let uploads: string
let outside: string
beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  root = await mkdtemp(join(tmpdir(), "sextant-mcp-upload-"))
  uploads = join(root, "uploads")
  outside = join(root, "uploads-private")
  await mkdir(uploads)
  await mkdir(outside)
  await writeFile(join(uploads, "report.txt"), "the report")
  await writeFile(join(outside, "secret.txt"), "a secret")
  // A link inside the allowed folder that leads out of it.
  await symlink(join(outside, "secret.txt"), join(uploads, "innocent.txt"))
}, 60_000)
afterAll(async () => {
  await site?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

/** Spawns `sextant-mcp` in `root` with these flags and connects the SDK's client to it over stdio. */
const connect = async (flags: ReadonlyArray<string>) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--conditions=sextant-source", bin, "--eval", ...flags],
    cwd: root,
    stderr: "pipe",
  })
  const client = new Client({ name: "sextant-test", version: "0.0.0" })
  await client.connect(transport)
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Answer
  /** Opens the contact form and answers the ref of its file input. */
  const openForm = async () => {
    expect((await call("go", { url: `${site.url}/forms/contact` })).isError).toBeUndefined()
    const looked = textOf(await call("look", { mode: "interactive" }))
    const ref = looked
      .split("\n")
      .find((line) => /Attachment/.test(line))
      ?.match(/^(e\d+) /)?.[1]
    if (ref === undefined) throw new Error(`no file input in the outline:\n${looked}`)
    return ref
  }
  /** The name of the file the page's file input holds, or null. */
  const chosenFile = async () =>
    textOf(
      await call("eval", {
        js: "return document.querySelector('input[type=file]').files[0]?.name ?? null",
      }),
    )
  return { client, call, openForm, chosenFile }
}

describe("act uploads through sextant mcp --allow-upload-dir", () => {
  let session: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    // A relative folder, resolved against the folder the server is started in.
    session = await connect(["--allow-upload-dir", "uploads"])
  }, BROWSER_TEST_MS)
  afterAll(async () => {
    await session?.client.close()
  })

  it(
    "uploads a file inside the allowed folder",
    async () => {
      const ref = await session.openForm()
      const uploaded = await session.call("act", { ref, op: "upload", value: join(uploads, "report.txt") })
      expect(uploaded.isError, textOf(uploaded)).toBeUndefined()
      expect(await session.chosenFile()).toBe("report.txt")
    },
    BROWSER_TEST_MS,
  )

  it(
    "refuses a file outside it, a .. out of it and a symlink in it that leads out, naming the flag",
    async () => {
      const attempts = [
        { path: join(outside, "secret.txt"), says: "it is not inside an allowed upload folder" },
        {
          path: `${uploads}/../uploads-private/secret.txt`,
          says: `its real path ${join(outside, "secret.txt")} is not inside an allowed upload folder`,
        },
        {
          path: join(uploads, "innocent.txt"),
          says: `its real path ${join(outside, "secret.txt")} is not inside an allowed upload folder`,
        },
      ]
      for (const attempt of attempts) {
        const ref = await session.openForm()
        const refused = await session.call("act", { ref, op: "upload", value: attempt.path })
        expect(refused.isError).toBe(true)
        const said = textOf(refused)
        expect(said).toContain(
          `upload of ${JSON.stringify(attempt.path)} refused: ${attempt.says} (${uploads})`,
        )
        expect(said).toContain("add its folder with --allow-upload-dir DIR (option allowUploadDirs)")
        expect(said).not.toContain("constraints.allowedUploadDirs")
        expect(await session.chosenFile()).toBe("null")
      }
    },
    BROWSER_TEST_MS,
  )
})

describe("act uploads through sextant mcp started without --allow-upload-dir", () => {
  let session: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    session = await connect([])
  }, BROWSER_TEST_MS)
  afterAll(async () => {
    await session?.client.close()
  })

  it(
    "refuses every upload, also one from the folder it was started in, and names the MCP flag",
    async () => {
      const ref = await session.openForm()
      const refused = await session.call("act", { ref, op: "upload", value: join(uploads, "report.txt") })
      expect(refused.isError).toBe(true)
      const said = textOf(refused)
      expect(said).toContain(
        `upload of ${JSON.stringify(join(uploads, "report.txt"))} refused: no folder is allowed for uploads: add its folder with --allow-upload-dir DIR (option allowUploadDirs) if the task needs it`,
      )
      expect(said).not.toContain("constraints.allowedUploadDirs")
      expect(await session.chosenFile()).toBe("null")
    },
    BROWSER_TEST_MS,
  )
})
