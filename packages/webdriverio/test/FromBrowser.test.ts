import { BrowserDriver } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPageAgent, WebdriverioDriver } from "../src/index.ts"
import { openUserBrowser } from "./support/UserBrowser.ts"

let site: FixtureSite
let browser: WebdriverIO.Browser | undefined

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
})

afterAll(async () => {
  await browser?.deleteSession().catch(() => undefined)
  await site?.close()
})

describe("fromBrowser: createPageAgent and WebdriverioDriver.layerFromBrowser on a browser the user owns", () => {
  it("drive the user's session and leave it running after close", async () => {
    browser = await openUserBrowser()
    const agent = await createPageAgent(browser)
    const went = await agent.go(`${site.url}/login`)
    expect(went).toMatchObject({ ok: true, title: expect.stringContaining("Sign in") })
    const page = await agent.look()
    if (!("tree" in page)) throw new Error(page.error)
    const email = page.actions.find((action) => action.name === "Email")!.ref
    expect(await agent.act(email, "input", "someone@example.com")).toMatchObject({ ok: true })
    await agent.close()

    // The session is the user's: still alive, still on the page Sextant left it on.
    expect(await browser.getUrl()).toBe(`${site.url}/login`)
    expect(
      await browser.execute(() => (document.querySelector("input[name=email]") as HTMLInputElement).value),
    ).toBe("someone@example.com")

    // The Effect layer over the same session: it drives the page and leaves the session open too.
    const title = await Effect.runPromise(
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${site.url}/products`)
        return (yield* driver.look()).title
      }).pipe(Effect.provide(WebdriverioDriver.layerFromBrowser(browser))),
    )
    expect(title).toContain("Products")
    expect(await browser.getUrl()).toBe(`${site.url}/products`)
    await browser.deleteSession()
    browser = undefined
  })
})
