import type { BrowserDriverShape, NavigationResult } from "@sextant/core"
import type { Effect } from "effect"
import { z } from "zod"
import { actionsLine, failure, text } from "../internal/Answers.ts"
import type { ClientSession } from "../internal/ClientSession.ts"
import type { ToolAnswer } from "../McpTool.ts"
import { defineMcpTool } from "../McpTool.ts"

/**
 * The URL with the password of its user part as `***`: the browser sent it and keeps the page signed in,
 * and the page's own URL (what `look` shows) no longer holds it, so no answer repeats it.
 */
const withoutPassword = (url: string): string => {
  const parsed = URL.parse(url)
  if (parsed === null || parsed.password === "") return url
  parsed.password = "***"
  return parsed.href
}

/** Moves the page (load, back) under the navigation guardrails, then answers where it landed and what it offers. */
export const navigateWith = async (
  session: ClientSession,
  tool: string,
  url: string | undefined,
  move: (driver: BrowserDriverShape) => Effect.Effect<NavigationResult, unknown>,
): Promise<ToolAnswer> => {
  try {
    const currentUrl = session.lastSnapshot?.url ?? "about:blank"
    const checked = session.guardrails.check({
      tool,
      effects: { navigates: true, clicks: false, submits: false, reads: true, idempotent: false },
      args: url === undefined ? {} : { url },
      currentUrl,
    })
    if ("violation" in checked) return failure(session, checked.violation)
    const landed = await session.call(move)
    session.guardrails.commit(checked.charge)
    const refused = session.guardrails.checkUrl(landed.url)
    const snapshot = await session.call((driver) => driver.look())
    session.lastSnapshot = snapshot
    const body = `${landed.title} — ${withoutPassword(landed.url)}\n${actionsLine(snapshot.actions)}`
    return refused === undefined ? text(session, body) : failure(session, `${refused.message}\n${body}`)
  } catch (error) {
    return failure(session, error)
  }
}

/** `go`: load a URL (http or https, allowed origins only). */
export const go = defineMcpTool({
  name: "go",
  description: "Load a URL.",
  input: z.strictObject({ url: z.string().min(1) }),
  handle: (session, args) => {
    // A path such as "/products" is taken relative to the page the client is on.
    const base = session.lastSnapshot?.url
    const url =
      base !== undefined && /^https?:/.test(base) && URL.canParse(args.url, base) && !URL.canParse(args.url)
        ? new URL(args.url, base).href
        : args.url
    return navigateWith(session, "go", url, (driver) => driver.navigate(url))
  },
})

/** `back`: the previous page of the history. */
export const back = defineMcpTool({
  name: "back",
  description: "Go back.",
  input: z.strictObject({}),
  handle: (session) => navigateWith(session, "back", undefined, (driver) => driver.back),
})
