import { describe, expect, it } from "vitest"
import { freshSections, freshSummary, type GalleryOutcome } from "../src/gallery/GalleryBench.ts"
import {
  FRESH2_PATH,
  FRESH2_SHA256,
  fresh2Hash,
  loadFresh2Instructions,
  loadFreshInstructions,
  loadInstructions,
} from "../src/gallery/Instructions.ts"
import { sealedLoaderContract } from "./support/SealedSet.ts"

const entry = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  page: "switches",
  family: "switch",
  lang: "en",
  text: "Turn Bluetooth on",
  expect: { bluetooth: true },
  ...extra,
})

describe("fresh2 instruction set loader", () => {
  sealedLoaderContract({
    set: "fresh2",
    load: loadFresh2Instructions,
    entry,
    ids: ["m001", "m002"],
    edit: ["Bluetooth on", "Bluetooth off"],
    malformed: [{ lang: "de" }, "[0].lang]"],
  })

  it("keeps the committed fresh2 file exactly as committed", () => {
    expect(fresh2Hash()).toBe(FRESH2_SHA256)
    expect(FRESH2_PATH.endsWith("instructions.fresh2.json")).toBe(true)
  })

  it("holds 120+ instructions, ids m###, about 60% English and 40% Chinese, 15% or so needing a model", () => {
    const fresh2 = loadFresh2Instructions()
    expect(fresh2.length).toBeGreaterThanOrEqual(120)
    expect(fresh2.every((instruction) => /^m\d{3}$/.test(instruction.id))).toBe(true)
    const share = (keep: (instruction: (typeof fresh2)[number]) => boolean) =>
      fresh2.filter(keep).length / fresh2.length
    expect(share((instruction) => instruction.lang === "en")).toBeGreaterThanOrEqual(0.55)
    expect(share((instruction) => instruction.lang === "zh")).toBeGreaterThanOrEqual(0.35)
    const needsModel = share((instruction) => instruction.needsModel === true)
    expect(needsModel).toBeGreaterThanOrEqual(0.12)
    expect(needsModel).toBeLessThanOrEqual(0.2)
  })

  it("covers the older gallery pages and the fresh set's pages alike", () => {
    const fresh2Pages = new Set(loadFresh2Instructions().map((instruction) => instruction.page))
    const freshPages = new Set(loadFreshInstructions().map((instruction) => instruction.page))
    const olderPages = new Set(loadInstructions().map((instruction) => instruction.page))
    expect([...freshPages].filter((page) => fresh2Pages.has(page)).length).toBe(freshPages.size)
    expect(
      [...fresh2Pages].filter((page) => olderPages.has(page) && !freshPages.has(page)).length,
    ).toBeGreaterThanOrEqual(20)
  })

  it("is neither part of the default gallery run nor of the fresh set", () => {
    const ids = new Set(loadFresh2Instructions().map((instruction) => instruction.id))
    expect(
      [...loadInstructions(), ...loadFreshInstructions()].filter(
        (instruction) => ids.has(instruction.id) || instruction.set === "fresh2",
      ),
    ).toEqual([])
  })
})

const outcome = (
  id: string,
  set: "fresh" | "fresh2",
  fields: Partial<GalleryOutcome> & Pick<GalleryOutcome, "solved" | "claimed" | "status">,
): GalleryOutcome => ({
  id,
  set,
  family: "switch",
  lang: "en",
  mode: "agent",
  needsModel: false,
  message: "",
  text: "Get the device ready for take-off",
  ms: 100,
  detail: "",
  ...fields,
})

describe("fresh2 figures", () => {
  const outcomes: ReadonlyArray<GalleryOutcome> = [
    outcome("m001", "fresh2", { solved: true, claimed: true, status: "COMPLETED" }),
    outcome("m002", "fresh2", { solved: false, claimed: true, status: "COMPLETED", lang: "zh" }),
    outcome("m003", "fresh2", {
      needsModel: true,
      solved: false,
      claimed: false,
      status: "FAILED",
      message: 'could not "ready for take-off": that needs judgement',
    }),
    // A fresh-set outcome in the same list is not a fresh2 figure, and the other way round.
    outcome("n001", "fresh", { solved: false, claimed: true, status: "COMPLETED" }),
  ]

  it("counts only the fresh2 outcomes when asked for fresh2, and only the fresh ones otherwise", () => {
    expect(freshSummary(outcomes, "agent", "fresh2")).toEqual({
      total: 3,
      doable: { total: 2, solved: 1, percent: "50.0%" },
      needsModel: { total: 1, endedFailed: 1, failedNamingStep: 1 },
      falseCompleted: { doable: 1, needsModel: 0, total: 1, percent: "33.3%" },
    })
    expect(freshSummary(outcomes, "agent").total).toBe(1)
  })

  it("titles the tables and names the file of the fresh2 set", () => {
    const [table, byFamily] = freshSections(outcomes, 0, "fresh2")
    expect(table!.title).toBe(
      "Gallery, fresh2 set: doable solved, needs-model FAILED, false COMPLETED (seed 0)",
    )
    expect(table!.note).toContain("src/gallery/instructions.fresh2.json")
    expect(table!.rows[0]).toEqual(["agent", "all", "1/2", "50.0%", "1/1", "1/1", "1/3 (1 + 0)", "33.3%"])
    expect(byFamily!.title).toBe("Gallery, fresh2 set: by family")
  })
})
