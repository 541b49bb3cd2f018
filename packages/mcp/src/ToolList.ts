import { z } from "zod"
import type { McpTool } from "./McpTool.ts"
import type { ServerOptions } from "./ServerOptions.ts"
import { act } from "./tools/Act.ts"
import { evaluate } from "./tools/Eval.ts"
import { back, go } from "./tools/Go.ts"
import { look } from "./tools/Look.ts"
import { run } from "./tools/Run.ts"
import { screenshot } from "./tools/Screenshot.ts"
import { tabs } from "./tools/Tabs.ts"
import { wait } from "./tools/Wait.ts"

/** The tools a client is offered: `eval` only when the server allows it. */
export const serverTools = (options: Pick<ServerOptions, "allowEval">): ReadonlyArray<McpTool> => [
  look,
  act,
  go,
  back,
  wait,
  ...(options.allowEval ? [evaluate] : []),
  screenshot,
  run,
  tabs,
]

/** A tool as `tools/list` describes it to the client. */
export interface ListedTool {
  readonly name: string
  readonly description: string
  readonly inputSchema: { readonly type: "object"; readonly [key: string]: unknown }
}

/**
 * The JSON Schema of a tool's input as the client sees it. The `$schema` line and
 * `additionalProperties: false` are left out because every client loads this list into a model's
 * context on every turn; the server still refuses unknown fields when it checks the arguments.
 */
const inputSchemaOf = (input: z.ZodObject): ListedTool["inputSchema"] => {
  const { $schema: _schema, additionalProperties: _extra, ...schema } = z.toJSONSchema(input, { io: "input" })
  return { ...schema, type: "object" }
}

/**
 * The `tools/list` answer: what every client loads, and what the tool-list token budget measures.
 *
 * @example
 * ```ts
 * import { listTools } from "@sextant/mcp"
 * JSON.stringify(listTools({ allowEval: false })).length
 * ```
 */
export const listTools = (options: Pick<ServerOptions, "allowEval">): ReadonlyArray<ListedTool> =>
  serverTools(options).map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchemaOf(tool.input),
  }))
