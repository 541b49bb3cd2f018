import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { gallerySections, runGallery } from "../src/gallery/GalleryBench.ts"
import { selectInstructions } from "../src/gallery/GallerySection.ts"
import {
  FROZEN_SHA256,
  frozenHash,
  HOLDOUT_SHA256,
  holdoutHash,
  loadFresh2Instructions,
  loadFresh3Instructions,
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
      [
        ...loadInstructions(),
        ...loadFreshInstructions(),
        ...loadFresh2Instructions(),
        ...loadFresh3Instructions(),
      ].map((instruction) => instruction.page),
    )
    for (const page of pages) {
      const response = await fetch(`${site!.url}/gallery/${page}`)
      expect(response.status, page).toBe(200)
    }
  })

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
