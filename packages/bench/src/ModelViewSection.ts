import { readdir } from "node:fs/promises"
import {
  type AnyTool,
  type ChatMessage,
  decodeAgentTask,
  type GenerateRequest,
  LanguageModel,
  type LookOptions,
  ToolRegistry,
} from "@sextant/core"
import { makeLlmPlanner, makeLlmStepPolicy } from "@sextant/planner"
import { browserTools, compoundTools } from "@sextant/tools"
import { Effect } from "effect"
import { OFFLINE_ARGS, serveCorpus } from "./CorpusSection.ts"
import { BenchError } from "./Measure.ts"
import type { TableSection } from "./Report.ts"
import { openSextant } from "./SextantDriver.ts"
import { median } from "./Stats.ts"
import { countTokens } from "./Tokens.ts"

/** The goal every page's turn is asked with: a first turn, no history, as a run starts. */
const GOAL = "Find the page's main article and open it"

/** The old policy's cut of the outline, measured beside the view for comparison. */
const OLD_CUT_CHARS = 6000

/** What the model step's first turn on one page sends. */
export interface ModelViewPageResult {
  readonly page: string
  /** Elements the page's full view prints with a ref (`[ref=eN]`). */
  readonly controls: number
  /** Of them, the ones whose ref the prompt carries. */
  readonly seen: number
  /** Tokens of the turn's user message (history, goal, URL, page view): what changes per page. */
  readonly messageTokens: number
  /** Tokens of the system prompt (instructions and the tool catalog of the groups the page needs). */
  readonly systemTokens: number
  /** The same with every tool listed, the folded scroll names included: the prompt before capability groups. */
  readonly everyToolSystemTokens: number
  /** Whether the catalog lists the form tools (the page shows a field). */
  readonly formTools: boolean
  /** Tokens of the LLM planner's system prompt (role, rules, catalog by capability) on the page. */
  readonly planSystemTokens: number
  /** The same with every tool listed, as before capability groups. */
  readonly planEveryToolSystemTokens: number
  /** Tokens of the plan request's user message (goal, start URL, page). */
  readonly planMessageTokens: number
  /** The same with the old policy: the full view cut at 6,000 characters. */
  readonly cutSeen: number
  readonly cutMessageTokens: number
}

export interface ModelViewResult {
  readonly folder: string
  readonly view: LookOptions
  /** Tools in the registry whose catalog the system prompt carries. */
  readonly tools: number
  /** Of them, the ones a catalog may list (not kept only as old names). */
  readonly listable: number
  readonly pages: ReadonlyArray<ModelViewPageResult>
}

const refsOf = (text: string): Set<string> =>
  new Set([...text.matchAll(/\[ref=(e\d+)\]/g)].map((match) => match[1]!))

/** Refs a prompt carries, in either form a view prints them (`[ref=e4]`, `e4 Home`). */
const refsIn = (text: string): Set<string> =>
  new Set([...text.matchAll(/(?<![\w-])(e\d+)(?![\w-])/g)].map((match) => match[1]!))

const textOf = (message: ChatMessage | undefined): string =>
  message === undefined
    ? ""
    : typeof message.content === "string"
      ? message.content
      : message.content.map((part) => (part.type === "text" ? part.text : "")).join("")

/**
 * The model step's first turn on every page of a folder of saved real pages: the page opened in
 * Sextant's driver, looked at with the view the LLM step policy asks for (`policy.view`), and the
 * prompt the policy sends for it captured from a recording `LanguageModel` (the same code path as a
 * run; no model answers). Counts the prompt's o200k tokens and which of the page's refs it carries,
 * beside the old policy's prompt (the full view cut at 6,000 characters).
 */
