import {
  type AgentError,
  type BrowserDriverShape,
  type GoalCheck,
  type GoalPart,
  type Observation,
  type PageElement,
  type PageSnapshot,
  type RunResult,
  type RunSummary,
  type Step,
  type StoreError,
  type TaskState,
  transition,
  type UnmetPart,
} from "@sextant/core"
import { elementsFromOutline, STEPPER } from "@sextant/planner"
import { Clock, Effect, Option } from "effect"
import { checksControls, factsRequestFor, type PartStep, readFacts, verifyParts } from "../Goals.ts"
import { finishMetrics } from "../Metrics.ts"
import { blockedRequestMessage } from "../SecretPolicy.ts"
import type { EndReason } from "../Trace.ts"
import { DEADLINE_BACKSTOP_MS, elapsedSince, type RunContext, runRecord } from "./RunContext.ts"
import type { StepOutcome } from "./StepRunner.ts"

/**
 * The step a run that did not complete failed on first, without recovering: the cause its summary
 * leads with, before what followed from it (a replan, a quota, the parts left undone).
 */
export interface FirstFailure {
  /** The step's index in the plan (the turn's in a step-wise run), when known. */
  readonly step?: number | undefined
  readonly tool: string
  /** The page the step left the browser on. */
  readonly url: string
  /** What the step failed with. */
  readonly message: string
  /** What the page showed after it: its main heading and any error messages, when the run read them. */
  readonly pageShowed?: string | undefined
}

/** A finished run: the core `RunResult` plus how it ended and where its transcript is. */
export interface ExecutorRunResult extends RunResult {
  readonly runId: string
  readonly endReason: EndReason
  readonly transcriptPath?: string | undefined
  /** Set when the run did not complete and a step failed: the first cause (see {@link FirstFailure}). */
  readonly firstFailure?: FirstFailure | undefined
}

/**
 * Tools whose output says that something happened (a condition held, time passed, the page stopped
 * loading), not data read from the page: never a run's output.
 */
const NOT_DATA = new Set(["waitFor", "delay", "stop"])

/**
 * The run's output: the records it extracted (from the store, so a resumed run has them all), else
 * what the last successful reading tool returned (a table as CSV, a parsed page), else nothing. Never
 * the answer of a tool that only acted or waited (a wait's condition is not the run's data).
 */
export const runOutput = (context: RunContext) =>
  Effect.gen(function* () {
    const records = yield* context.store.listRecords(context.runId)
    if (records.length > 0) return records.map((record) => record.data)
    const observations = yield* context.store.listObservations(context.runId)
    const read = observations.findLast((observation) => {
      if (!observation.ok || NOT_DATA.has(observation.tool)) return false
      return context.registry.tools.some((tool) => tool.name === observation.tool && tool.effects.reads)
    })
    return read?.data
  })

/**
 * The first cause of a run that did not complete: the first failed step of a part that does not hold;
 * without parts named on the steps, the first failure the run never got past (the first failed step
 * after the last step that worked).
 */
export const firstFailureOf = (
  steps: ReadonlyArray<PartStep>,
  parts: ReadonlyArray<GoalPart>,
  unmet: ReadonlyArray<UnmetPart>,
  onlyUnmetParts: boolean,
): FirstFailure | undefined => {
  const unmetNames = new Set(unmet.map((item) => item.part))
  const ofUnmetPart = steps.find(
    (step) =>
      !step.ok && step.part !== undefined && unmetNames.has(parts[step.part]?.description ?? "\u0000"),
  )
  const lastOk = steps.findLastIndex((step) => step.ok)
  const step =
    ofUnmetPart ?? (onlyUnmetParts ? undefined : steps.slice(lastOk + 1).find((candidate) => !candidate.ok))
  if (step === undefined) return undefined
  const facts = step.facts
  const shown =
    facts === undefined
      ? undefined
      : [
          ...(facts.heading === "" ? [] : [`the heading "${facts.heading}"`]),
          ...(facts.errors.length === 0
            ? []
            : [`the error ${facts.errors.map((error) => `"${error}"`).join(", ")}`]),
        ].join(" and ")
  return {
    ...(step.step === undefined ? {} : { step: step.step }),
    tool: step.tool,
    url: step.urlAfter,
    message: step.message ?? "no reason given",
    ...(shown === undefined || shown === "" ? {} : { pageShowed: shown }),
  }
}

