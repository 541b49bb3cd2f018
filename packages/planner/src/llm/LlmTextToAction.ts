import {
  ActionOp,
  type ChatMessage,
  generateObject,
  LanguageModel,
  LlmError,
  OutputInvalid,
  type PageElement,
  type TokenUsage,
} from "@sextant/core"
import { Effect } from "effect"
import { checkLimits } from "../internal/Limits.ts"
import { TextAction, type TextToActionInput } from "../Planner.ts"
import { PAGE_LOCATOR } from "../rules/TextToAction.ts"
import { textToActionInstructions } from "./Prompts.ts"

/** Options of the model-backed text-to-action. */
export interface LlmTextToActionOptions {
  /**
   * This many elements (visible first) are listed with their details — selector, value, options
   * (default 150); every other element is still listed, as `ref role "name"`: none is left out.
   */
  readonly maxElements?: number
}

/** A text-to-action answer and the tokens it cost. */
export type LlmTextAction = TextAction & { readonly usage: TokenUsage }

const quote = (text: string, max = 60): string =>
  JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text)

/**
 * One line per element, every element of the list: `e3 button "Sign In" #login value="…" options=[…]`
 * for the first `maxElements` (visible first), `e90 link "Careers"` for the rest, and a last line
 * saying how many print without details.
 */
export const renderElements = (elements: ReadonlyArray<PageElement>, maxElements: number): string => {
  const visible = [...elements].sort((left, right) => Number(right.visible) - Number(left.visible))
  const lines = visible.map((element, index) => {
    const parts = [element.ref, element.role, quote(element.name)]
    if (index < maxElements) {
      const selector = element.selectors[0]
      if (selector !== undefined) parts.push(selector)
      if (element.value !== undefined && element.value !== "") parts.push(`value=${quote(element.value)}`)
      if (element.checked !== undefined) parts.push(`checked=${String(element.checked)}`)
      if (element.options !== undefined) parts.push(`options=${JSON.stringify(element.options.slice(0, 10))}`)
    }
    if (element.disabled === true) parts.push("disabled")
    if (!element.visible) parts.push("hidden")
    return parts.join(" ")
  })
  const bare = visible.length - maxElements
  if (bare > 0)
    lines.push(`(${bare} elements after the first ${maxElements} print without selector or value)`)
  return lines.join("\n")
}

/** Page-level methods, used with the `_page` locator as the rule version does. */
const pageMethods: ReadonlyArray<string> = ["navigate", "back", "refresh", "press", "scroll", "extract"]

const invalid = (detail: string, output: string) =>
  new LlmError({ method: "textToAction", reason: new OutputInvalid({ detail, output }) })

/**
 * Builds the model-backed text-to-action with the same JSON contract as the rule version: one command
 * plus the element list of a `look()` in, EXACTLY one action `{ elements: [{ locator, description,
 * method, arguments }] }` on an element of the list (or on `_page` for navigate, back, refresh, press,
 * scroll and extract, as the rule version does), or a completion `{ isComplete: true, summary,
 * suggestions }`. A locator that is neither a ref nor a selector of a listed element, or a method that
 * is not an element operation, fails with `LlmError`/`OutputInvalid` naming it.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { makeLlmTextToAction } from "@sextant/planner"
 * const program = Effect.gen(function* () {
 *   const textToAction = yield* makeLlmTextToAction()
 *   const answer = yield* textToAction({ command: "click Sign In", elements: Object.values(snapshot.elements) })
 *   // { elements: [{ locator: "e3", description: "the Sign In button", method: "click", arguments: [] }], usage }
 * })
 * ```
 */
export const makeLlmTextToAction = Effect.fn("LlmTextToAction.make")(function* (
  options: LlmTextToActionOptions = {},
) {
  yield* checkLimits("LLM text-to-action", options)
  const model = yield* LanguageModel
  const maxElements = options.maxElements ?? 150

  return (input: TextToActionInput): Effect.Effect<LlmTextAction, LlmError> =>
    Effect.gen(function* () {
      const messages: ReadonlyArray<ChatMessage> = [
        { role: "system", content: textToActionInstructions },
        {
          role: "user",
          content: `Command: ${input.command}\nElements:\n${renderElements(input.elements, maxElements)}`,
        },
      ]
      const { object, response } = yield* generateObject(model, {
        schema: TextAction,
        messages,
        name: "text_action",
        temperature: 0,
        maxTokens: 300,
      })
      if ("elements" in object) {
        const action = object.elements[0]
        if (action !== undefined && action.locator === PAGE_LOCATOR) {
          if (!pageMethods.includes(action.method)) {
            return yield* invalid(
              `method '${action.method}' is not a page action: with '${PAGE_LOCATOR}' use one of ${pageMethods.join(", ")}`,
              response.text,
            )
          }
        } else if (action !== undefined) {
          const known = input.elements.some(
            (element) => element.ref === action.locator || element.selectors.includes(action.locator),
          )
          if (!known) {
            return yield* invalid(
              `locator '${action.locator}' is not in the element list: the model must pick a listed ref or selector`,
              response.text,
            )
          }
          if (!ActionOp.safeParse(action.method).success) {
            return yield* invalid(
              `method '${action.method}' is not an element operation: use one of ${ActionOp.options.join(", ")}`,
              response.text,
            )
          }
        }
      }
      return { ...object, usage: response.usage }
    }).pipe(Effect.withSpan("LlmTextToAction"))
})
