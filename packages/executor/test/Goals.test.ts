import type { GoalPart } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { type PageFacts, type PartStep, verifyParts } from "../src/Goals.ts"

const facts = (heading: string, url = "http://site.test/tabs"): PageFacts => ({
  url,
  title: "Gallery",
  heading,
  passwordVisible: false,
  errors: [],
  noResults: false,
  hasNext: false,
  texts: {},
  counts: {},
})

const open: GoalPart = { kind: "open", description: 'open "Shipping" tab', check: { type: "pageChanged" } }

const click = (overrides: Partial<PartStep>): PartStep => ({
  part: 0,
  tool: "click",
  ok: true,
  data: { ok: true, changed: true, signals: [] },
  signals: [],
  urlBefore: "http://site.test/tabs",
  urlAfter: "http://site.test/tabs",
  facts: facts("Settings"),
  ...overrides,
})

const judged = (steps: ReadonlyArray<PartStep>) =>
  verifyParts([open], { steps, records: [], finalPage: facts("Settings") })

describe("open part (pageChanged)", () => {
  it("open holds when the click showed new content on the same page (a tab panel, a menu, a dialog)", () => {
    expect(judged([click({})])).toEqual([])
  })

  it("open holds when the click moved to an anchor of the same page", () => {
    expect(
      judged([
        click({ data: { changed: false }, urlAfter: "http://site.test/tabs#docs", signals: ["NoOp"] }),
      ]),
    ).toEqual([])
  })

  it("open does not hold when the click changed nothing", () => {
    const unmet = judged([
      click({ data: { ok: true, changed: false, signals: ["NoOp"] }, signals: ["NoOp"] }),
    ])
    expect(unmet).toHaveLength(1)
    expect(unmet[0]?.evidence).toContain("the page stayed at")
  })

  it("open does not hold when the click failed", () => {
    expect(judged([click({ ok: false, message: "no element" })])).toHaveLength(1)
  })
})
