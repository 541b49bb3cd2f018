import { describe, expect, it } from "@effect/vitest"
import type { PageElement } from "@sextant/core"
import { Reply, type ScriptedReply } from "@sextant/testing"
import { Effect } from "effect"
import { makeLlmTextToAction } from "../../src/index.ts"
import { withScriptedModel } from "./Support.ts"

const element = (ref: string, role: string, name: string, selectors: Array<string>): PageElement => ({
  ref,
  role,
  name,
  tag: role === "button" ? "button" : "input",
  attributes: {},
  visible: true,
  selectors,
  frame: [],
})

const elements = [
  element("e1", "textbox", "Email", ["#email"]),
  element("e2", "textbox", "Password", ["#password"]),
  element("e3", "button", "Sign In", ['[data-testid="sign-in"]']),
]

const run = (reply: ScriptedReply, command = "type alice@example.com into Email") =>
  withScriptedModel([reply], (server) =>
    Effect.gen(function* () {
      const textToAction = yield* makeLlmTextToAction()
      const result = yield* Effect.result(textToAction({ command, elements }))
      return { server, result }
    }),
  )

describe("LLM text-to-action", () => {
  it.live("lists every element of a long page, the ones past maxElements without their details", () =>
    Effect.gen(function* () {
      const many = Array.from({ length: 400 }, (_, index) =>
        element(`e${index + 1}`, "link", `Story ${index}`, [`#story-${index}`]),
      )
      const { server } = yield* withScriptedModel(
        [Reply.json({ isComplete: true, summary: "nothing to do", suggestions: [] })],
        (server) =>
          Effect.gen(function* () {
            const textToAction = yield* makeLlmTextToAction()
            yield* textToAction({ command: "open Story 399", elements: many })
            return { server }
          }),
      )
      const text = server.requests[0]!.text
      expect(many.filter((item) => !new RegExp(`^${item.ref} link `, "m").test(text))).toEqual([])
      expect(text).toContain('e150 link "Story 149" #story-149')
      expect(text).toMatch(/^e400 link "Story 399"$/m)
      expect(text).toContain("(250 elements after the first 150 print without selector or value)")
    }),
  )

  it.live("returns exactly one action on a listed element and shows the model the element list", () =>
    Effect.gen(function* () {
      const { server, result } = yield* run(
        Reply.json({
          elements: [
            {
              locator: "e1",
              description: "the Email field",
              method: "input",
              arguments: [{ name: "value", value: "alice@example.com" }],
            },
          ],
        }),
      )
      expect(result._tag).toBe("Success")
      if (result._tag !== "Success") return
      expect(result.success).toMatchObject({
        elements: [
          { locator: "e1", method: "input", arguments: [{ name: "value", value: "alice@example.com" }] },
        ],
      })
      expect(result.success.usage.total).toBeGreaterThan(0)
      const prompt = server.requests[0]?.text ?? ""
      expect(prompt).toContain("Command: type alice@example.com into Email")
      expect(prompt).toContain('e1 textbox "Email" #email')
      expect(prompt).toContain('e3 button "Sign In" [data-testid="sign-in"]')
    }),
  )

  it.live("accepts a selector of a listed element as the locator", () =>
    Effect.gen(function* () {
      const { result } = yield* run(
        Reply.json({
          elements: [
            { locator: '[data-testid="sign-in"]', description: "sign in", method: "click", arguments: [] },
          ],
        }),
        "click Sign In",
      )
      expect(result._tag).toBe("Success")
    }),
  )

  it.live("rejects an invented locator", () =>
    Effect.gen(function* () {
      const { result } = yield* run(
        Reply.json({
          elements: [{ locator: "#submit-button", description: "submit", method: "click", arguments: [] }],
        }),
        "click Submit",
      )
      expect(result._tag).toBe("Failure")
      if (result._tag !== "Failure") return
      expect(result.failure._tag).toBe("LlmError")
      expect(result.failure.reason._tag).toBe("OutputInvalid")
      expect(result.failure.message).toContain("locator '#submit-button' is not in the element list")
    }),
  )

  it.live("rejects more than one action and a method that is not an element operation", () =>
    Effect.gen(function* () {
      const two = yield* run(
        Reply.json({
          elements: [
            { locator: "e1", description: "a", method: "click", arguments: [] },
            { locator: "e3", description: "b", method: "click", arguments: [] },
          ],
        }),
      )
      expect(two.result._tag).toBe("Failure")
      const teleport = yield* run(
        Reply.json({ elements: [{ locator: "e3", description: "b", method: "teleport", arguments: [] }] }),
      )
      expect(teleport.result._tag).toBe("Failure")
      if (teleport.result._tag !== "Failure") return
      expect(teleport.result.failure.message).toContain("method 'teleport' is not an element operation")
    }),
  )

  it.live(
    "accepts a page-level action on _page, as the rule version answers, and rejects an element method there",
    () =>
      Effect.gen(function* () {
        const scroll = yield* run(
          Reply.json({
            elements: [
              {
                locator: "_page",
                description: "scroll down",
                method: "scroll",
                arguments: [{ name: "direction", value: "down" }],
              },
            ],
          }),
          "scroll down",
        )
        expect(scroll.result._tag).toBe("Success")
        const clickPage = yield* run(
          Reply.json({
            elements: [{ locator: "_page", description: "click", method: "click", arguments: [] }],
          }),
          "click somewhere",
        )
        expect(clickPage.result._tag).toBe("Failure")
        if (clickPage.result._tag !== "Failure") return
        expect(clickPage.result.failure.message).toContain("method 'click' is not a page action")
      }),
  )

  it.live("returns a completion when nothing is left to do", () =>
    Effect.gen(function* () {
      const { result } = yield* run(
        Reply.fenced({
          isComplete: true,
          summary: "Already signed in.",
          suggestions: ["open the orders page"],
        }),
        "sign in",
      )
      expect(result._tag).toBe("Success")
      if (result._tag !== "Success") return
      expect(result.success).toMatchObject({
        isComplete: true,
        summary: "Already signed in.",
        suggestions: ["open the orders page"],
      })
    }),
  )
})
