import type { z } from "zod"
import type { ClientSession } from "./internal/ClientSession.ts"

/** One block of a tool's answer: text, or a PNG the client shows as an image. */
export type AnswerBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }

/** What a tool answers; `isError` marks a refusal or a failure the model should read and act on. */
export interface ToolAnswer {
  readonly content: ReadonlyArray<AnswerBlock>
  readonly isError?: boolean
}

/**
 * A tool of the MCP server: a short verb, a one-line description, a zod input schema (the JSON Schema
 * the client sees is generated from it) and a handler over the client's session.
 *
 * @example
 * ```ts
 * import { z } from "zod"
 * import { defineMcpTool } from "@sextant/mcp"
 * const title = defineMcpTool({
 *   name: "title",
 *   description: "Page title.",
 *   input: z.object({}),
 *   handle: async (session) => {
 *     const title = await session.call((driver) => driver.title)
 *     return { content: [{ type: "text", text: title }] }
 *   },
 * })
 * ```
 */
export interface McpTool<Input extends z.ZodObject = z.ZodObject> {
  readonly name: string
  readonly description: string
  readonly input: Input
  readonly handle: (session: ClientSession, args: z.output<Input>) => Promise<ToolAnswer>
}

/** Declares an MCP tool with its input type inferred from the schema. */
export const defineMcpTool = <Input extends z.ZodObject>(tool: McpTool<Input>): McpTool<Input> => tool
