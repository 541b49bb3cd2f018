import { generateObject, LanguageModel, type LlmError, type PageSnapshot } from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"
import { type AnalyzeOptions, analyzePage } from "./PageAnalysis.ts"
import { FieldType, FormPurpose, PageCategory, type PageModel } from "./PageModel.ts"

/** What the model is asked for: classification only; locators always come from the page itself. */
export const ModelPageAnalysis = z.object({
  purpose: z.string().min(1),
  category: PageCategory,
  forms: z
    .array(
      z.object({
        name: z.string(),
        purpose: FormPurpose,
        fields: z.array(z.object({ label: z.string(), fieldType: FieldType, required: z.boolean() })),
      }),
    )
    .default([]),
})
export type ModelPageAnalysis = z.output<typeof ModelPageAnalysis>

/** Options of {@link analyzePageWithModel}. */
export interface ModelAnalyzeOptions extends AnalyzeOptions {
  /** The outline is cut to this many characters in the prompt. Default 12,000. */
  readonly maxOutlineChars?: number | undefined
}

const SYSTEM = `You classify one web page for a test generator. Answer with JSON only:
{"purpose": string, "category": one of ${PageCategory.options.join(", ")},
 "forms": [{"name": the form's name as given, "purpose": one of ${FormPurpose.options.join(", ")},
            "fields": [{"label": the field's label as given, "fieldType": one of ${FieldType.options.join(", ")}, "required": boolean}]}]}`

const merge = (rules: PageModel, answer: ModelPageAnalysis): PageModel => ({
  ...rules,
  purpose: answer.purpose,
  category: answer.category,
  analyzer: "model",
  forms: rules.forms.map((form) => {
    const named = answer.forms.find((candidate) => candidate.name === form.name)
    if (named === undefined) return form
    return {
      ...form,
      purpose: named.purpose,
      fields: form.fields.map((field) => {
        const typed = named.fields.find((candidate) => candidate.label === field.label)
        return typed === undefined
          ? field
          : { ...field, fieldType: typed.fieldType, required: typed.required }
      }),
    }
  }),
})

/**
 * The page analysis with a model's judgement: the rules find the forms, fields and locators; the
 * model (the `LanguageModel` service) names the page's purpose and category and may retype fields.
 * When the answer holds no JSON or does not fit the schema, the rules' model is returned as it is
 * (`analyzer: "rules"`); a transport failure stays an `LlmError`.
 *
 * @example
 * ```ts
 * import { analyzePageWithModel } from "@sextant/explorer"
 * const model = yield* analyzePageWithModel(snapshot) // needs the LanguageModel service
 * ```
 */
export const analyzePageWithModel = Effect.fn("Explorer.analyzePageWithModel")(function* (
  snapshot: PageSnapshot,
  options: ModelAnalyzeOptions = {},
): Effect.fn.Return<PageModel, LlmError, LanguageModel> {
  const rules = analyzePage(snapshot, options)
  const model = yield* LanguageModel
  const forms = rules.forms.map((form) => ({
    name: form.name,
    fields: form.fields.map((field) => ({ label: field.label, ruleType: field.fieldType })),
  }))
  const prompt = [
    `URL: ${snapshot.url}`,
    `Title: ${snapshot.title}`,
    `Forms found by rules: ${JSON.stringify(forms)}`,
    "Outline:",
    snapshot.tree.slice(0, options.maxOutlineChars ?? 12_000),
  ].join("\n")
  return yield* generateObject(model, {
    schema: ModelPageAnalysis,
    name: "page_analysis",
    temperature: 0,
    messages: [
      { role: "system", content: SYSTEM },
      { role: "user", content: prompt },
    ],
  }).pipe(
    Effect.map(({ object }) => merge(rules, object)),
    Effect.catchIf(
      (error) => error.reason._tag === "OutputInvalid",
      () => Effect.succeed(rules),
    ),
  )
})
