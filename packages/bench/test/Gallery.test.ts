import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { openTestBrowser } from "@sextant/fixture-site/test-browser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { gallerySections, runGallery } from "../src/gallery/GalleryBench.ts"
import { selectInstructions } from "../src/gallery/GallerySection.ts"
import {
  FROZEN_SHA256,
  frozenHash,
  HOLDOUT_SHA256,
  holdoutHash,
  type Instruction,
  loadFresh2Instructions,
  loadFreshInstructions,
  loadInstructions,
} from "../src/gallery/Instructions.ts"

describe("gallery instruction set", () => {
  const all = loadInstructions()

  it("keeps the frozen file exactly as committed", () => {
    expect(frozenHash()).toBe(FROZEN_SHA256)
  })

  it("keeps the held-out file exactly as committed", () => {
    expect(holdoutHash()).toBe(HOLDOUT_SHA256)
  })

  it("holds at least 200 tuned instructions, half or more of them frozen, in English and Chinese", () => {
    const tuned = all.filter((instruction) => instruction.set !== "holdout")
    const frozen = all.filter((instruction) => instruction.set === "frozen")
    expect(tuned.length).toBeGreaterThanOrEqual(200)
    expect(frozen.length * 2).toBeGreaterThanOrEqual(tuned.length)
    expect(new Set(all.map((instruction) => instruction.lang))).toEqual(new Set(["en", "zh"]))
  })

  it("holds a held-out set of at least 80 instructions in both languages, selectable by its name", () => {
    const held = selectInstructions(all, ["holdout"])
    expect(held.length).toBeGreaterThanOrEqual(80)
    expect(held.every((instruction) => instruction.set === "holdout" && instruction.id.startsWith("h"))).toBe(
      true,
    )
    expect(new Set(held.map((instruction) => instruction.lang))).toEqual(new Set(["en", "zh"]))
  })

  it("refuses a filter that matches nothing, naming it", () => {
    expect(() => selectInstructions(all, ["no-such-family"])).toThrow(
      "--instructions no-such-family matches no",
    )
  })
})

describe("gallery harness in Chromium", () => {
  let site: FixtureSite | undefined
  beforeAll(async () => {
    site = await startFixtureSite({ port: 0, seed: 7 })
  })
  afterAll(async () => {
    await site?.close()
  })

  it("every instruction names a gallery page that exists", async () => {
    const pages = new Set(
      [...loadInstructions(), ...loadFreshInstructions(), ...loadFresh2Instructions()].map(
        (instruction) => instruction.page,
      ),
    )
    for (const page of pages) {
      const response = await fetch(`${site!.url}/gallery/${page}`)
      expect(response.status, page).toBe(200)
    }
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

  it("scores a sample through runAgent and one-shot text-to-action by the page's oracle", async () => {
    const sample = selectInstructions(loadInstructions(), ["f043", "f063"])
    const outcomes = await runGallery({ base: site!.url, instructions: sample })
    expect(outcomes.map((outcome) => [outcome.id, outcome.mode])).toEqual([
      ["f043", "agent"],
      ["f043", "oneShot"],
      ["f063", "agent"],
      ["f063", "oneShot"],
    ])
    // "Check Cooking" and "Select Japan from the Country dropdown" reach the page state both ways,
    // and Sextant's own status says so.
    for (const outcome of outcomes) {
      expect(outcome.solved, `${outcome.id} ${outcome.mode}: ${outcome.detail}`).toBe(true)
      expect(outcome.claimed).toBe(true)
    }
    const [bySet] = gallerySections(outcomes, 7)
    expect(bySet!.rows[0]).toEqual([
      "all",
      "2/2",
      "100.0%",
      "100.0%",
      expect.stringMatching(/^\d+$/),
      "2/2",
      "100.0%",
    ])
  }, 60_000)
})