/** The first cause in words: `step 3 (search) on <url> (the page showed …): <message>`. */
export const describeFirstFailure = (failure: FirstFailure): string =>
  `${failure.step === undefined ? failure.tool : `step ${failure.step} (${failure.tool})`} on ${failure.url}${failure.pageShowed === undefined ? "" : ` (the page showed ${failure.pageShowed})`}: ${failure.message}`

/**
 * Ends a run: final state, metrics, the result saved with the run, and the run-end event. Runs even
 * after an interruption (as a finalizer) so the store always says how a run ended.
 */
export const finishRun = (
  context: RunContext,
  status: Extract<TaskState, "COMPLETED" | "FAILED" | "CANCELLED">,
  endReason: EndReason,
  summary: RunSummary,
  firstFailure?: FirstFailure,
): Effect.Effect<ExecutorRunResult, StoreError | AgentError> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const durationMs = Math.max(0, now - context.startedAtMillis)
    context.state = yield* transition(context.state, status)
    const metrics = yield* finishMetrics(
      context.tally,
      status === "COMPLETED" && summary.taskComplete,
      durationMs,
    )
    const output = yield* runOutput(context)
    const observations = yield* context.store.listObservations(context.runId)
    const result: ExecutorRunResult = context.redactor.value({
      taskId: context.task.id,
      runId: context.runId,
      status,
      output,
      plan: context.plan,
      observations: [...observations],
      metrics,
      summary,
      tracePath: context.trace.tracePath,
      transcriptPath: context.trace.transcriptPath,
      endReason,
      ...(firstFailure === undefined ? {} : { firstFailure }),
    })
    yield* context.store.saveRun(runRecord(context, result))
    context.trace.line(
      `run ${status.toLowerCase()} (${endReason}) after ${metrics.steps} steps in ${durationMs} ms`,
    )
    context.trace.emit({ type: "run-end", status, endReason, metrics })
    return result
  })

/**
 * Records a finished step for the goal checks; when the step works on a part, the page after it is
 * read too (one script call), so a part is judged by the page it left, not the page at the end.
 */
export const recordPartStep = (
  context: RunContext,
  part: number | undefined,
  tool: string,
  outcome: Pick<StepOutcome, "ok" | "observation">,
  urlBefore: string,
  args?: unknown,
  seenBefore?: PageSnapshot,
  index?: number,
) =>
  Effect.gen(function* () {
    const facts =
      part === undefined || context.parts.length === 0
        ? undefined
        : yield* Effect.option(readFacts(context.driver, factsRequestFor(context.parts))).pipe(
            Effect.map((read) => (read._tag === "Some" ? read.value : undefined)),
          )
    const check = part === undefined ? undefined : context.parts[part]?.check
    const elements =
      check === undefined || !checksControls(check) ? undefined : yield* controlsNow(context, check, tool)
    const step = partStepOf(part, tool, outcome.observation, urlBefore, facts, args, index)
    const actedElement =
      step.acted === undefined || seenBefore === undefined ? undefined : withLabel(seenBefore, step.acted)
    // An item of a list, a control said to be in an item or a container, and what a press opened are
    // judged on the page the control was chosen on: the outline the step was decided on.
    const seenOutline =
      check?.type === "itemPicked" ||
      check?.type === "pageChanged" ||
      (check?.type === "actionsSucceeded" && check.within !== undefined)
        ? seenBefore?.tree
        : undefined
    const recorded: PartStep = {
      ...step,
      elements,
      ...(actedElement === undefined ? {} : { actedElement }),
      ...(seenOutline === undefined ? {} : { seenOutline }),
    }
    context.partSteps.push(recorded)
    return recorded
  })

/**
 * The page's interactive elements now. For a field's value, the buttons of a stepper (`− 2 +`, the
 * number shown with no ref of its own) also carry the number the full outline shows between them
 * (`STEPPER` of `@sextant/planner`), so a check can read it.
 */
