import { BrowserDriver, decodeAgentTask, ToolRegistry } from "@sextant/core"
import { planAndRun, runAgent } from "@sextant/executor"
import { makeRuleStepPolicy, RulePlanner, ruleTextToAction, toolCallFor } from "@sextant/planner"
import { MemoryStore } from "@sextant/testing"
import { browserTools } from "@sextant/tools"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import type { TableSection } from "../Report.ts"
import { quantile } from "../Stats.ts"
import type { Instruction } from "./Instructions.ts"

/**
 * The ways an instruction is run: the rule step policy through `runAgent`; the rule planner's whole plan
 * through `planAndRun` (the `sextant run` default, `--mode plan`); and one text-to-action.
 */
export type GalleryMode = "agent" | "plan" | "oneShot"

/** One instruction run one way, judged by the gallery page's oracle. */
export interface GalleryOutcome {
  readonly id: string
  readonly set: Instruction["set"]
  readonly family: string
  readonly lang: Instruction["lang"]
  readonly mode: GalleryMode
  /** The instruction needs a model (arithmetic, counting, judgement, writing): its right end is FAILED. */
  readonly needsModel: boolean
  /** The page's verdict: the state the instruction asks for was reached. */
  readonly solved: boolean
  /** Sextant's own answer: COMPLETED (agent), or one action chosen and run without error (one-shot). */
  readonly claimed: boolean
  /** How the run ended: the agent's status (COMPLETED, FAILED, …, ERROR), or one-shot's `acted` / `no action`. */
  readonly status: string
  /** Sextant's own words about the run: the agent's summary, or why one-shot chose no action. */
  readonly message: string
  /** The instruction's text, for reading the outcome beside it. */
  readonly text: string
  readonly ms: number
  /** The keys the page still disagreed on, or why the run stopped. */
  readonly detail: string
}

interface Verdict {
  readonly achieved: boolean
  readonly unmet: ReadonlyArray<{
    readonly key: string
    readonly expected: unknown
    readonly actual?: unknown
  }>
}

