import { describe, expect, it } from "vitest"
import { freshSections, freshSummary, type GalleryOutcome, namesStep } from "../src/gallery/GalleryBench.ts"
import {
  FRESH_PATH,
  FRESH_SHA256,
  freshHash,
  loadFreshInstructions,
  loadInstructions,
} from "../src/gallery/Instructions.ts"
import { sealedLoaderContract } from "./support/SealedSet.ts"

const entry = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  page: "flights",
  family: "pick",
  lang: "en",
  text: "Book the cheapest flight",
  expect: { flight: "FR 3318" },
  ...extra,
})

describe("fresh instruction set loader", () => {
  sealedLoaderContract({
    set: "fresh",
    load: loadFreshInstructions,
    entry,
    ids: ["n001", "n002"],
    edit: ["cheapest", "cheapest nonstop"],
    malformed: [{ needsModel: "yes" }, "[0].needsModel]"],
  })

  it("keeps the committed fresh file exactly as committed", () => {
    expect(freshHash()).toBe(FRESH_SHA256)
  })

  it("holds 200+ instructions, 40%+ English and 40%+ Chinese, 40+ needing a model, ids n###", () => {
    const fresh = loadFreshInstructions()
    expect(fresh.length).toBeGreaterThanOrEqual(200)
    const share = (lang: string) =>
      fresh.filter((instruction) => instruction.lang === lang).length / fresh.length
    expect(share("en")).toBeGreaterThanOrEqual(0.4)
    expect(share("zh")).toBeGreaterThanOrEqual(0.4)
    expect(fresh.filter((instruction) => instruction.needsModel === true).length).toBeGreaterThanOrEqual(40)
    expect(fresh.every((instruction) => /^n\d{3}$/.test(instruction.id))).toBe(true)
    expect(FRESH_PATH.endsWith("instructions.fresh.json")).toBe(true)
  })

  it("is not part of the default gallery run", () => {
    const ids = new Set(loadFreshInstructions().map((instruction) => instruction.id))
    expect(
      loadInstructions().filter((instruction) => ids.has(instruction.id) || instruction.set === "fresh"),
    ).toEqual([])
  })
})

describe("namesStep", () => {
  it("holds when the message repeats three consecutive words of the instruction", () => {
    expect(
      namesStep(
        'Could not do the part "count the circles in the picture": counting drawn shapes needs a model',
        "Count the circles in the picture and enter the number",
      ),
    ).toBe(true)
  })

  it("holds for three consecutive Chinese characters of the instruction", () => {
    expect(namesStep("无法完成：“图里有几个圆”需要计数", "图里有几个圆？填上答案然后继续")).toBe(true)
  })

  it("does not hold for a message that names nothing, or only stop words of the instruction", () => {
    expect(namesStep("The task failed.", "Count the circles in the picture and enter the number")).toBe(false)
    expect(namesStep("stopped: it in the", "Put it in the box")).toBe(false)
  })

  it("takes the whole instruction when it is shorter than three words", () => {
    expect(namesStep('could not "print it"', "Print it")).toBe(true)
    expect(namesStep("could not print", "Print it")).toBe(false)
  })
})

const outcome = (
  id: string,
  fields: Partial<GalleryOutcome> & Pick<GalleryOutcome, "solved" | "claimed" | "status">,
): GalleryOutcome => ({
  id,
  set: "fresh",
  family: "pick",
  lang: "en",
  mode: "agent",
  needsModel: false,
  message: "",
  text: "Count the circles in the picture and enter the number",
  ms: 100,
  detail: "",
  ...fields,
})

describe("freshSummary", () => {
  // Four doable: solved and claimed; solved but not claimed; claimed but unmet (false COMPLETED); neither.
  // Four needs-model: FAILED naming the step; FAILED naming nothing; COMPLETED (false); ERROR.
  const outcomes: ReadonlyArray<GalleryOutcome> = [
    outcome("n001", { solved: true, claimed: true, status: "COMPLETED" }),
    outcome("n002", { solved: true, claimed: false, status: "FAILED", lang: "zh" }),
    outcome("n003", { solved: false, claimed: true, status: "COMPLETED" }),
    outcome("n004", { solved: false, claimed: false, status: "FAILED", lang: "zh" }),
    outcome("n005", {
      needsModel: true,
      solved: false,
      claimed: false,
      status: "FAILED",
      message: 'unmet part: "count the circles" needs counting',
    }),
    outcome("n006", { needsModel: true, solved: false, claimed: false, status: "FAILED", message: "failed" }),
    outcome("n007", { needsModel: true, solved: true, claimed: true, status: "COMPLETED", lang: "zh" }),
    outcome("n008", { needsModel: true, solved: false, claimed: false, status: "ERROR", message: "crash" }),
    // Other modes and sets are not counted.
    outcome("n001", { mode: "oneShot", solved: false, claimed: true, status: "acted" }),
    outcome("h001", { set: "holdout", solved: false, claimed: true, status: "COMPLETED" }),
  ]

  it("counts doable solved, needs-model FAILED and naming a step, and false COMPLETED over all", () => {
    expect(freshSummary(outcomes, "agent")).toEqual({
      total: 8,
      doable: { total: 4, solved: 2, percent: "50.0%" },
      needsModel: { total: 4, endedFailed: 2, failedNamingStep: 1 },
      falseCompleted: { doable: 1, needsModel: 1, total: 2, percent: "25.0%" },
    })
    expect(freshSummary(outcomes, "oneShot")).toEqual({
      total: 1,
      doable: { total: 1, solved: 0, percent: "0.0%" },
      needsModel: { total: 0, endedFailed: 0, failedNamingStep: 0 },
      falseCompleted: { doable: 1, needsModel: 0, total: 1, percent: "100.0%" },
    })
  })

  it("renders the figures per mode and language in the fresh table", () => {
    const [table] = freshSections(outcomes, 0)
    expect(table!.rows.slice(0, 3)).toEqual([
      ["agent", "all", "2/4", "50.0%", "2/4", "1/2", "2/8 (1 + 1)", "25.0%"],
      ["agent", "English", "1/2", "50.0%", "2/3", "1/2", "1/5 (1 + 0)", "20.0%"],
      ["agent", "Chinese", "1/2", "50.0%", "0/1", "0/0", "1/3 (0 + 1)", "33.3%"],
    ])
  })
})
