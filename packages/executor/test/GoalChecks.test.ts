import { BrowserDriver, type GoalPart, type PageElement } from "@sextant/core"
import { goalPartsOf } from "@sextant/planner"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { type PartStep, verifyParts } from "../src/index.ts"
import { useGallery } from "./support/Gallery.ts"

const element = (fields: Partial<PageElement> & Pick<PageElement, "ref" | "role" | "name">): PageElement => ({
  tag: "input",
  attributes: {},
  visible: true,
  selectors: [],
  frame: [],
  ...fields,
})

const step = (elements: ReadonlyArray<PageElement>): PartStep => ({
  part: 0,
  tool: "check",
  ok: true,
  data: undefined,
  signals: [],
  urlBefore: "http://127.0.0.1/form",
  urlAfter: "http://127.0.0.1/form",
  elements,
})

const judged = (part: GoalPart, elements: ReadonlyArray<PageElement>) =>
  verifyParts([part], { steps: [step(elements)], records: [], finalPage: "not read" }).map(
    (unmet) => unmet.evidence,
  )

describe("goal checks on the page's controls", () => {
  it("reads a checked or typed part as a check of the page, not of the action", () => {
    // Short listed names are one box each: a part per box, each checked on the page.
    expect(goalPartsOf("Check Music and Sports")?.map((part) => part.check)).toEqual([
      { type: "controlState", targets: ["Music"], checked: true },
      { type: "controlState", targets: ["Sports"], checked: true },
    ])
    expect(goalPartsOf('type "Porto" into City')?.map((part) => part.check)).toEqual([
      { type: "fieldValue", target: "City", value: "Porto" },
    ])
    // A secret is not known to the planner: only the action can be checked.
    expect(goalPartsOf("type <secret:password> into Password")?.map((part) => part.check.type)).toEqual([
      "actionsSucceeded",
    ])
  })

  it("holds only when every named box is in the wanted state", () => {
    const part: GoalPart = {
      kind: "check",
      description: "check Music and Sports",
      check: { type: "controlState", targets: ["Music", "Sports"], checked: true },
    }
    const music = element({ ref: "e1", role: "checkbox", name: "Music", checked: true })
    expect(
      judged(part, [music, element({ ref: "e2", role: "checkbox", name: "Sports", checked: true })]),
    ).toEqual([])
    expect(
      judged(part, [music, element({ ref: "e2", role: "checkbox", name: "Sports", checked: false })]),
    ).toEqual(['checkbox "Sports" is unchecked on http://127.0.0.1/form'])
    // A name no checkbox carries (a button "Accept all cookies") is judged by the part's actions.
    expect(judged(part, [music, element({ ref: "e4", role: "button", name: "Sports" })])).toEqual([])
  })

  it("holds when the field keeps the value, in its own format for dates and times", () => {
    const field = (name: string, value: string) => element({ ref: "e3", role: "textbox", name, value })
    const fill = (target: string, value: string): GoalPart => ({
      kind: "fill",
      description: `type ${value} into ${target}`,
      check: { type: "fieldValue", target, value },
    })
    expect(judged(fill("City", "Porto"), [field("City", "Porto")])).toEqual([])
    expect(judged(fill("End date", "June 3, 2024"), [field("End date", "2024-06-03")])).toEqual([])
    expect(judged(fill("Meeting time", "9:05"), [field("Meeting time", "09:05")])).toEqual([])
    expect(judged(fill("Check-in", "2024-05-14"), [field("Check-in", "")])).toEqual([
      'textbox "Check-in" holds "", not "2024-05-14", on http://127.0.0.1/form',
    ])
    expect(judged(fill("End date", "June 3, 2024"), [field("End date", "2024-06-04")])).toHaveLength(1)
    // A password's value is masked in a snapshot: typed is all that can be read.
    expect(judged(fill("Password", "Sunflower9"), [field("Password", "<secret>")])).toEqual([])
    // "Set T-shirt size to Large" on a radio group: the chosen option is the evidence.
    const large = element({ ref: "e5", role: "radio", name: "Large", checked: true })
    expect(judged(fill("T-shirt size", "Large"), [large])).toEqual([])
  })
})

const { runtime, runGoal } = useGallery()

describe("runAgent in Chromium: a part is done when the page shows it", () => {
  it("is FAILED when a typed date did not take (a date picker that ignores typing), naming what the field holds", async () => {
    const result = await runGoal("Set check-in to 2024-05-14", "/gallery/datepicker")
    expect(result.status).toBe("FAILED")
    expect(JSON.stringify(result.summary.unmetParts)).toContain('holds \\"\\", not \\"2024-05-14\\"')
  }, 90_000)

  it("is COMPLETED when both named boxes are checked on the page", async () => {
    const result = await runGoal("Check Music and Sports", "/gallery/checkboxes")
    const checked = await runtime.runPromise(
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        const snapshot = yield* driver.look({ mode: "interactive" })
        return Object.values(snapshot.elements)
          .filter((control) => control.role === "checkbox" && control.checked === true)
          .map((control) => control.name)
      }),
    )
    // Whatever the policy managed, the status says what the page shows.
    expect(result.status === "COMPLETED").toBe(checked.includes("Music") && checked.includes("Sports"))
  }, 90_000)
})
