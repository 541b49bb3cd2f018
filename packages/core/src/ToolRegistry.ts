import { Effect } from "effect"
import { z } from "zod"
import { AgentError, DuplicateTool, InvalidToolArgs, UnknownTool } from "./Errors.ts"
import type { AnyTool, ToolEffects, ToolErrors, ToolGroup, ToolRequirements } from "./Tool.ts"
import { formatIssues } from "./Validation.ts"

/** One tool as a prompt or an MCP client sees it. */
export interface ToolCatalogEntry {
  readonly name: string
  readonly description: string
  readonly effects: ToolEffects
  readonly group: ToolGroup
  /** JSON Schema (draft 2020-12) of the tool's input. */
  readonly inputSchema: Record<string, unknown>
}

const jsonSchemaOf = (schema: z.ZodType): Record<string, unknown> => {
  const rendered = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" })
  return rendered as Record<string, unknown>
}

/** Top-level keys of `args` that an object input schema neither declares nor lets through. */
const unknownArguments = (schema: z.ZodType, args: unknown): ReadonlyArray<string> => {
  if (!(schema instanceof z.ZodObject) || schema._zod.def.catchall !== undefined) return []
  if (typeof args !== "object" || args === null || Array.isArray(args)) return []
  return Object.keys(args).filter((key) => !Object.hasOwn(schema.shape, key))
}

const argumentSummary = (schema: Record<string, unknown>): string => {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; description?: unknown }>
  const required = new Set((schema.required ?? []) as ReadonlyArray<string>)
  return Object.entries(properties)
    .map(([name, property]) => {
      const type = Array.isArray(property.type) ? property.type.join("|") : String(property.type ?? "any")
      return `${name}${required.has(name) ? "" : "?"}: ${type}`
    })
    .join(", ")
}

/** Which tools a rendered catalog lists: those of `groups`, plus `tools` by name. */
export interface CatalogSelection {
  /** Groups whose tools are listed (every group when left out). */
  readonly groups?: ReadonlyArray<ToolGroup> | undefined
  /** Tools listed whatever their group. */
  readonly tools?: ReadonlyArray<string> | undefined
}

/**
 * The tools an agent may call, by unique name. It renders the catalog for prompts (names, descriptions,
 * JSON Schema), decodes a model's arguments against each tool's input schema, and runs tools.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ToolRegistry } from "@sextant/core"
 * const registry = Effect.runSync(ToolRegistry.make([echo]))
 * registry.renderCatalog() // "- echo(text: string): Repeat the text back."
 * ```
 */
export class ToolRegistry<E = unknown, R = unknown> {
  readonly #tools: ReadonlyMap<string, AnyTool>
  #catalog: ReadonlyArray<ToolCatalogEntry> | undefined

  private constructor(tools: ReadonlyMap<string, AnyTool>) {
    this.#tools = tools
  }

  /**
   * Builds a registry, failing with `DuplicateTool` when two tools share a name. The registry's type
   * carries the errors and services of its tools, so `run` says what it needs.
   */
  static make<T extends AnyTool>(
    tools: Iterable<T>,
  ): Effect.Effect<ToolRegistry<ToolErrors<T>, ToolRequirements<T>>, AgentError> {
    const byName = new Map<string, AnyTool>()
    for (const tool of tools) {
      if (byName.has(tool.name)) {
        return Effect.fail(new AgentError({ reason: new DuplicateTool({ tool: tool.name }) }))
      }
      byName.set(tool.name, tool)
    }
    return Effect.succeed(new ToolRegistry<ToolErrors<T>, ToolRequirements<T>>(byName))
  }

  /** A new registry with more tools; fails with `DuplicateTool` on a name already present. */
  with<T extends AnyTool>(
    tools: Iterable<T>,
  ): Effect.Effect<ToolRegistry<E | ToolErrors<T>, R | ToolRequirements<T>>, AgentError> {
    return ToolRegistry.make([...this.#tools.values(), ...tools]) as Effect.Effect<
      ToolRegistry<E | ToolErrors<T>, R | ToolRequirements<T>>,
      AgentError
    >
  }

  /** The registered names, in registration order. */
  get names(): ReadonlyArray<string> {
    return [...this.#tools.keys()]
  }

  /** Every registered tool, in registration order. */
  get tools(): ReadonlyArray<AnyTool> {
    return [...this.#tools.values()]
  }

  has(name: string): boolean {
    return this.#tools.has(name)
  }

  /** The tool called `name`, or `UnknownTool` listing the known names. */
  get(name: string): Effect.Effect<AnyTool, AgentError> {
    const tool = this.#tools.get(name)
    return tool === undefined
      ? Effect.fail(new AgentError({ reason: new UnknownTool({ tool: name, known: this.names }) }))
      : Effect.succeed(tool)
  }

  /**
   * The catalog with each tool's input as JSON Schema (computed once). A deprecated tool (kept so
   * stored plans still run) is left out: the registry still runs it, but no model is offered it.
   */
  catalog(): ReadonlyArray<ToolCatalogEntry> {
    this.#catalog ??= this.tools
      .filter((tool) => tool.deprecated === undefined)
      .map((tool) => ({
        name: tool.name,
        description: tool.description,
        effects: tool.effects,
        // A tool built without defineTool (an object of the same shape) counts as core.
        group: tool.group ?? "core",
        inputSchema: jsonSchemaOf(tool.input),
      }))
    return this.#catalog
  }

  /**
   * A compact catalog for prompts: one line per tool, `- name(arg: type, opt?: type): description`.
   * With a selection, only the tools of its groups and the tools it names.
   */
  renderCatalog(selection: CatalogSelection = {}): string {
    const groups = selection.groups === undefined ? undefined : new Set(selection.groups)
    const named = new Set(selection.tools ?? [])
    return this.catalog()
      .filter((entry) => groups === undefined || groups.has(entry.group) || named.has(entry.name))
      .map((entry) => `- ${entry.name}(${argumentSummary(entry.inputSchema)}): ${entry.description}`)
      .join("\n")
  }

  /**
   * Decodes arguments for `name`; failures name the tool, each bad field and its rule. An argument the
   * tool does not take is an error too (a misspelt optional argument would otherwise be dropped without
   * a word), unless the tool's input schema accepts extra keys itself.
   */
  decodeArgs(name: string, args: unknown): Effect.Effect<unknown, AgentError> {
    return Effect.flatMap(this.get(name), (tool) => {
      const unknown = unknownArguments(tool.input, args)
      if (unknown.length > 0) {
        const takes = Object.keys((tool.input as z.ZodObject).shape)
        const accepted = takes.length === 0 ? "no arguments" : `only ${takes.join(", ")}`
        return Effect.fail(
          new AgentError({
            reason: new InvalidToolArgs({
              tool: name,
              issues: unknown.map(
                (key) => `args.${key}: '${name}' has no argument '${key}'; it takes ${accepted}`,
              ),
            }),
          }),
        )
      }
      const result = tool.input.safeParse(args ?? {})
      return result.success
        ? Effect.succeed(result.data)
        : Effect.fail(
            new AgentError({
              reason: new InvalidToolArgs({ tool: name, issues: formatIssues("args", result.error, args) }),
              cause: result.error,
            }),
          )
    })
  }

  /** Decodes the arguments, then runs the tool. */
  run(name: string, args: unknown): Effect.Effect<unknown, AgentError | E, R> {
    return Effect.flatMap(this.decodeArgs(name, args), (input) =>
      Effect.flatMap(this.get(name), (tool) => tool.run(input) as Effect.Effect<unknown, E, R>),
    )
  }
}