export const measureModelView = async (
  folder: string,
  progress: (line: string) => void,
  only?: ReadonlyArray<string>,
): Promise<ModelViewResult> => {
  const all = (await readdir(folder)).filter((name) => name.endsWith(".html")).sort()
  const names = only === undefined ? all : all.filter((name) => only.includes(name))
  const unknown = (only ?? []).filter((name) => !all.includes(name))
  if (unknown.length > 0) throw new BenchError("model view page list", unknown.join(", "), `not in ${folder}`)
  const requests: Array<GenerateRequest> = []
  const model = LanguageModel.of({
    model: "recording",
    supportsImages: false,
    generate: (request) =>
      Effect.sync(() => {
        requests.push(request)
        return {
          text: '{"tool_calls":[]}',
          usage: { prompt: 0, completion: 0, total: 0 },
          model: "recording",
          durationMs: 0,
        }
      }),
  })
  const tools: ReadonlyArray<AnyTool> = [...browserTools, ...compoundTools]
  const registry = Effect.runSync(ToolRegistry.make(tools))
  // The registry as it was before capability groups: every tool listed, the folded scroll names too.
  const everyTool = Effect.runSync(
    ToolRegistry.make(tools.map((tool) => ({ ...tool, deprecated: undefined }) as AnyTool)),
  )
  const [policy, oldPolicy, everyToolPolicy, planner, everyToolPlanner] = await Effect.runPromise(
    Effect.all([
      makeLlmStepPolicy({ registry }),
      makeLlmStepPolicy({ registry, maxOutlineChars: OLD_CUT_CHARS }),
      makeLlmStepPolicy({ registry: everyTool, toolGroups: "all" }),
      makeLlmPlanner({ registry }),
      makeLlmPlanner({ registry: everyTool, toolGroups: "all" }),
    ]).pipe(Effect.provideService(LanguageModel, model)),
  )
  const view = policy.view ?? {}
  const server = await serveCorpus(folder)
  const sextant = await openSextant(OFFLINE_ARGS).catch(async (cause) => {
    await server.close()
    throw cause
  })
  try {
    progress(`model view: ${names.length} pages from ${folder}, view ${JSON.stringify(view)}`)
    const pages: Array<ModelViewPageResult> = []
    for (const name of names) {
      try {
        const url = `${server.url}/${encodeURIComponent(name)}`
        await sextant.navigate(url).catch(async (cause) => {
          if ((cause as { reason?: { _tag?: string } }).reason?._tag !== "DialogOpen") throw cause
          while ((await Effect.runPromise(sextant.driver.dialog)) !== undefined)
            await Effect.runPromise(sextant.driver.respondToDialog(false))
        })
        const full = await Effect.runPromise(sextant.driver.look())
        const budgeted = await Effect.runPromise(sextant.driver.look(view))
        const turn = (outline: string, which: typeof policy) => {
          requests.length = 0
          Effect.runSync(which.decide({ goal: GOAL, url: full.url, outline, history: [] }))
          const request = requests[0]
          if (request === undefined) throw new BenchError("model view", name, "the policy sent no request")
          return {
            system: textOf(request.messages.find((message) => message.role === "system")),
            message: textOf(request.messages.find((message) => message.role === "user")),
          }
        }
        const now = turn(budgeted.tree, policy)
        const before = turn(full.tree, oldPolicy)
        const everyToolTurn = turn(budgeted.tree, everyToolPolicy)
        const planTask = Effect.runSync(decodeAgentTask({ goal: GOAL, startUrl: full.url }))
        const plan = async (which: typeof planner) => {
          requests.length = 0
          // The recording model answers no steps, so the plan fails with CannotPlan: only the request counts.
          await Effect.runPromise(Effect.result(which.plan(planTask, { snapshot: budgeted })))
          const request = requests[0]
          if (request === undefined) throw new BenchError("model view", name, "the planner sent no request")
          return {
            system: textOf(request.messages.find((message) => message.role === "system")),
            message: textOf(request.messages.find((message) => message.role === "user")),
          }
        }
        const planNow = await plan(planner)
        const planEveryTool = await plan(everyToolPlanner)
        const controls = refsOf(full.tree)
        const seenIn = (text: string) => {
          const carried = refsIn(text)
          return [...controls].filter((ref) => carried.has(ref)).length
        }
        pages.push({
          page: name,
          controls: controls.size,
          seen: seenIn(now.message),
          messageTokens: countTokens(now.message),
          systemTokens: countTokens(now.system),
          everyToolSystemTokens: countTokens(everyToolTurn.system),
          formTools: now.system.includes("\n- fill("),
          planSystemTokens: countTokens(planNow.system),
          planEveryToolSystemTokens: countTokens(planEveryTool.system),
          planMessageTokens: countTokens(planNow.message),
          cutSeen: seenIn(before.message),
          cutMessageTokens: countTokens(before.message),
        })
      } catch (cause) {
        throw cause instanceof BenchError ? cause : new BenchError("model view page", name, cause)
      }
      if (pages.length % 20 === 0) progress(`model view: ${pages.length} of ${names.length} pages`)
    }
    return { folder, view, tools: tools.length, listable: registry.catalog().length, pages }
  } finally {
    await sextant.close().catch(() => undefined)
    await server.close().catch(() => undefined)
  }
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`
const share = (page: ModelViewPageResult, seen: number) => (page.controls === 0 ? 1 : seen / page.controls)

/** The model step's prompt on the corpus, with the view and with the old cut. */
export const modelViewSections = (result: ModelViewResult): ReadonlyArray<TableSection> => {
  const pages = result.pages
  const full = pages.filter((page) => page.seen === page.controls).length
  const cutFull = pages.filter((page) => page.cutSeen === page.controls).length
  const messages = median(pages.map((page) => page.messageTokens))
  const cutMessages = median(pages.map((page) => page.cutMessageTokens))
  const system = median(pages.map((page) => page.systemTokens))
  const over = pages.filter((page) => page.messageTokens > 1500).length
  const lowestShare = Math.min(...pages.map((page) => share(page, page.seen)))
  const cutShare = median(pages.map((page) => share(page, page.cutSeen)))
  const table: TableSection = {
    title: `The model step's prompt on ${pages.length} real pages`,
    note: `First turn of the LLM step policy (\`makeLlmStepPolicy\`, createAgent's tool registry) on each page, its prompt captured from a recording LanguageModel; the view it asks for: \`look(${JSON.stringify(result.view)})\`. Refs: elements the page's full view prints with \`[ref=eN]\`. Old: the full view cut at ${OLD_CUT_CHARS} characters, as the policy did before. o200k tokens, medians over pages.`,
    headers: ["Measure", "Budgeted view", "Old cut (6,000 chars)", "Goal", "Met"],
    rows: [
      [
        "Pages where the prompt carries every ref",
        `${full} / ${pages.length} (lowest ${percent(lowestShare)})`,
        `${cutFull} / ${pages.length} (median ${percent(cutShare)})`,
        "every page",
        full === pages.length ? "yes" : "no",
      ],
      [
        "Per-turn message tokens (history, goal, URL, page view), median",
        String(Math.round(messages)),
        String(Math.round(cutMessages)),
        "≤ 1500",
        messages <= 1500 ? "yes" : "no",
      ],
      ["Pages whose message is over 1,500 tokens", `${over} / ${pages.length}`, "", "", ""],
      [
        "System prompt tokens (instructions + the catalog of the groups the page needs), median",
        String(Math.round(system)),
        String(Math.round(system)),
        "",
        "",
      ],
    ],
  }
  const range = (values: ReadonlyArray<number>) =>
    `${Math.round(median(values))} (${Math.min(...values)}–${Math.max(...values)})`
  const withForms = pages.filter((page) => page.formTools).length
  const promptSizes: TableSection = {
    title: "Prompt sizes: every tool listed (before) and tools by capability (after)",
    note: `The same first turn and the LLM planner's first plan (\`makeLlmPlanner\`, same goal, the page's budgeted view as its snapshot), each prompt captured from the recording LanguageModel. Before: the catalog lists all ${result.tools} tools of createAgent's registry, the six folded scroll names included, on every call. After: the ${result.listable} listable tools by capability group: the core tools, the form tools on a page that shows a field (${withForms} of ${pages.length} pages), no session, upload, extraction or gesture tools for this goal. o200k tokens, median (lowest–highest) over pages.`,
    headers: ["Prompt part", "Before: every tool", "After: by capability", "Saved (median)"],
    rows: [
      [
        "Step policy system prompt (instructions + catalog), every turn",
        range(pages.map((page) => page.everyToolSystemTokens)),
        range(pages.map((page) => page.systemTokens)),
        String(
          Math.round(
            median(pages.map((page) => page.everyToolSystemTokens)) -
              median(pages.map((page) => page.systemTokens)),
          ),
        ),
      ],
      [
        "Step policy whole first-turn prompt (system + message)",
        range(pages.map((page) => page.everyToolSystemTokens + page.messageTokens)),
        range(pages.map((page) => page.systemTokens + page.messageTokens)),
        "",
      ],
      [
        "Plan system prompt (role, rules, catalog)",
        range(pages.map((page) => page.planEveryToolSystemTokens)),
        range(pages.map((page) => page.planSystemTokens)),
        String(
          Math.round(
            median(pages.map((page) => page.planEveryToolSystemTokens)) -
              median(pages.map((page) => page.planSystemTokens)),
          ),
        ),
      ],
      [
        "Whole plan prompt (system + goal and page)",
        range(pages.map((page) => page.planEveryToolSystemTokens + page.planMessageTokens)),
        range(pages.map((page) => page.planSystemTokens + page.planMessageTokens)),
        "",
      ],
    ],
  }
  const heavy = [...pages].sort((left, right) => right.messageTokens - left.messageTokens).slice(0, 5)
  const largest: TableSection = {
    title: "Largest model-step messages",
    headers: ["Page", "Refs", "Message tokens", "Refs seen", "Old: tokens", "Old: refs seen"],
    rows: heavy.map((page) => [
      page.page,
      String(page.controls),
      String(page.messageTokens),
      `${page.seen}`,
      String(page.cutMessageTokens),
      `${page.cutSeen}`,
    ]),
  }
  return [table, promptSizes, largest]
}
