import { causeMessage } from "@sextant/core"
import { z } from "zod"
import { secretEnvName } from "./internal/EnvValues.ts"
import { placeholderName } from "./internal/Secrets.ts"
import { Locator, PageModel } from "./PageModel.ts"

/** What happened when the explorer filled and submitted a form. */
export const FormOutcome = z.object({
  /** `valid`: every field filled with its suggested value; `missing-required`: one required field left empty. */
  variant: z.enum(["valid", "missing-required"]),
  /** The label of the field left empty, for `missing-required`. */
  emptyField: z.string().optional(),
  url: z.string(),
  /** Texts that appeared in the main, results or alert regions. */
  appeared: z.array(z.string()),
  signals: z.array(z.string()),
})
export type FormOutcome = z.output<typeof FormOutcome>

/** One distinct page of the app: every URL that showed it, and what it is. */
export const AppPage = z.object({
  id: z.string(),
  fingerprint: z.string(),
  url: z.string(),
  /** Other URLs that showed the same page (same semantic fingerprint). */
  aliases: z.array(z.string()).default([]),
  depth: z.number().int().nonnegative(),
  model: PageModel,
  /** Outcomes of submitting each form, by the form's name. */
  formOutcomes: z.record(z.string(), z.array(FormOutcome)).default({}),
})
export type AppPage = z.output<typeof AppPage>

/** How the user got from one page to another. */
export const Transition = z.object({
  from: z.string(),
  to: z.string(),
  kind: z.enum(["link", "form"]),
  /** The link's or the form's name. */
  label: z.string(),
  locator: Locator.optional(),
})
export type Transition = z.output<typeof Transition>

/** A URL the explorer did not load, and why. */
export const SkippedUrl = z.object({ url: z.string(), reason: z.string() })
export type SkippedUrl = z.output<typeof SkippedUrl>

/** The map of an app: its distinct pages and the transitions between them. */
export const AppMap = z.object({
  version: z.literal(1),
  startUrl: z.string(),
  createdAt: z.string(),
  pages: z.array(AppPage),
  transitions: z.array(Transition),
  skipped: z.array(SkippedUrl).default([]),
})
export type AppMap = z.output<typeof AppMap>

/**
 * The environment variable each secret field of the map reads in generated tests, by the field's label:
 * a field the explorer filled with a secret holds `<secret:NAME>`, never the value, and a test reads it
 * from `SEXTANT_SECRET_<NAME>`. Pass it to `generateTests` as `secrets`.
 *
 * @example
 * ```ts
 * import { generateTests, secretVariables } from "@sextant/explorer"
 * secretVariables(map) // { Password: "SEXTANT_SECRET_PASSWORD" }
 * const suite = generateTests(map, { secrets: secretVariables(map) })
 * ```
 */
export const secretVariables = (map: AppMap): Record<string, string> => {
  const variables: Record<string, string> = {}
  for (const page of map.pages)
    for (const form of page.model.forms)
      for (const field of form.fields) {
        const name = placeholderName(field.suggestedValue)
        if (name !== undefined) variables[field.label] = secretEnvName(name)
      }
  return variables
}

/** The app map as pretty JSON, for saving beside the tests. */
export const appMapToJson = (map: AppMap): string => `${JSON.stringify(map, null, 2)}\n`

/**
 * Reads a saved app map; a file that does not fit says which field is wrong.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs"
 * import { parseAppMap } from "@sextant/explorer"
 * const map = parseAppMap(readFileSync("app-map.json", "utf8"))
 * ```
 */
export const parseAppMap = (text: string): AppMap => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new Error(`the app map is not JSON: ${causeMessage(error)}`)
  }
  const result = AppMap.safeParse(json)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new Error(`the app map's field ${issue?.path.join(".") || "(root)"} is invalid: ${issue?.message}`)
  }
  return result.data
}

const mermaidText = (text: string): string =>
  text
    .replace(/["\n\r]/g, " ")
    .replace(/[[\]{}()<>|#;`]/g, " ")
    .trim()

/**
 * The app map as a Mermaid flowchart: one node per page (its category and title), one edge per
 * transition labelled with the link or form.
 *
 * @example
 * ```ts
 * import { appMapToMermaid } from "@sextant/explorer"
 * appMapToMermaid(map) // "flowchart LR\n  p1[\"Login: Sign in\"]\n  p0 -->|Sign in| p1 …"
 * ```
 */
export const appMapToMermaid = (map: AppMap): string => {
  const lines = ["flowchart LR"]
  for (const page of map.pages) {
    const title = page.model.title.split(/\s+[·|–—-]\s+/)[0] ?? page.model.title
    lines.push(`  ${page.id}["${mermaidText(`${page.model.category}: ${title}`)}"]`)
  }
  const seen = new Set<string>()
  for (const transition of map.transitions) {
    const key = `${transition.from} ${transition.to} ${transition.label}`
    if (seen.has(key)) continue
    seen.add(key)
    const label = mermaidText(transition.label) || transition.kind
    const arrow = transition.kind === "form" ? "-.->" : "-->"
    lines.push(`  ${transition.from} ${arrow}|"${label}"| ${transition.to}`)
  }
  return `${lines.join("\n")}\n`
}
