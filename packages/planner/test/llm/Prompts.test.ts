import { describe, expect, it } from "@effect/vitest"
import { TaskConstraints } from "@sextant/core"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import {
  planInstructions,
  stepPolicyInstructions,
  summaryInstructions,
  textToActionInstructions,
} from "../../src/llm/Prompts.ts"
import { registry } from "./Support.ts"

// The budgets the README quotes: every token here is paid on every model call.
describe("prompt sizes (o200k tokens)", () => {
  const catalog = registry.renderCatalog()

  it("keeps the step policy's fixed instructions under 150 tokens", () => {
    expect(countTokens(stepPolicyInstructions)).toBeLessThan(150)
    expect(countTokens(`${stepPolicyInstructions}\n${catalog}`)).toBeLessThan(150 + countTokens(catalog) + 2)
  })

  it("keeps the text-to-action, summary and plan instructions small", () => {
    expect(countTokens(textToActionInstructions)).toBeLessThan(160)
    expect(countTokens(summaryInstructions)).toBeLessThan(80)
    const plan = planInstructions("", TaskConstraints.parse({}))
    expect(countTokens(plan)).toBeLessThan(200)
  })
})
