import { ActionOp, parseTarget, UploadDirs } from "@sextant/core"
import { Effect } from "effect"
import { z } from "zod"
import { actionsLine, failure, text } from "../internal/Answers.ts"
import { defineMcpTool } from "../McpTool.ts"

const clicking: ReadonlyArray<string> = ["click", "check", "uncheck"]
const placeholder = /<secret:([A-Za-z0-9_.-]+)>/g

/** `act`: one trusted input action on a ref from `look`; the answer says what changed and what is next. */
export const act = defineMcpTool({
  name: "act",
  description: "Act on a ref. Type a secret as <secret:name>.",
  input: z.strictObject({
    ref: z.string().min(1),
    op: ActionOp,
    value: z.union([z.string(), z.number(), z.array(z.string())]).optional(),
  }),
  handle: async (session, args) => {
    try {
      // A secret is revealed only to `input`, whose checks (field kind, page, form and destination origin,
      // the strict guard) run before it is typed: in any other op (a select's option, a text to select, a
      // scroll or drag target) it would reach the page's script unchecked.
      const values =
        typeof args.value === "string" ? [args.value] : Array.isArray(args.value) ? args.value : []
      if (args.op !== "input" && values.some((value) => new RegExp(placeholder.source).test(value)))
        return failure(
          session,
          `value: a secret (<secret:NAME>) is typed only with op "input", into a text field; op "${args.op}" does not take one`,
        )
      const named = typeof args.value === "string" ? [...args.value.matchAll(placeholder)] : []
      const unknown = named.find((match) => !(match[1]! in session.secrets))
      if (unknown !== undefined) {
        const known = Object.keys(session.secrets)
        return failure(
          session,
          `value: no secret named ${unknown[1]}: ${known.length === 0 ? "start the server with --secret NAME" : `known secrets: ${known.join(", ")}`}`,
        )
      }
      const currentUrl = session.lastSnapshot?.url ?? (await session.call((driver) => driver.currentUrl))
      const checked = session.guardrails.check({
        tool: "act",
        effects: {
          navigates: false,
          clicks: clicking.includes(args.op),
          submits: args.op === "press" && args.value === "Enter",
          reads: false,
          idempotent: false,
        },
        args: { ref: args.ref },
        currentUrl,
        snapshot: session.lastSnapshot,
      })
      if ("violation" in checked) return failure(session, checked.violation)
      const value = args.value === undefined ? undefined : session.redactor.reveal(args.value)
      // An upload takes files only from the folders the server was started with (none by default).
      const result = await session.call((driver) =>
        driver
          .act(parseTarget(args.ref), args.op, value)
          .pipe(Effect.provideService(UploadDirs, session.uploadDirs)),
      )
      session.guardrails.commit(checked.charge)
      const landed = session.guardrails.checkUrl(result.url)
      const lines = [
        result.hint,
        `signals: ${result.signals.length === 0 ? "none" : result.signals.join(", ")}`,
        ...(result.url === currentUrl ? [] : [`now at ${result.url}`]),
        ...(result.dialog === undefined ? [] : [`dialog (${result.dialog.type}): ${result.dialog.text}`]),
        ...(result.newTabs === undefined || result.newTabs.length === 0
          ? []
          : [`opened ${result.newTabs.length} tab(s): see tabs`]),
        actionsLine(result.actions),
      ]
      if (landed !== undefined) return failure(session, `${landed.message}\n${lines.join("\n")}`)
      return text(session, lines.join("\n"))
    } catch (error) {
      return failure(session, error)
    }
  },
})
