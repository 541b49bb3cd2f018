import type { GoalPart, PageElement } from "@sextant/core"
import { STEPPER } from "@sextant/planner"
import { describe, expect, it } from "vitest"
import { verifyParts } from "../src/index.ts"
import { useGallery } from "./support/Gallery.ts"

/**
 * Steppers end to end: the rule step policy through `runAgent`, in headless Chromium, on the fixture
 * site's holiday cottage page (guest counts shown between − and + buttons, a native number field, an
 * ARIA spin button). The page's own oracle says what each count is; Sextant's status must agree with it,
 * and the goal check reads the number the stepper shows, not the presses made.
 */

const { runOnGallery } = useGallery([0])

describe("rule agent: a count shown between − and + is stepped to the number asked for", () => {
  for (const [goal, expected] of [
    ["Set the pets to 2", { pets: 2 }],
    ["Lower the adults to 1", { adults: 1 }],
    ["儿童改成3", { children: 3 }],
    ["Change the rental bikes to 2", { bikes: 2 }],
  ] as const) {
    it(`${goal} → ${JSON.stringify(expected)}`, async () => {
      const { status, verdict } = await runOnGallery(goal, "guests-stepper", expected)
      expect(verdict.unmet).toEqual([])
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  it("is FAILED, with the 9 the stepper shows as the evidence, for a count above its top (9)", async () => {
    const { status, verdict, result } = await runOnGallery("Set the adults to 11", "guests-stepper", {
      adults: 9,
    })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("FAILED")
    expect(result.summary.unmetParts?.map((part) => part.evidence.replace(/ on http.*/, ""))).toEqual([
      'the stepper "Adults" shows "9", not "11",',
    ])
  }, 60_000)
})

const button = (ref: string, name: string, step: "down" | "up", shows: string): PageElement => ({
  ref,
  role: "button",
  name,
  tag: "button",
  attributes: {
    [STEPPER.shows]: shows,
    [STEPPER.label]: "Adults",
    [STEPPER.pair]: "e1",
    [STEPPER.step]: step,
  },
  visible: true,
  selectors: [],
  frame: [],
})

describe("goal check of a stepper", () => {
  const part: GoalPart = {
    kind: "fill",
    description: 'type "4" into "adults"',
    check: { type: "fieldValue", target: "adults", value: "4" },
  }
  const unmet = (shows: string) =>
    verifyParts([part], {
      steps: [],
      records: [],
      finalPage: "not read",
      finalElements: [button("e1", "−", "down", shows), button("e2", "+", "up", shows)],
    }).map((entry) => entry.evidence)

  it("holds only when the number the stepper shows is the value asked for", () => {
    expect(unmet("4")).toEqual([])
    expect(unmet("3")).toEqual(['the stepper "Adults" shows "3", not "4", on the page'])
  })
})
