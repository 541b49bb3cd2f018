import { type FixtureSite, LINK_SIGN_IN_TOKENS, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { lookAt } from "../src/internal/LookCommand.ts"
import { sink } from "./support/Sink.ts"

/**
 * `sextant look` on a sign-in link that lands on a page whose URL carries the session
 * (`?session_token=…#access_token=…`): what it prints is often pasted into a model's prompt, so the
 * tokens are shown as placeholders there, as a run's trace and the MCP server's answers show them.
 */

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite()
})
afterAll(async () => {
  await site?.close()
})

const look = async (json: boolean) => {
  const out = sink()
  const err = sink()
  const code = await lookAt(
    { url: `${site.url}/hostile/link-sign-in/open`, interactive: false, json, headless: true },
    out.stream,
    err.stream,
  )
  return { code, out: out.text(), err: err.text() }
}

describe("sextant look on a page whose URL carries a session token", () => {
  it("prints the page and its URL with the tokens hidden, as text and as JSON", async () => {
    for (const json of [false, true]) {
      const looked = await look(json)
      expect(looked.err).toBe("")
      expect(looked.code).toBe(0)
      expect(looked.out).toContain("/hostile/link-sign-in/home?session_token=<secret:page_url_session_token>")
      expect(looked.out).toContain("#access_token=<secret:page_url_access_token>")
      expect(looked.out).not.toContain(LINK_SIGN_IN_TOKENS.session)
      expect(looked.out).not.toContain(LINK_SIGN_IN_TOKENS.access)
      if (json) expect(JSON.parse(looked.out).tree).toContain("ref=")
    }
  }, 90_000)
})