const registerRun = async (base: string, instruction: Instruction) => {
  const response = await fetch(`${base}/gallery/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ page: instruction.page, expect: instruction.expect }),
  })
  if (response.status !== 201)
    throw new Error(
      `${instruction.id}: POST /gallery/runs answered ${response.status}: ${await response.text()}`,
    )
  return (await response.json()) as { run: string; path: string }
}

/** The page reports its state every 150 ms; a verdict is read once the last report can have landed. */
const readVerdict = async (base: string, run: string): Promise<Verdict> => {
  let verdict = (await (await fetch(`${base}/gallery/runs/${run}`)).json()) as Verdict
  for (let waited = 0; !verdict.achieved && waited < 600; waited += 150) {
    await new Promise((resolve) => setTimeout(resolve, 150))
    verdict = (await (await fetch(`${base}/gallery/runs/${run}`)).json()) as Verdict
  }
  return verdict
}

const unmetText = (verdict: Verdict) =>
  verdict.unmet
    .map(
      (entry) =>
        `${entry.key}=${JSON.stringify(entry.actual ?? null)} (want ${JSON.stringify(entry.expected)})`,
    )
    .join(", ")

export interface GalleryOptions {
  readonly base: string
  readonly instructions: ReadonlyArray<Instruction>
  readonly modes?: ReadonlyArray<GalleryMode>
  readonly progress?: (line: string) => void
}

/**
 * Runs every instruction on its gallery page in one Chromium session: with the rule step policy through
 * `runAgent` (a fresh run per instruction, form submission allowed, at most 12 steps and 20 s), and as
 * one rule text-to-action (one look, one action). The page's oracle scores each run.
 */
export const runGallery = async (options: GalleryOptions): Promise<ReadonlyArray<GalleryOutcome>> => {
  const modes = options.modes ?? ["agent", "oneShot"]
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(
      WebdriverioDriver.layer({ windowSize: { width: 1280, height: 900 } }),
      MemoryStore.layerTest,
      RulePlanner.layer,
    ),
  )
  const outcomes: Array<GalleryOutcome> = []
  try {
    const registry = await runtime.runPromise(ToolRegistry.make(browserTools))
    // The registry holds the browser tools, `pickDate` among them.
    const policy = makeRuleStepPolicy({ pickDateTool: true })
    for (const instruction of options.instructions) {
      for (const mode of modes) {
        const { run, path } = await registerRun(options.base, instruction)
        const url = `${options.base}${path}`
        const started = performance.now()
        let claimed = false
        let detail = ""
        let status = ""
        let message = ""
        if (mode === "agent" || mode === "plan") {
          const task = Effect.runSync(
            decodeAgentTask({
              goal: instruction.text,
              startUrl: url,
              constraints: {
                allowFormSubmission: true,
                maxSteps: 12,
                maxDurationMs: 20_000,
                stepTimeoutMs: 8_000,
              },
            }),
          )
          const result = await runtime.runPromise(
            (mode === "agent"
              ? runAgent(task, policy, { tools: registry, maxConsecutiveNoOps: 3, noOpBackoffMs: 250 })
              : planAndRun(task, { tools: registry })
            ).pipe(
              Effect.map((value) => ({ status: value.status, summary: value.summary.summary })),
              Effect.catch((error) => Effect.succeed({ status: "ERROR", summary: String(error) })),
            ),
          )
          claimed = result.status === "COMPLETED"
          status = result.status
          message = result.summary
          if (!claimed) detail = `${result.status}: ${result.summary}`
        } else {
          const answer = await runtime.runPromise(
            Effect.gen(function* () {
              const driver = yield* BrowserDriver
              yield* driver.navigate(url)
              const snapshot = yield* driver.look()
              const decision = yield* ruleTextToAction({
                command: instruction.text,
                elements: Object.values(snapshot.elements),
                outline: snapshot.tree,
              })
              const action = "elements" in decision ? decision.elements[0] : undefined
              if (action === undefined)
                return {
                  claimed: false,
                  detail: `no action: ${"summary" in decision ? decision.summary : ""}`,
                }
              const call = toolCallFor(action, snapshot.url)
              yield* registry.run(call.name, call.args)
              return { claimed: true, detail: "" }
            }).pipe(
              Effect.catch((error) =>
                Effect.succeed({ claimed: false, detail: String(error).slice(0, 200) }),
              ),
            ),
          )
          claimed = answer.claimed
          detail = answer.detail
          status = answer.claimed ? "acted" : "no action"
          message = answer.detail
        }
        const ms = performance.now() - started
        // The page posts its state a moment after each change; on a loaded machine that moment came
        // after the verdict was read. Have it post now and wait for the server's answer. A page without
        // the gallery runtime (the run left the gallery) has nothing to post: the verdict is read as it
        // is, with the short wait in readVerdict.
        await runtime.runPromise(
          Effect.gen(function* () {
            const driver = yield* BrowserDriver
            return yield* driver.evaluate(
              "return typeof window.__galleryFlush === 'function' ? window.__galleryFlush() : false",
            )
          }).pipe(Effect.orElseSucceed(() => false)),
        )
        const verdict = await readVerdict(options.base, run)
        const outcome: GalleryOutcome = {
          id: instruction.id,
          set: instruction.set,
          family: instruction.family,
          lang: instruction.lang,
          mode,
          needsModel: instruction.needsModel === true,
          solved: verdict.achieved,
          claimed,
          status,
          message,
          text: instruction.text,
          ms,
          detail: [detail, verdict.achieved ? "" : unmetText(verdict)]
            .filter((part) => part !== "")
            .join(" · "),
        }
        outcomes.push(outcome)
        options.progress?.(
          `${instruction.id} ${mode} ${outcome.solved ? "solved" : "FAILED"}${outcome.claimed === outcome.solved ? "" : " (status disagrees)"} ${Math.round(ms)} ms  ${instruction.text}${outcome.detail === "" ? "" : `  — ${outcome.detail.slice(0, 400)}`}`,
        )
      }
    }
    return outcomes
  } finally {
    await runtime.dispose()
  }
}

const percent = (part: number, whole: number) => (whole === 0 ? "—" : `${((100 * part) / whole).toFixed(1)}%`)
const median = (values: ReadonlyArray<number>) =>
  values.length === 0
    ? Number.NaN
    : quantile(
        [...values].sort((a, b) => a - b),
        0.5,
      )

interface Rate {
  readonly solved: number
  readonly total: number
  readonly agree: number
  readonly medianSolvedMs: number
}

const rate = (outcomes: ReadonlyArray<GalleryOutcome>): Rate => ({
  solved: outcomes.filter((outcome) => outcome.solved).length,
  total: outcomes.length,
  agree: outcomes.filter((outcome) => outcome.solved === outcome.claimed).length,
  medianSolvedMs: median(outcomes.filter((outcome) => outcome.solved).map((outcome) => outcome.ms)),
})

const cells = (outcomes: ReadonlyArray<GalleryOutcome>, mode: GalleryMode): ReadonlyArray<string> => {
  const of = rate(outcomes.filter((outcome) => outcome.mode === mode))
  return [`${of.solved}/${of.total}`, percent(of.solved, of.total)]
}

/** The numbers the acceptance asks for, per mode. */
export const gallerySummary = (outcomes: ReadonlyArray<GalleryOutcome>, mode: GalleryMode) => {
  const mine = outcomes.filter((outcome) => outcome.mode === mode)
  const families = [...new Set(mine.map((outcome) => outcome.family))]
  const byFamily = families.map((family) => ({
    family,
    ...rate(mine.filter((outcome) => outcome.family === family)),
  }))
  const slowest = [...byFamily]
    .filter((entry) => entry.solved > 0)
    .sort((a, b) => b.medianSolvedMs - a.medianSolvedMs)[0]
  return {
    overall: rate(mine),
    frozen: rate(mine.filter((outcome) => outcome.set === "frozen")),
    rest: rate(mine.filter((outcome) => outcome.set === "rest")),
    holdout: rate(mine.filter((outcome) => outcome.set === "holdout")),
    en: rate(mine.filter((outcome) => outcome.lang === "en")),
    zh: rate(mine.filter((outcome) => outcome.lang === "zh")),
    byFamily,
    slowestFamily: slowest?.family,
  }
}

const fmtMs = (value: number) => (Number.isNaN(value) ? "—" : String(Math.round(value)))

/** The gallery tables: success by family and by language/set, both modes side by side. */
export const gallerySections = (
  outcomes: ReadonlyArray<GalleryOutcome>,
  seed: number,
): ReadonlyArray<TableSection> => {
  const agent = gallerySummary(outcomes, "agent")
  // The plan mode's columns appear when it was run (`--modes agent,plan`).
  const withPlan = outcomes.some((outcome) => outcome.mode === "plan")
  const families = [...new Set(outcomes.map((outcome) => outcome.family))].sort()
  const groups: ReadonlyArray<readonly [string, (outcome: GalleryOutcome) => boolean]> = [
    ["all", () => true],
    ["frozen + written after", (outcome) => outcome.set !== "holdout"],
    ["frozen half", (outcome) => outcome.set === "frozen"],
    ["written after", (outcome) => outcome.set === "rest"],
    ["held-out", (outcome) => outcome.set === "holdout"],
    ["English", (outcome) => outcome.lang === "en"],
    ["Chinese", (outcome) => outcome.lang === "zh"],
  ]
  return [
    {
      title: `Gallery: instructions solved, by set and language (fixture widget gallery, seed ${seed})`,
      note: `Each instruction runs on its /gallery page; the page's own oracle scores it. "status agrees" is how often Sextant's own status (agent: COMPLETED; one-shot: an action chosen and run) matched the page's verdict. Median time is over solved instructions, from the registered run to the end of the run. "held-out" is a set written without reading the rule parser and committed (hash-checked) before any run on it; its first run is the untuned figure, and the bench README lists every change made after seeing it. Slowest family (agent, by median solved time): ${agent.slowestFamily ?? "—"}.`,
      headers: [
        "group",
        "agent solved",
        "agent %",
        "agent status agrees",
        "agent median ms (solved)",
        "one-shot solved",
        "one-shot %",
        ...(withPlan ? ["plan solved", "plan %", "plan status agrees"] : []),
      ],
      rows: groups.map(([name, keep]) => {
        const chosen = outcomes.filter(keep)
        const agentRate = rate(chosen.filter((outcome) => outcome.mode === "agent"))
        const planRate = rate(chosen.filter((outcome) => outcome.mode === "plan"))
        return [
          name,
          `${agentRate.solved}/${agentRate.total}`,
          percent(agentRate.solved, agentRate.total),
          percent(agentRate.agree, agentRate.total),
          fmtMs(agentRate.medianSolvedMs),
          ...cells(chosen, "oneShot"),
          ...(withPlan ? [...cells(chosen, "plan"), percent(planRate.agree, planRate.total)] : []),
        ]
      }),
    },
    {
      title: "Gallery: instructions solved, by family",
      note: "The frozen and written-after sets (the instructions the rule parser was developed against) apart from the held-out set, which no rule was written for before its first run.",
      headers: [
        "family",
        "agent solved",
        "agent %",
        "agent median ms (solved)",
        "one-shot solved",
        "one-shot %",
        "held-out agent solved",
        "held-out agent %",
      ],
      rows: families.map((family) => {
        const chosen = outcomes.filter((outcome) => outcome.family === family)
        const tuned = chosen.filter((outcome) => outcome.set !== "holdout")
        const agentRate = rate(tuned.filter((outcome) => outcome.mode === "agent"))
        return [
          family,
          ...cells(tuned, "agent"),
          fmtMs(agentRate.medianSolvedMs),
          ...cells(tuned, "oneShot"),
          ...cells(
            chosen.filter((outcome) => outcome.set === "holdout"),
            "agent",
          ),
        ]
      }),
    },
  ]
}

