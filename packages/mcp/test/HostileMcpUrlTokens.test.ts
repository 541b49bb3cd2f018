import { type FixtureSite, LINK_SIGN_IN_TOKENS, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type HttpMcpServer, serveHttp } from "../src/index.ts"
import { connectClient, textOf } from "./support/HttpClient.ts"

/**
 * An MCP client (the SDK's, over HTTP) on a site that signs in by link and puts the session in the URL
 * of the page it lands on (`/hostile/link-sign-in/home?session_token=…#access_token=…`), in real
 * headless Chromium: no answer the model reads — the click that lands there, a look, the tab list, a
 * wait, back and a run from there — repeats a token, as a run's trace and the explorer's map do not.
 */

let site: FixtureSite
const servers: Array<HttpMcpServer> = []

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 3 })
}, 60_000)

afterAll(async () => {
  await site?.close()
})

// Each test's servers close when it ends, giving the worker's shared Chromium back for the next one.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const tokensIn = (text: string): ReadonlyArray<string> =>
  Object.values(LINK_SIGN_IN_TOKENS).filter((token) => text.includes(token))

describe("a session token a site puts in the URL of a page an MCP client reaches", () => {
  it("is hidden in every answer: act, look, tabs, wait, back, go and run", async () => {
    const server = await serveHttp({ shareBrowser: true })
    servers.push(server)
    const { call, refOf } = await connectClient(server)
    const answers: Record<string, string> = {}
    answers.go = textOf(await call("go", { url: `${site.url}/hostile/link-sign-in` }))
    const open = await refOf(/Open my account/)
    answers.act = textOf(await call("act", { ref: open, op: "click" }))
    answers.look = textOf(await call("look", {}))
    answers.tabs = textOf(await call("tabs", {}))
    answers.wait = textOf(await call("wait", { for: "#api-session", ms: 5000 }))
    // The client reached the signed-in page: the token was there to leak.
    expect(answers.look).toContain("Your account")
    answers.run = textOf(await call("run", { goal: "click Orders" }))
    expect(answers.run).toMatch(/^COMPLETED/)
    answers.back = textOf(await call("back", {}))
    const showing = Object.entries(answers).flatMap(([tool, text]) =>
      tokensIn(text).length > 0
        ? [`${tool}: ${text.split("\n").find((line) => tokensIn(line).length > 0)}`]
        : [],
    )
    expect(showing).toEqual([])
    // The page is still named, its token by a placeholder the model cannot type.
    expect(answers.look).toContain("/hostile/link-sign-in/home?session_token=<secret:page_url_session_token>")
  }, 120_000)
})
