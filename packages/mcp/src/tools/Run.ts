import { BrowserDriver, decodeAgentTask } from "@sextant/core"
import { type ExecutorOptions, planAndRun, runAgent } from "@sextant/executor"
import { SqliteStore } from "@sextant/memory"
import { Planner } from "@sextant/planner"
import { browserTools, compoundTools } from "@sextant/tools"
import { Effect, Layer } from "effect"
import { z } from "zod"
import { failure, text } from "../internal/Answers.ts"
import { guardrailOptions } from "../internal/ClientSession.ts"
import { defineMcpTool } from "../McpTool.ts"

/** The parts of a goal a run did not meet, when the executor reports them. */
const unmetPartsOf = (summary: object): ReadonlyArray<unknown> => {
  const parts = (summary as { readonly unmetParts?: unknown }).unmetParts
  return Array.isArray(parts) ? parts : []
}

const describePart = (part: unknown): string => {
  if (typeof part === "string") return part
  if (typeof part === "object" && part !== null) {
    // An unmet part as the executor reports it: { part, check, evidence }.
    const { part: name, check, evidence, seen, message } = part as Record<string, unknown>
    const found = evidence ?? seen
    const words = [name, check, found === undefined ? undefined : `saw ${String(found)}`, message].filter(
      (word) => typeof word === "string" && word !== "",
    )
    if (words.length > 0) return words.join(": ")
  }
  return JSON.stringify(part)
}

/**
 * `run`: a whole goal through the step policy (or the planner) and the executor on this session's
 * browser, from its page as it is (or from `url`), under the same guardrails, the session's quotas (what
 * is left of them) and the session's secret origins (a run's URL never binds a secret); answers the
 * verified outcome, the parts left unmet and what was extracted.
 */
export const run = defineMcpTool({
  name: "run",
  description: "Reach a goal in steps; returns the outcome.",
  input: z.strictObject({ goal: z.string().min(1), url: z.string().optional() }),
  handle: async (session, args) => {
    try {
      // The run counts against this session's quotas: it starts with what is left of them, and its
      // driver charges every navigation, click and submission back to the session as it happens.
      const driver = await session.runDriver()
      const used = session.guardrails.counts()
      const quotas = {
        navigations: Math.max(0, session.quotas.navigations - used.navigations),
        clicks: Math.max(0, session.quotas.clicks - used.clicks),
        submissions: Math.max(0, session.quotas.submissions - used.submissions),
      }
      // Without a URL the run starts on the session's page as it is (a step-wise run does not load it again).
      const here = args.url === undefined ? await session.call((driver) => driver.currentUrl) : undefined
      const startUrl = args.url ?? (here !== undefined && /^https?:/.test(here) ? here : undefined)
      const task = await Effect.runPromise(
        decodeAgentTask({
          goal: args.goal,
          ...(startUrl === undefined ? {} : { startUrl }),
          inputs: session.secrets,
          secretInputs: Object.keys(session.secrets),
          constraints: { ...session.constraints, quotas },
        }),
      )
      const options: ExecutorOptions = {
        tools: [...browserTools, ...compoundTools],
        ...guardrailOptions(session.options),
        ...(session.options.traceDirectory === undefined
          ? {}
          : { traceDirectory: session.options.traceDirectory }),
        ...(args.url === undefined ? { startPage: "current" as const } : {}),
      }
      const policy = session.stepPolicy
      const result = await Effect.runPromise(
        (policy === undefined ? planAndRun(task, options) : runAgent(task, policy, options)).pipe(
          Effect.provide(
            Layer.mergeAll(
              Layer.succeed(BrowserDriver, driver),
              Layer.succeed(Planner, session.planner),
              SqliteStore.layerMemory,
            ),
          ),
        ),
      )
      session.lastSnapshot = undefined
      const unmet = unmetPartsOf(result.summary)
      const output =
        result.output === undefined ? undefined : (JSON.stringify(result.output) ?? String(result.output))
      const cut =
        output !== undefined && output.length > session.options.maxOutputChars
          ? `${output.slice(0, session.options.maxOutputChars)}… (${output.length} characters)`
          : output
      const lines = [
        `${result.status} in ${result.metrics.steps} steps (${result.endReason})`,
        result.summary.summary,
        ...(unmet.length === 0 ? [] : ["unmet:", ...unmet.map((part) => `- ${describePart(part)}`)]),
        ...(cut === undefined ? [] : [`output: ${cut}`]),
        ...(result.summary.nextSuggestions.length === 0
          ? []
          : [`next: ${result.summary.nextSuggestions.join("; ")}`]),
        ...(result.tracePath === undefined ? [] : [`trace: ${result.tracePath}`]),
      ]
      return { ...text(session, lines.join("\n")), isError: result.status !== "COMPLETED" }
    } catch (error) {
      return failure(session, error)
    }
  },
})