const readControls = (driver: BrowserDriverShape, fieldValue: boolean) =>
  Effect.gen(function* () {
    const elements = Object.values((yield* driver.look({ mode: "interactive" })).elements)
    if (!fieldValue) return elements
    const keys = Object.values(STEPPER)
    const marked = new Map(
      elementsFromOutline((yield* driver.look()).tree)
        .filter((element) => element.attributes[STEPPER.pair] !== undefined)
        .map((element) => [
          element.ref,
          Object.fromEntries(keys.map((key) => [key, element.attributes[key] ?? ""])),
        ]),
    )
    return elements.map((element) => {
      const attributes = marked.get(element.ref)
      return attributes === undefined
        ? element
        : { ...element, attributes: { ...element.attributes, ...attributes } }
    })
  })

/** A stepper is set by pressing its buttons: only a press towards a field's value reads the full outline too. */
const PRESSES = new Set(["click", "act"])

const controlsNow = (context: RunContext, check: GoalCheck, tool: string) =>
  readControls(context.driver, check.type === "fieldValue" && PRESSES.has(tool)).pipe(
    Effect.orElseSucceed(() => undefined),
  )

/**
 * An element as a snapshot shows it; one with no name of its own carries the words a person reads
 * beside it (the outline's text line just before it) as its `label`, so a check can tell which field it was.
 */
const withLabel = (snapshot: PageSnapshot, ref: string): PageElement | undefined => {
  const element = snapshot.elements[ref]
  if (element === undefined || element.name !== "" || element.attributes.label !== undefined) return element
  const label = elementsFromOutline(snapshot.tree).find((listed) => listed.ref === ref)?.attributes.label
  return label === undefined ? element : { ...element, attributes: { ...element.attributes, label } }
}

/** The page evidence of a part step, as a step keeps it in the store (`Step.evidence`). */
export const evidenceOf = (step: PartStep): Record<string, unknown> | undefined => {
  const evidence = {
    ...(step.facts === undefined ? {} : { facts: step.facts }),
    ...(step.elements === undefined ? {} : { elements: step.elements }),
    ...(step.actedElement === undefined ? {} : { actedElement: step.actedElement }),
    ...(step.seenOutline === undefined ? {} : { seenOutline: step.seenOutline }),
  }
  return Object.keys(evidence).length === 0 ? undefined : evidence
}

/** A stored step's part step with the page evidence it was saved with (see {@link evidenceOf}). */
export const withStoredEvidence = (
  step: PartStep,
  evidence: Readonly<Record<string, unknown>> | undefined,
): PartStep =>
  evidence === undefined
    ? step
    : {
        ...step,
        ...(evidence.facts === undefined ? {} : { facts: evidence.facts as PartStep["facts"] }),
        ...(Array.isArray(evidence.elements) ? { elements: evidence.elements as PartStep["elements"] } : {}),
        ...(evidence.actedElement === undefined
          ? {}
          : { actedElement: evidence.actedElement as PartStep["actedElement"] }),
        ...(typeof evidence.seenOutline === "string" ? { seenOutline: evidence.seenOutline } : {}),
      }

/** The least time a run's final page read gets, even past its deadline, in ms. */
const FINAL_READ_MIN_MS = 250

/** The element a step's call acted on (`target`: a ref from look() or a selector), when it names one. */
const actedTarget = (args: unknown): string | undefined => {
  if (typeof args !== "object" || args === null) return undefined
  const target = (args as { target?: unknown }).target
  return typeof target === "string" && target !== "" ? target : undefined
}

/** The text a step's call typed or selected (`value`, else `text`), when it names one. */
const typedText = (args: unknown): string | undefined => {
  if (typeof args !== "object" || args === null) return undefined
  const { value, text } = args as { value?: unknown; text?: unknown }
  const typed = typeof value === "string" ? value : text
  return typeof typed === "string" && typed !== "" ? typed : undefined
}

