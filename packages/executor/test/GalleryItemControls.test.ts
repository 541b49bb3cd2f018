import { makeRuleStepPolicy, type StepPolicyShape } from "@sextant/planner"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * Instructions naming an item by its text and acting on a control inside it ("Call Tom Okafor", "Star the
 * message from Ana", "Details of order 1043"), run by the rule agent in headless Chromium on the
 * gallery's `item-actions` page (and the `contacts` and `products` pages): a table row, a list item and a
 * card are each one thing, their text naming it and their controls acting on it. The page's own oracle
 * says whether the action happened.
 */

const { runOnGallery } = useGallery()

/**
 * The rule step policy, except that its presses land on another control of the same role and name (the
 * first other one the outline shows): a grounding that picked the wrong item's control. What the run
 * then claims is the goal check's alone to say.
 */
const pressingAnotherOfItsName = (policy: StepPolicyShape = makeRuleStepPolicy()): StepPolicyShape => ({
  ...policy,
  decide: (input) =>
    policy.decide(input).pipe(
      Effect.map((decision) => {
        const [call, ...rest] = decision.toolCalls
        const ref = call?.name === "click" ? call.args.target : undefined
        if (call === undefined || typeof ref !== "string") return decision
        const control = new RegExp(`(\\w+ "[^"]*") \\[ref=${ref}\\]`).exec(input.outline)?.[1]
        if (control === undefined) return decision
        const escaped = control.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        const other = [...input.outline.matchAll(new RegExp(`${escaped} \\[ref=(e\\d+)\\]`, "g"))]
          .map((match) => match[1]!)
          .find((found) => found !== ref)
        if (other === undefined) return decision
        return { ...decision, toolCalls: [{ ...call, args: { ...call.args, target: other } }, ...rest] }
      }),
    ),
})

describe("a control inside the one item the instruction names", () => {
  for (const [goal, page, key] of [
    ["Call Tom Okafor", "item-actions", "called:Tom Okafor"],
    ["打电话给 Tom Okafor", "item-actions", "called:Tom Okafor"],
    ["给李娜打电话", "contacts", "call:李娜"],
    ["Star the message from Ana", "item-actions", "starred:Ana Lopez"],
    ["Details of order 1043", "item-actions", "details:1043"],
    ["Open the details of order 1043", "item-actions", "details:1043"],
    // A verb the grammar reads for dialogs ("close"), with no dialog open: the row's "Close ticket".
    ["Close ticket T-4788", "support-ticket", "close:T-4788"],
  ] as const) {
    it(`presses that item's own control, COMPLETED once the page shows it: ${goal}`, async () => {
      const { status, verdict } = await runOnGallery(goal, page, { [key]: true })
      expect(verdict.unmet).toEqual([])
      expect(verdict.achieved).toBe(true)
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  // The inbox shows Archive only in the pane of an opened message: the message is opened first.
  for (const [goal, key] of [
    ["Archive the invoice email", "archived:Billing"],
    ["归档 Deploy finished", "archived:Dev team"],
  ] as const) {
    it(`opens the one message the words name, then presses the control its pane shows: ${goal}`, async () => {
      const { status, verdict } = await runOnGallery(goal, "inbox", { [key]: true })
      expect(verdict.unmet).toEqual([])
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  it("is not COMPLETED when the opened message's pane has no control the verb names ('Reply to Anna' finds only Send reply)", async () => {
    const { status, verdict } = await runOnGallery("Reply to Anna", "inbox", { repliedTo: "Anna Berg" })
    expect(verdict.achieved).toBe(false)
    expect(status).not.toBe("COMPLETED")
  }, 60_000)

  // What a statement names may sit in a tab not shown or a closed menu: those are opened, one at a time.
  for (const [goal, page, expected] of [
    ["Stop sending me product news", "account-tabs", { productNews: false }],
    ["Show the version history", "icon-toolbar", { history: true }],
  ] as const) {
    it(`opens the tab or menu that holds what the words name, then acts on it: ${goal}`, async () => {
      const { status, verdict } = await runOnGallery(goal, page, expected)
      expect(verdict.unmet).toEqual([])
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  it("puts the product a question names in the cart, not the first one ('Could I get the glass vase in my cart?')", async () => {
    const { status, verdict } = await runOnGallery("Could I get the glass vase in my cart?", "products", {
      cart: "Glass vase",
    })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  for (const [goal, page, key, named] of [
    ["Call Tom Okafor", "item-actions", "called:Tom Okafor", "Tom Okafor | Bluegate Logistics"],
    ["给李娜打电话", "contacts", "call:李娜", "李娜 | 星河科技"],
    ["Could I get the glass vase in my cart?", "products", "cart", "Glass vase"],
    ["Details of order 1043", "item-actions", "details:1043", "Order 1043"],
    ["Close ticket T-4788", "support-ticket", "close:T-4788", "T-4788"],
  ] as const) {
    it(`is FAILED, not COMPLETED, when the control pressed sits in another item than the one named: ${goal}`, async () => {
      const { status, verdict, result } = await runOnGallery(
        goal,
        page,
        { [key]: key === "cart" ? "Glass vase" : true },
        { policy: pressingAnotherOfItsName() },
      )
      // The press landed, on another item: the page shows a change, just not the one asked for.
      expect(verdict.achieved).toBe(false)
      expect(status).toBe("FAILED")
      const unmet = result.summary.unmetParts ?? []
      expect(unmet.map((part) => part.evidence).join("\n")).toContain(`not the one in "${named}`)
    }, 60_000)
  }

  it("is FAILED, not COMPLETED, when 'Open the details of order 1043' opens another order's details", async () => {
    const { status, verdict, result } = await runOnGallery(
      "Open the details of order 1043",
      "item-actions",
      { "details:1043": true },
      { policy: pressingAnotherOfItsName() },
    )
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    const unmet = result.summary.unmetParts ?? []
    expect(unmet.map((part) => part.evidence).join("\n")).toContain(
      'the last item opened was "Details" of listitem "Order 1042',
    )
  }, 60_000)

  it("is FAILED, not COMPLETED, when the row's control shows nothing ('Call Mia Laine')", async () => {
    const { status, verdict, result } = await runOnGallery("Call Mia Laine", "item-actions", {
      "called:Mia Laine": true,
    })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    expect(result.summary.summary).not.toContain("cannot understand")
  }, 60_000)

  it("refuses, pressing nothing, when the words name two items ('Call Ana': Ana Lopez or Ana Silva)", async () => {
    const { status, verdict, result } = await runOnGallery("Call Ana", "item-actions", {
      "called:Ana Lopez": true,
    })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    expect(result.observations).toEqual([])
    expect(result.summary.summary).toContain('"call" on "ana" fits more than one item')
  }, 60_000)
})
