import type { PageAction } from "@sextant/core"
import type { ToolAnswer } from "../McpTool.ts"
import { type ClientSession, describeError } from "./ClientSession.ts"

/** Elements listed after an action before the list is cut; `look` shows them all. */
export const shownActions = 15

/** The actions a page offers now, in one line: what the model can do next without another look. */
export const actionsLine = (actions: ReadonlyArray<PageAction>): string => {
  const onElements = actions.filter((action) => action.ref !== "_page")
  if (onElements.length === 0) return "next: no actions on this page"
  const listed = onElements
    .slice(0, shownActions)
    .map((action) => `${action.ref} ${action.role} "${action.name}" (${action.ops.join("/")})`)
  const more = onElements.length > shownActions ? `; … ${onElements.length - shownActions} more: look` : ""
  return `next: ${listed.join("; ")}${more}`
}

/** A text answer with every secret value replaced by its placeholder. */
export const text = (session: ClientSession, body: string): ToolAnswer => ({
  content: [{ type: "text", text: session.redactor.text(body) }],
})

/** A refusal or failure the model reads: what happened and what to do. */
export const failure = (session: ClientSession, error: unknown): ToolAnswer => ({
  content: [{ type: "text", text: session.redactor.text(describeError(error)) }],
  isError: true,
})