/** A stored step (or a fresh one) as the part checks see it. */
export const partStepOf = (
  part: number | undefined,
  tool: string,
  observation: Observation,
  urlBefore: string,
  facts?: PartStep["facts"],
  args?: unknown,
  index?: number,
): PartStep => ({
  part,
  ...(index === undefined ? {} : { step: index }),
  tool,
  acted: actedTarget(args),
  ...(typedText(args) === undefined ? {} : { value: typedText(args) }),
  ok: observation.ok,
  ...(observation.error === undefined ? {} : { failure: observation.error.reason }),
  message: observation.message,
  data: observation.data,
  signals: observation.signals ?? [],
  urlBefore,
  urlAfter: observation.url ?? urlBefore,
  facts,
})

/**
 * Ends a run honestly: the run is COMPLETED only when the loop ended well AND every goal part's check
 * holds on the evidence (the steps, the page after them, the extracted records, the page at the end).
 * Otherwise it is FAILED and `summary.unmetParts` names each part that does not hold (or, when the
 * parts all hold but the run still failed, the goal itself with the reason it ended). With
 * `requireParts`, a run whose goal has no parts at all is FAILED too: nothing in it could be checked.
 */
export const concludeRun = (
  context: RunContext,
  endedAs: { readonly ok: boolean; readonly endReason: EndReason; readonly detail: string },
  summarized: RunSummary,
  options: { readonly requireParts?: boolean | undefined } = {},
): Effect.Effect<ExecutorRunResult, StoreError | AgentError> =>
  Effect.gen(function* () {
    let ended = endedAs
    let summary = summarized
    // A request the page sent after the last step (a beacon on unload) may still have been blocked.
    for (const request of context.secretGuard === undefined ? [] : yield* context.secretGuard.blocked) {
      const name = context.redactor.names[request.secret]
      const detail = blockedRequestMessage(request, name === undefined ? "a secret" : `<secret:${name}>`)
      context.trace.emit({
        type: "guardrail",
        step: -1,
        tool: "(after the run)",
        rule: "secret-origin",
        message: detail,
      })
      context.secretRefusal ??= detail
    }
    if (context.secretRefusal !== undefined) {
      // No goal is met by a run whose page tried to take a secret elsewhere.
      const cause = `secret-origin: ${context.secretRefusal}`
      ended = {
        ok: false,
        endReason: ended.ok ? "goal-unmet" : ended.endReason,
        detail: ended.detail === "" || ended.detail.includes(cause) ? cause : `${cause}; ${ended.detail}`,
      }
      summary = { ...summary, summary: `The run failed on ${cause}. ${summary.summary}` }
    }
    let unmet: ReadonlyArray<UnmetPart> = []
    if (context.parts.length > 0) {
      // The page may have stopped answering (a renderer busy without end): a final read waits no
      // longer than the run may still take, so the run ends at its deadline all the same.
      const finalRead = <A, E, R>(read: Effect.Effect<A | string, E, R>) =>
        Effect.gen(function* () {
          const leftMs = Math.max(
            FINAL_READ_MIN_MS,
            context.task.constraints.maxDurationMs +
              DEADLINE_BACKSTOP_MS -
              (yield* elapsedSince(context.startedAtMillis)),
          )
          return yield* read.pipe(
            Effect.timeoutOption(leftMs),
            Effect.map(
              Option.getOrElse(
                () =>
                  `the page could not be read: it did not answer within ${leftMs} ms, before the run's deadline`,
              ),
            ),
          )
        })
      const finalPage = yield* finalRead(
        readFacts(context.driver, factsRequestFor(context.parts)).pipe(
          Effect.catch((error) => Effect.succeed(`the page could not be read: ${error.message}`)),
        ),
      )
      const records = (yield* context.store.listRecords(context.runId)).map((record) => record.data)
      // The controls at the end, for a part whose steps did not say which part they worked on.
      const finalElements = context.parts.some((part) => checksControls(part.check))
        ? yield* finalRead(
            readControls(
              context.driver,
              context.parts.some(
                (part, index) =>
                  part.check.type === "fieldValue" &&
                  context.partSteps.some((step) => step.part === index && PRESSES.has(step.tool)),
              ),
            ).pipe(Effect.catch((error) => Effect.succeed(`the page could not be read: ${error.message}`))),
          )
        : undefined
      unmet = verifyParts(context.parts, { steps: context.partSteps, records, finalPage, finalElements })
      const unmetNames = new Set(unmet.map((item) => item.part))
      context.trace.emit({
        type: "verified",
        parts: context.parts.map((part) => ({
          part: part.description,
          check: part.check,
          held: !unmetNames.has(part.description),
        })),
      })
    }
    // A goal read into no parts has nothing the page could confirm: the policy's own "done" is no
    // evidence, so the run is refused rather than completed.
    if (options.requireParts === true && context.parts.length === 0 && ended.ok) {
      unmet = [
        {
          part: context.task.goal,
          check: "at least one part of the goal that can be checked on the page",
          evidence:
            "nothing in the instruction could be checked: the goal was read into no part with a check on the page, so nothing shows it done",
        },
      ]
    }
    const ok = ended.ok && unmet.length === 0
    if (!ok && unmet.length === 0) {
      unmet = [
        {
          part: context.task.goal,
          check: "the run reaches the end of the goal",
          evidence: ended.detail === "" ? `the run ended (${ended.endReason})` : ended.detail,
        },
      ]
    }
    if (context.secretRefusal !== undefined && !unmet.some((item) => item.evidence === ended.detail)) {
      unmet = [
        ...unmet,
        {
          part: "keep every secret on the origins it is bound to",
          check: "no secret-origin event",
          evidence: ended.detail,
        },
      ]
    }
    for (const item of unmet) context.trace.line(`unmet: ${item.part}: ${item.evidence}`)
    const endReason: EndReason = ended.ok && !ok ? "goal-unmet" : ended.endReason
    // A run that ended well but left parts undone leads with a failure only when it was a failure of
    // one of those parts; a failure it got past is no cause.
    const firstFailure =
      ok || context.secretRefusal !== undefined
        ? undefined
        : firstFailureOf(context.partSteps, context.parts, unmet, ended.ok)
    const then = ended.ok
      ? `Not done: ${unmet.map((item) => `${item.part} (${item.evidence})`).join("; ")}`
      : summary.summary
    const final: RunSummary = ok
      ? { ...summary, taskComplete: true, unmetParts: [] }
      : {
          ...summary,
          taskComplete: false,
          // The first cause first; what followed from it (a replan, a quota, parts left undone) after.
          summary:
            firstFailure === undefined
              ? then
              : `Failed at ${describeFirstFailure(firstFailure)}. Then: ${then.replace(`: ${firstFailure.message}`, "")}`,
          unmetParts: [...unmet],
          nextSuggestions:
            summary.nextSuggestions.length > 0
              ? summary.nextSuggestions
              : unmet.map((item) => `${item.part}: ${item.check}`),
        }
    return yield* finishRun(context, ok ? "COMPLETED" : "FAILED", endReason, final, firstFailure)
  })

