import type { Effect } from "effect"
import { z } from "zod"

/**
 * What a tool may do to the world, declared up front so guardrails and the validator can act on it
 * before the tool runs. A tool with no effects only reads.
 */
export const ToolEffects = z.object({
  /** Loads another page (counts against the navigation quota). */
  navigates: z.boolean().default(false),
  /** Submits a form or otherwise sends data (needs `allowFormSubmission`). */
  submits: z.boolean().default(false),
  /** Clicks or types into the page (counts against the click quota). */
  clicks: z.boolean().default(false),
  /** Reads the page or the network without changing anything. */
  reads: z.boolean().default(false),
  /** Running it twice has the same effect as once, so it may be retried blindly. */
  idempotent: z.boolean().default(false),
})
export type ToolEffects = z.output<typeof ToolEffects>
export type ToolEffectsInput = z.input<typeof ToolEffects>

/**
 * The capability group of a tool: what a prompt lists it for. A model-backed planner lists the `core`
 * tools on every call and each other group only when the task needs it:
 *
 * - `core`: navigate, click, press, scroll, look, extract, wait, back, refresh, stop (always listed).
 * - `forms`: fill, select, check, setValue, pickDate, focus, fillForm, login, search (a page with fields).
 * - `files`: upload (the task allows an upload folder).
 * - `extraction`: list, detail-page and pagination extractors, screenshots (the goal reads as collecting).
 * - `gestures`: hover, drag, selectText, scrollInside, pattern clicks, delay (the goal names the gesture).
 * - `session`: HTTP fetch, SQL and crawl tools that work beside the browser (only when asked for).
 *
 * A tool that names no group is `core`, so a tool of your own is listed on every call.
 */
export const ToolGroup = z.enum(["core", "forms", "files", "extraction", "gestures", "session"])
export type ToolGroup = z.output<typeof ToolGroup>

/** The name rule every tool follows: what models can type reliably. */
export const toolNamePattern = /^[A-Za-z][A-Za-z0-9_]{0,63}$/

/**
 * A tool: a name and description a model can act on, zod schemas for input and output, declared effects,
 * and `run`, which returns an Effect (its services come from the Effect context).
 */
export interface Tool<
  Name extends string = string,
  Input extends z.ZodType = z.ZodType,
  Output extends z.ZodType = z.ZodType,
  E = unknown,
  R = never,
> {
  readonly name: Name
  readonly description: string
  readonly input: Input
  readonly output: Output
  readonly effects: ToolEffects
  /** The capability group prompts list it under (`core` when the definition names none). */
  readonly group: ToolGroup
  /**
   * Set on a tool kept only so stored plans and cached actions that name it still run: what to call
   * instead. A registry runs it, but never lists it in a catalog.
   */
  readonly deprecated?: string | undefined
  /**
   * The input fields that hold JavaScript the tool runs in the page (`waitFor`'s `js`). A run with
   * secrets refuses a call that sets one: a script written by the caller can read a typed secret and
   * show it in a spelling no redaction knows. Empty or absent: the tool runs no script of the caller's.
   */
  readonly scriptInputs?: ReadonlyArray<string> | undefined
  readonly run: (input: z.output<Input>) => Effect.Effect<z.input<Output>, E, R>
}

/** Any tool, whatever its types. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input and output type
export type AnyTool = Tool<string, z.ZodType, z.ZodType, any, any>

/** The services a tool needs. */
// biome-ignore lint/suspicious/noExplicitAny: matches tools of every input, output and error type
export type ToolRequirements<T> = T extends Tool<string, any, any, any, infer R> ? R : never

/** The typed errors a tool fails with. */
// biome-ignore lint/suspicious/noExplicitAny: matches tools of every input, output and requirement type
export type ToolErrors<T> = T extends Tool<string, any, any, infer E, any> ? E : never

/** What `defineTool` takes. */
export interface ToolDefinition<
  Name extends string,
  Input extends z.ZodType,
  Output extends z.ZodType,
  E,
  R,
> {
  readonly name: Name
  readonly description: string
  readonly input: Input
  readonly output: Output
  readonly effects?: ToolEffectsInput
  /** The capability group prompts list it under; default `core` (listed on every call). */
  readonly group?: ToolGroup
  /** What to call instead, for a tool kept only so stored plans still run (never listed). */
  readonly deprecated?: string
  /**
   * The input fields that hold JavaScript the tool runs in the page, written by its caller (a model):
   * a run with secrets refuses a call that sets one. Every name must be a field of `input`.
   */
  readonly scriptInputs?: ReadonlyArray<string>
  readonly run: (input: z.output<Input>) => Effect.Effect<z.input<Output>, E, R>
}

/**
 * Defines a tool. Third-party tool packages export tools made with this and nothing else.
 * A bad name or an empty description is a programmer mistake and throws at definition time.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { z } from "zod"
 * import { defineTool } from "@sextant/core"
 *
 * export const echo = defineTool({
 *   name: "echo",
 *   description: "Repeat the text back.",
 *   input: z.object({ text: z.string() }),
 *   output: z.object({ text: z.string() }),
 *   effects: { reads: true, idempotent: true },
 *   group: "extraction",
 *   run: ({ text }) => Effect.succeed({ text }),
 * })
 * ```
 */
export const defineTool = <
  const Name extends string,
  Input extends z.ZodType,
  Output extends z.ZodType,
  E,
  R,
>(
  definition: ToolDefinition<Name, Input, Output, E, R>,
): Tool<Name, Input, Output, E, R> => {
  if (!toolNamePattern.test(definition.name)) {
    throw new TypeError(
      `defineTool: name ${JSON.stringify(definition.name)} must start with a letter and use only letters, digits and '_' (at most 64)`,
    )
  }
  if (definition.description.trim() === "") {
    throw new TypeError(`defineTool: tool '${definition.name}' needs a description a model can act on`)
  }
  const group = ToolGroup.safeParse(definition.group ?? "core")
  if (!group.success) {
    throw new TypeError(
      `defineTool: tool '${definition.name}' has group ${JSON.stringify(definition.group)}; use one of ${ToolGroup.options.join(", ")}`,
    )
  }
  const shape = (definition.input as { readonly shape?: Record<string, unknown> }).shape
  const unknownScript = (definition.scriptInputs ?? []).find(
    (field) => shape !== undefined && !Object.hasOwn(shape, field),
  )
  if (unknownScript !== undefined) {
    throw new TypeError(
      `defineTool: tool '${definition.name}' names the script input ${JSON.stringify(unknownScript)}, which is not a field of its input`,
    )
  }
  return Object.freeze({
    name: definition.name,
    description: definition.description.trim(),
    input: definition.input,
    output: definition.output,
    effects: ToolEffects.parse(definition.effects ?? {}),
    group: group.data,
    ...(definition.deprecated === undefined ? {} : { deprecated: definition.deprecated }),
    ...(definition.scriptInputs === undefined || definition.scriptInputs.length === 0
      ? {}
      : { scriptInputs: Object.freeze([...definition.scriptInputs]) }),
    run: definition.run,
  })
}
