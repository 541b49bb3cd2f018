import { describe, expect, it } from "vitest"
import { freshSections, freshSummary, type GalleryOutcome } from "../src/gallery/GalleryBench.ts"
import { selectInstructions } from "../src/gallery/GallerySection.ts"
import {
  FRESH3_PATH,
  FRESH3_SHA256,
  fresh3Hash,
  loadFresh2Instructions,
  loadFresh3Instructions,
  loadFreshInstructions,
  loadInstructions,
} from "../src/gallery/Instructions.ts"
import { sealedLoaderContract } from "./support/SealedSet.ts"

const entry = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  page: "recipe",
  family: "spinner",
  lang: "en",
  text: "Make it for 6 people",
  expect: { servings: 6 },
  ...extra,
})

/** The pages written for the fresh3 set (fixtures/site/src/internal/pages/gallery/Fresh3Pages.ts). */
const FRESH3_PAGES = ["hotel-booking", "recipe", "job-application", "support-ticket", "newsletter-prefs"]

describe("fresh3 instruction set loader", () => {
  sealedLoaderContract({
    set: "fresh3",
    load: loadFresh3Instructions,
    entry,
    ids: ["k001", "k002"],
    edit: ["6 people", "8 people"],
    malformed: [{ lang: "fr" }, "[0].lang]"],
  })

  it("keeps the committed fresh3 file exactly as committed", () => {
    expect(fresh3Hash()).toBe(FRESH3_SHA256)
    expect(FRESH3_PATH.endsWith("instructions.fresh3.json")).toBe(true)
  })

  it("holds about 100 instructions, ids k###, a fifth or so Chinese, 15% or so needing a model", () => {
    const fresh3 = loadFresh3Instructions()
    expect(fresh3.length).toBeGreaterThanOrEqual(100)
    expect(fresh3.every((instruction) => /^k\d{3}$/.test(instruction.id))).toBe(true)
    const share = (keep: (instruction: (typeof fresh3)[number]) => boolean) =>
      fresh3.filter(keep).length / fresh3.length
    expect(share((instruction) => instruction.lang === "zh")).toBeGreaterThanOrEqual(0.18)
    expect(share((instruction) => instruction.lang === "zh")).toBeLessThanOrEqual(0.25)
    const needsModel = share((instruction) => instruction.needsModel === true)
    expect(needsModel).toBeGreaterThanOrEqual(0.12)
    expect(needsModel).toBeLessThanOrEqual(0.18)
  })

  it("is mostly on its own five pages, every one of them, and partly on older gallery pages", () => {
    const fresh3 = loadFresh3Instructions()
    const own = fresh3.filter((instruction) => FRESH3_PAGES.includes(instruction.page))
    expect(new Set(own.map((instruction) => instruction.page))).toEqual(new Set(FRESH3_PAGES))
    expect(own.length / fresh3.length).toBeGreaterThanOrEqual(0.65)
    expect(own.length / fresh3.length).toBeLessThanOrEqual(0.75)
    const earlier = [...loadInstructions(), ...loadFreshInstructions(), ...loadFresh2Instructions()]
    const olderPages = new Set(earlier.map((instruction) => instruction.page))
    const rest = fresh3.filter((instruction) => !FRESH3_PAGES.includes(instruction.page))
    expect(rest.every((instruction) => olderPages.has(instruction.page))).toBe(true)
    expect(earlier.some((instruction) => FRESH3_PAGES.includes(instruction.page))).toBe(false)
  })

  it("shares no id with any other set and is selectable by its set name only once loaded", () => {
    const ids = new Set(loadFresh3Instructions().map((instruction) => instruction.id))
    const others = [...loadInstructions(), ...loadFreshInstructions(), ...loadFresh2Instructions()]
    expect(others.filter((instruction) => ids.has(instruction.id) || instruction.set === "fresh3")).toEqual(
      [],
    )
    expect(selectInstructions(loadFresh3Instructions(), ["fresh3"]).length).toBe(ids.size)
  })
})

const outcome = (
  id: string,
  set: "fresh2" | "fresh3",
  fields: Partial<GalleryOutcome> & Pick<GalleryOutcome, "solved" | "claimed" | "status">,
): GalleryOutcome => ({
  id,
  set,
  family: "spinner",
  lang: "en",
  mode: "agent",
  needsModel: false,
  message: "",
  text: "Set the servings so the recipe uses 480 g of rice",
  ms: 100,
  detail: "",
  ...fields,
})

describe("fresh3 figures", () => {
  const outcomes: ReadonlyArray<GalleryOutcome> = [
    outcome("k001", "fresh3", { solved: true, claimed: true, status: "COMPLETED" }),
    outcome("k002", "fresh3", {
      needsModel: true,
      solved: false,
      claimed: false,
      status: "FAILED",
      message: 'could not "uses 480 g of rice": that needs arithmetic',
    }),
    // A fresh2 outcome in the same list is not a fresh3 figure.
    outcome("m001", "fresh2", { solved: false, claimed: true, status: "COMPLETED" }),
  ]

  it("counts only the fresh3 outcomes when asked for fresh3", () => {
    expect(freshSummary(outcomes, "agent", "fresh3")).toEqual({
      total: 2,
      doable: { total: 1, solved: 1, percent: "100.0%" },
      needsModel: { total: 1, endedFailed: 1, failedNamingStep: 1 },
      falseCompleted: { doable: 0, needsModel: 0, total: 0, percent: "0.0%" },
    })
  })

  it("titles the tables and names the file of the fresh3 set", () => {
    const [table, byFamily] = freshSections(outcomes, 0, "fresh3")
    expect(table!.title).toBe(
      "Gallery, fresh3 set: doable solved, needs-model FAILED, false COMPLETED (seed 0)",
    )
    expect(table!.note).toContain("src/gallery/instructions.fresh3.json")
    expect(byFamily!.title).toBe("Gallery, fresh3 set: by family")
  })
})
