import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { openTestBrowser } from "@sextant/fixture-site/test-browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Instruction,
  loadFresh2Instructions,
  loadFresh3Instructions,
  loadFreshInstructions,
} from "../src/gallery/Instructions.ts"

/**
 * The held-out sets written after the code are frozen (hash-checked by their loader), so their oracles
 * are checked against the pages here, in the slow set `.ci/run` runs, beside their hand-driven reference
 * solutions (`fixtures/site/test/FreshGallery.slow.test.ts`, `Fresh2Gallery.slow.test.ts`,
 * `Fresh3Solutions.slow.test.ts`): a page changed under a frozen set fails it there.
 */
describe("the frozen held-out sets against their pages in Chromium", () => {
  let site: FixtureSite | undefined
  beforeAll(async () => {
    site = await startFixtureSite({ port: 0, seed: 7 })
  })
  afterAll(async () => {
    await site?.close()
  })

  /**
   * Opens each page of `set` once with a probe run and checks every instruction against what the page
   * reports as it loads: each expected key is reported (or is one of `later`, reported only once
   * something happens), and the instruction as a whole is not met yet.
   */
  const unmetAtLoad = async (set: ReadonlyArray<Instruction>, later: RegExp) => {
    const browser = await openTestBrowser({ classic: true })
    try {
      for (const page of new Set(set.map((instruction) => instruction.page))) {
        const mine = set.filter((instruction) => instruction.page === page)
        const response = await fetch(`${site!.url}/gallery/runs`, {
          method: "POST",
          body: JSON.stringify({ page, expect: { __probe: true } }),
        })
        const { run, path } = (await response.json()) as { run: string; path: string }
        await browser.browser.url(`${site!.url}${path}`)
        await browser.browser.execute("return window.__galleryFlush()")
        const { state } = (await (await fetch(`${site!.url}/gallery/runs/${run}`)).json()) as {
          state: Record<string, unknown>
        }
        for (const instruction of mine) {
          const keys = Object.keys(instruction.expect)
          for (const key of keys)
            expect(key in state || later.test(key), `${instruction.id}: ${page} reports no "${key}"`).toBe(
              true,
            )
          const metAtLoad = keys.every((key) => {
            const expected = instruction.expect[key]
            const actual = state[key]
            return actual === undefined
              ? expected === false
              : String(actual) === String(expected) && typeof actual === typeof expected
          })
          expect(metAtLoad, `${instruction.id} is met before anything is done`).toBe(false)
        }
      }
    } finally {
      await browser.close()
    }
  }

  it("no fresh instruction is met by its page as it loads, and each names only keys its page reports", async () => {
    // Keys the pages report only once something happens: clicks, opened folders, chosen items.
    await unmetAtLoad(
      loadFreshInstructions(),
      /^(call|details|open|helpful|unhelpful|archived):|^(send|continue|trackGo|refundGo|saveAccount|signOutAll|clearHistory|signOut|sendSupport|forgot|wishlistWanted|checkAvailability|searchCars|saveSettings|opened|downloaded|deleted|undo|trash|star|share|print|download|comment|bell|rename|copy|history|continueHuman)$/,
    )
  }, 120_000)

  it("no fresh2 instruction is met by its page as it loads, and each names only keys its page reports", async () => {
    // As above, with the older pages' keys reported only once clicked or chosen (buttons, links,
    // menus, dialogs, the custom dropdowns and list boxes, the ARIA radio group, the autocomplete).
    await unmetAtLoad(
      loadFresh2Instructions(),
      /^(call|details|open|helpful|unhelpful|archived):|^(send|continue|trackGo|refundGo|saveAccount|signOutAll|clearHistory|signOut|sendSupport|forgot|checkAvailability|searchCars|saveSettings|opened|downloaded|deleted|undo|trash|star|print|download|comment|history|copy|continueHuman|publish|saveDraft|pricingTop|pricingFooter|start|confirm|claimOffer|notNow|acceptTerms|applyCoupon|frameSend|outerSend|cookieReject|subscribe|savedNickname|change|exportPdf|zoomIn|prefKeys|size|plan|language|timezone|destination)$/,
    )
  }, 120_000)

  it("no fresh3 instruction is met by its page as it loads, and each names only keys its page reports", async () => {
    // Keys reported only once something is clicked or chosen: the fresh3 pages' buttons, and on the
    // older pages their buttons, custom widgets and dialogs.
    await unmetAtLoad(
      loadFresh3Instructions(),
      /^(reserve|close|call|archived):|^(searchHotels|postComment|printRecipe|saveForLater|submitTicket|savePrefs|go|change|savedNickname|size|plan|language|saveSettings|send|trackGo|refundGo|star|share|saveAccount)$/,
    )
  }, 120_000)
})
