import { createHash } from "node:crypto"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPageAgent, launchPageAgent, type PageAgent } from "../src/index.ts"
import { openUserBrowser } from "./support/UserBrowser.ts"

/**
 * The agent API's `screenshot()` hands out an image no redactor can read. What the agent typed into a
 * plain text field (a token, a card number, a password in a field that is not a password field) shows
 * there as text, so the page agents draw every text field's value masked while the image is taken, and
 * a page that breaks the masking gets an error, never an image. Real headless Chromium (WebdriverIO)
 * against the fixture site.
 *
 * Two values of the same length with no character in common go into the same field in turn: drawn
 * masked, both render to the same pixels; drawn as text, the different characters make the images differ.
 */

const FIRST = "hunter2-swordfish"
const SECOND = "QWXZVB7@KMPLNRJGY"

let site: FixtureSite
let browser: WebdriverIO.Browser | undefined
let agent: PageAgent | undefined

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
}, 60_000)

afterAll(async () => {
  await agent?.close()
  await browser?.deleteSession().catch(() => undefined)
  await site?.close()
})

const refOf = async (page: PageAgent, name: string): Promise<string> => {
  const looked = await page.look()
  if (!("tree" in looked)) throw new Error(`look failed: ${looked.error}`)
  const found = looked.actions.find((action) => action.name === name)
  if (found === undefined) throw new Error(`no "${name}" in ${looked.tree}`)
  return found.ref
}

// Images are compared by digest, so a failure names two short digests instead of two pages of base64.
const digest = (base64: string): string => createHash("sha256").update(base64, "base64").digest("hex")

const pngOf = (answer: Awaited<ReturnType<PageAgent["screenshot"]>>): string => {
  if (!answer.ok) throw new Error(`screenshot failed: ${answer.error}`)
  expect(answer.png.length).toBeGreaterThan(100)
  return digest(answer.png)
}

describe("the page agent's screenshot of a plain text field the agent typed into", () => {
  it("draws the typed value masked while the image is taken, and gives the field back afterwards", async () => {
    browser = await openUserBrowser()
    const owned = browser
    agent = await createPageAgent(owned)
    expect(await agent.go(`${site.url}/hostile/plain-field`)).toMatchObject({ ok: true })
    const code = await refOf(agent, "Code")
    const field = () => owned.$("#code")
    const fieldState = () =>
      owned.execute(() => {
        const input = document.querySelector<HTMLInputElement>("#code")!
        return {
          type: input.type,
          value: input.value,
          security: getComputedStyle(input).getPropertyValue("-webkit-text-security"),
        }
      })

    /** The field with `value` typed in: as the browser draws it, and as the agent's screenshot has it. */
    const typed = async (value: string) => {
      expect(await agent!.act(code, "input", value)).toMatchObject({ ok: true })
      const unmasked = digest(await owned.takeElementScreenshot(await field().elementId))
      const fromAgent = pngOf(await agent!.screenshot(code))
      // The field holds the value as plain text, before and after the agent's screenshot.
      expect(await fieldState()).toEqual({ type: "text", value, security: "none" })
      return { unmasked, fromAgent }
    }

    const first = await typed(FIRST)
    const second = await typed(SECOND)
    // Drawn as text, the two values differ on screen...
    expect(first.unmasked).not.toBe(second.unmasked)
    // ...and in the agent's screenshots they draw the same: the value was masked while it was taken.
    expect(first.fromAgent).toBe(second.fromAgent)

    // The whole viewport too: the agent's screenshot of the page with either value is the same image.
    const viewportSecond = pngOf(await agent.screenshot())
    expect(await agent.act(code, "input", FIRST)).toMatchObject({ ok: true })
    expect(pngOf(await agent.screenshot())).toBe(viewportSecond)
    expect(await fieldState()).toEqual({ type: "text", value: FIRST, security: "none" })
  }, 90_000)
})

describe("the page agent's screenshot of a page that cannot be masked", () => {
  it("answers MaskingFailed saying why and what to do, and no image", async () => {
    await using launched = await launchPageAgent()
    expect(await launched.go(`${site.url}/hostile/shown-secret?break=1`)).toMatchObject({ ok: true })
    const first = await refOf(launched, "First token")
    expect(await launched.act(first, "input", FIRST)).toMatchObject({ ok: true })
    // The page shows what was typed: its field turned into a text field holding the value.
    expect(
      await launched.eval("const f = document.querySelector('#first'); return [f.type, f.value]"),
    ).toMatchObject({ ok: true, result: ["text", FIRST] })

    for (const answer of [await launched.screenshot(), await launched.screenshot(first)]) {
      expect(answer).toMatchObject({ ok: false, reason: "MaskingFailed", retryable: false })
      expect(answer).not.toHaveProperty("png")
      const error = answer.ok ? "" : answer.error
      expect(error).toContain("no screenshot taken")
      expect(error).toContain("styles are locked on this page")
      expect(error).toContain("read the page with look instead")
    }
  }, 90_000)
})