/**
 * Ends a resumed run whose in-flight step may already have acted (see `stepInDoubt`): the step is not
 * run again; the run is FAILED with end reason `needs-review`, and its summary names the step as the
 * unmet part, so nobody reads the run as done and nothing is clicked or submitted twice.
 */
export const endInDoubt = (context: RunContext, step: Step, detail: string) =>
  Effect.gen(function* () {
    context.trace.emit({
      type: "run-start",
      taskId: context.task.id,
      goal: context.task.goal,
      mode: context.mode,
      resumed: true,
    })
    context.trace.line(`resume ${context.runId}: ${detail}`)
    if (context.state !== "RUNNING" && context.state !== "WAITING") context.state = "RUNNING"
    return yield* finishRun(context, "FAILED", "needs-review", {
      taskComplete: false,
      summary: `Not resumed: ${detail}.`,
      keyFindings: [`step ${step.index} (${step.tool}) was in flight when the run's process died`],
      nextSuggestions: [
        `check on the site whether step ${step.index} (${step.tool}) took effect before starting the task again`,
      ],
      unmetParts: [
        {
          part: `step ${step.index} (${step.tool})`,
          check: "the step ran to its end exactly once",
          evidence:
            "the step had started when the process running it died; whether it clicked or submitted is unknown",
        },
      ],
    })
  })