const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "the",
  "to",
  "of",
  "in",
  "on",
  "for",
  "it",
  "me",
  "my",
  "is",
  "that",
  "this",
  "with",
  "then",
  "i",
  "you",
  "your",
  "at",
  "as",
  "by",
  "or",
  "be",
  "的",
  "了",
  "把",
  "我",
  "个",
  "一",
  "和",
  "在",
])

/** Words of a text, lower-cased, with each CJK character its own token (Chinese is not spaced). */
const tokens = (text: string): ReadonlyArray<string> =>
  text.toLowerCase().match(/[\p{Script=Han}]|[\p{L}\p{N}][\p{L}\p{N}@.'’:-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ??
  []

/** How many consecutive tokens of the instruction a message must repeat to name one of its steps. */
export const STEP_WINDOW = 3

/**
 * Whether a FAILED run's message names the step it could not do: it repeats a run of `STEP_WINDOW`
 * consecutive words of the instruction (Chinese: characters), not all of them stop words — the whole
 * instruction when it is shorter. "the task failed" names nothing; `could not do "count the circles"`
 * names the step.
 */
export const namesStep = (message: string, instruction: string): boolean => {
  const said = tokens(message).join(" ")
  const asked = tokens(instruction)
  const window = Math.min(STEP_WINDOW, asked.length)
  if (window === 0) return false
  for (let start = 0; start + window <= asked.length; start++) {
    const part = asked.slice(start, start + window)
    if (part.every((token) => STOP_WORDS.has(token))) continue
    if (` ${said} `.includes(` ${part.join(" ")} `)) return true
  }
  return false
}

/** The fresh set's figures for one mode. */
export interface FreshSummary {
  readonly total: number
  /** Instructions a rule agent can carry out, and how many of them the page's oracle judged met. */
  readonly doable: { readonly total: number; readonly solved: number; readonly percent: string }
  /** Instructions that need a model: how many ended FAILED, and how many of those messages name a step. */
  readonly needsModel: {
    readonly total: number
    readonly endedFailed: number
    readonly failedNamingStep: number
  }
  /**
   * Runs that said COMPLETED (one-shot: acted) where that was false: a doable instruction the oracle
   * judged unmet, and every needs-model instruction (no rule agent can have done it).
   */
  readonly falseCompleted: {
    readonly doable: number
    readonly needsModel: number
    readonly total: number
    readonly percent: string
  }
}

/** A set run only when asked and scored by doable solved, needs-model FAILED and false COMPLETED. */
export type SealedSet = "fresh" | "fresh2" | "fresh3"

/**
 * The fresh-set figures the acceptance asks for, from the outcomes of one mode; `set` names which such
 * set (the fresh set unless told).
 */
export const freshSummary = (
  outcomes: ReadonlyArray<GalleryOutcome>,
  mode: GalleryMode,
  set: SealedSet = "fresh",
): FreshSummary => {
  const mine = outcomes.filter((outcome) => outcome.set === set && outcome.mode === mode)
  const doable = mine.filter((outcome) => !outcome.needsModel)
  const model = mine.filter((outcome) => outcome.needsModel)
  const failed = model.filter((outcome) => outcome.status === "FAILED")
  const falseDoable = doable.filter((outcome) => outcome.claimed && !outcome.solved).length
  const falseModel = model.filter((outcome) => outcome.claimed).length
  const solved = doable.filter((outcome) => outcome.solved).length
  return {
    total: mine.length,
    doable: { total: doable.length, solved, percent: percent(solved, doable.length) },
    needsModel: {
      total: model.length,
      endedFailed: failed.length,
      failedNamingStep: failed.filter((outcome) => namesStep(outcome.message, outcome.text)).length,
    },
    falseCompleted: {
      doable: falseDoable,
      needsModel: falseModel,
      total: falseDoable + falseModel,
      percent: percent(falseDoable + falseModel, mine.length),
    },
  }
}

/**
 * The fresh set's table (or the fresh2 or fresh3 set's, given `set`): doable solved, needs-model FAILED, false
 * COMPLETED — per mode and language, then per family.
 */
export const freshSections = (
  outcomes: ReadonlyArray<GalleryOutcome>,
  seed: number,
  set: SealedSet = "fresh",
): ReadonlyArray<TableSection> => {
  const modes = (["agent", "plan", "oneShot"] as const).filter((mode) =>
    outcomes.some((outcome) => outcome.set === set && outcome.mode === mode),
  )
  const groups: ReadonlyArray<readonly [string, (outcome: GalleryOutcome) => boolean]> = [
    ["all", () => true],
    ["English", (outcome) => outcome.lang === "en"],
    ["Chinese", (outcome) => outcome.lang === "zh"],
  ]
  return [
    {
      title: `Gallery, ${set} set: doable solved, needs-model FAILED, false COMPLETED (seed ${seed})`,
      note: `The ${set} set (src/gallery/instructions.${set}.json) was written without reading the rule parser and frozen (hash-checked) before its first run. "doable" instructions are ones a rule agent can carry out; the page's oracle judges them. "needs model" ones (arithmetic, counting, judgement, writing) are right only when the run ends FAILED; "names a step" counts the FAILED messages that repeat ${STEP_WINDOW} consecutive words (Chinese: characters) of the instruction. "false COMPLETED" is a COMPLETED (one-shot: an action run) where the oracle says unmet, plus every needs-model COMPLETED, over all instructions of the row.`,
      headers: [
        "mode",
        "group",
        "doable solved",
        "doable %",
        "needs model: ended FAILED",
        "FAILED naming a step",
        "false COMPLETED (doable + needs model)",
        "false COMPLETED %",
      ],
      rows: modes.flatMap((mode) =>
        groups.map(([name, keep]) => {
          const figures = freshSummary(outcomes.filter(keep), mode, set)
          return [
            mode,
            name,
            `${figures.doable.solved}/${figures.doable.total}`,
            figures.doable.percent,
            `${figures.needsModel.endedFailed}/${figures.needsModel.total}`,
            `${figures.needsModel.failedNamingStep}/${figures.needsModel.endedFailed}`,
            `${figures.falseCompleted.total}/${figures.total} (${figures.falseCompleted.doable} + ${figures.falseCompleted.needsModel})`,
            figures.falseCompleted.percent,
          ]
        }),
      ),
    },
    {
      title: `Gallery, ${set} set: by family`,
      note: "The same figures per instruction family, every mode run.",
      headers: [
        "mode",
        "family",
        "doable solved",
        "doable %",
        "needs model: ended FAILED",
        "FAILED naming a step",
        "false COMPLETED",
      ],
      rows: modes.flatMap((mode) =>
        [...new Set(outcomes.map((outcome) => outcome.family))].sort().map((family) => {
          const figures = freshSummary(
            outcomes.filter((outcome) => outcome.family === family),
            mode,
            set,
          )
          return [
            mode,
            family,
            `${figures.doable.solved}/${figures.doable.total}`,
            figures.doable.percent,
            `${figures.needsModel.endedFailed}/${figures.needsModel.total}`,
            `${figures.needsModel.failedNamingStep}/${figures.needsModel.endedFailed}`,
            `${figures.falseCompleted.total}/${figures.total}`,
          ]
        }),
      ),
    },
  ]
}
