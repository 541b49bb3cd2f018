import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))
const user = FIXTURE_USERS[0]!

type Answer = {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>
  isError?: boolean
}

/** Spawns `sextant-mcp` with these flags and connects the SDK's own client to it over stdio. */
const connect = async (flags: ReadonlyArray<string>) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--conditions=sextant-source", bin, ...flags],
    env: { ...(process.env as Record<string, string>), SEXTANT_SECRET_PASSWORD: user.password },
    stderr: "pipe",
  })
  const client = new Client({ name: "sextant-test", version: "0.0.0" })
  await client.connect(transport)
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Answer
  return { client, transport, call }
}

const textOf = (answer: Answer): string => answer.content.map((block) => block.text ?? "").join("\n")

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 3 })
})
afterAll(async () => {
  await site?.close()
})

describe("the Sextant MCP server through the SDK client over stdio", () => {
  let session: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    session = await connect(["--allowed-origin", site.url, "--allow-submit", "--secret", "password"])
  }, 60_000)
  afterAll(async () => {
    await session?.client.close()
  })

  it("lists the browser tools, without eval unless it is enabled, in at most 600 o200k tokens", async () => {
    const { tools } = await session.client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      "look",
      "act",
      "go",
      "back",
      "wait",
      "screenshot",
      "run",
      "tabs",
    ])
    expect(countTokens(JSON.stringify({ tools }))).toBeLessThanOrEqual(600)
  })

  it("logs in on the fixture site with go, look and act, never echoing the password", async () => {
    const opened = await session.call("go", { url: `${site.url}/login` })
    expect(opened.isError).toBeUndefined()
    expect(textOf(opened)).toContain(`${site.url}/login`)
    expect(textOf(opened)).toMatch(/next: .*textbox "Email"/)

    const looked = textOf(await session.call("look", { mode: "interactive" }))
    const refOf = (pattern: RegExp) => {
      const line = looked.split("\n").find((candidate) => pattern.test(candidate))
      const ref = line?.match(/^(e\d+) /)?.[1]
      if (ref === undefined) throw new Error(`no ${pattern} in the outline:\n${looked}`)
      return ref
    }
    const email = refOf(/^e\d+ textbox Email/)
    const password = refOf(/^e\d+ textbox Password/)
    const signIn = refOf(/^e\d+ button Sign in/)

    expect(
      (await session.call("act", { ref: email, op: "input", value: user.email })).isError,
    ).toBeUndefined()
    const typed = await session.call("act", { ref: password, op: "input", value: "<secret:password>" })
    expect(typed.isError).toBeUndefined()
    const clicked = await session.call("act", { ref: signIn, op: "click" })
    expect(clicked.isError).toBeUndefined()
    expect(textOf(clicked)).toContain("NavigationOccurred")
    expect(textOf(clicked)).toContain(`now at ${site.url}/dashboard`)

    const dashboard = textOf(await session.call("look", {}))
    expect(dashboard).toContain("Welcome, Alice")
    for (const answer of [looked, textOf(typed), textOf(clicked), dashboard]) {
      expect(answer).not.toContain(user.password)
    }
  })

  it("says what changed since the last look when asked for a diff", async () => {
    const relative = await session.call("go", { url: "/products" })
    expect(textOf(relative)).toContain(`${site.url}/products`)
    const full = textOf(await session.call("look", {}))
    const diff = textOf(await session.call("look", { diff: true }))
    expect(diff).toContain("changes since last look")
    expect(diff.length).toBeLessThan(full.length)
  })

  it("refuses an origin that is not allowed and a javascript: URL, naming the guardrail", async () => {
    const foreign = await session.call("go", { url: "http://127.0.0.2:9/" })
    expect(foreign.isError).toBe(true)
    expect(textOf(foreign)).toContain("allowed-origins")
    expect(textOf(foreign)).toContain("http://127.0.0.2:9 is not an allowed origin")
    const script = await session.call("go", { url: "javascript:alert(1)" })
    expect(script.isError).toBe(true)
    expect(textOf(script)).toContain("url-scheme")
  })

  it("answers a bad argument with the field's name and what is allowed", async () => {
    const badOp = await session.call("act", { ref: "e1", op: "smash" })
    expect(badOp.isError).toBe(true)
    expect(textOf(badOp)).toMatch(/^act: invalid arguments: op: Invalid option: expected one of "click"/)
    const missing = await session.call("go", {})
    expect(textOf(missing)).toContain("go: invalid arguments: url:")
    const extra = await session.call("look", { depth: 3 })
    expect(textOf(extra)).toContain("depth")
    const secret = await session.call("act", { ref: "e1", op: "input", value: "<secret:pin>" })
    expect(textOf(secret)).toBe("value: no secret named pin: known secrets: password")
  })

  it("returns a screenshot as a PNG image block", async () => {
    const shot = await session.call("screenshot")
    expect(shot.content).toHaveLength(1)
    const [block] = shot.content
    expect(block?.type).toBe("image")
    expect(block?.mimeType).toBe("image/png")
    const png = Buffer.from(block?.data ?? "", "base64")
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect(png.length).toBeGreaterThan(1000)
  })

  it("lists the tabs with the active one marked", async () => {
    const listed = textOf(await session.call("tabs"))
    expect(listed).toMatch(new RegExp(`^0\\* .* — ${site.url}/products`))
  })

  it("runs a whole goal through the executor and reports its verified outcome", async () => {
    await session.call("go", { url: `${site.url}/logout` })
    const ran = await session.call("run", {
      goal: `log in as ${user.email} with password <secret:password>`,
      url: `${site.url}/login`,
    })
    expect(textOf(ran)).toMatch(/^COMPLETED in \d+ steps/)
    expect(ran.isError).toBeUndefined()
    expect(textOf(ran)).not.toContain(user.password)
    const failed = await session.call("run", { goal: "frobnicate the moon", url: `${site.url}/` })
    expect(failed.isError).toBe(true)
    expect(textOf(failed)).toMatch(/^FAILED in 0 steps \(closed\)\ncannot understand/)
  })

  it("runs a goal from the page as the client left it, step by step, without loading it again", async () => {
    await session.call("go", { url: `${site.url}/logout` })
    await session.call("go", { url: `${site.url}/login` })
    const looked = textOf(await session.call("look", { mode: "interactive" }))
    const email = looked
      .split("\n")
      .find((line) => /^e\d+ textbox Email/.test(line))
      ?.match(/^(e\d+) /)?.[1]
    expect(email).toBeDefined()
    await session.call("act", { ref: email, op: "input", value: user.email })
    // The e-mail typed by the client is on the page only: loading the page again would lose it.
    const ran = await session.call("run", { goal: "type <secret:password> into Password and click Sign in" })
    expect(textOf(ran)).toMatch(/^COMPLETED in \d+ steps/)
    expect(textOf(await session.call("look", {}))).toContain("Welcome, Alice")
  })
})

describe("a client that goes", () => {
  it("ends the server, which closes its browser and exits", async () => {
    const { client, transport, call } = await connect(["--eval"])
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toContain("eval")
    await call("go", { url: `${site.url}/` })
    expect(textOf(await call("eval", { js: "document.title" }))).toContain("Sextant")
    const pid = transport.pid
    expect(pid).toBeTypeOf("number")
    await client.close()
    const alive = () => {
      try {
        process.kill(pid!, 0)
        return true
      } catch {
        return false
      }
    }
    const deadline = Date.now() + 10_000
    while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(alive()).toBe(false)
  }, 60_000)
})
