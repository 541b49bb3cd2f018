import {
  AgentError,
  type AgentTask,
  CannotPlan,
  type Criterion,
  type GoalPart,
  Plan,
  type StepInput,
} from "@sextant/core"
import { Effect, Layer } from "effect"
import { absoluteUrl } from "../internal/Url.ts"
import {
  type PlanContext,
  Planner,
  type PlannerShape,
  type ReplanMode,
  type StepFailure,
} from "../Planner.ts"
import { type Command, describeCommand, describeTarget, type TargetPhrase } from "./Command.ts"
import { clausesOf, parseCommands } from "./Grammar.ts"
import { listedNames } from "./Grounding.ts"
import { objectPattern } from "./grounding/Follow.ts"
import { planWithToolClauses, type RuleTool } from "./ToolClauses.ts"

/**
 * The rule planner: reads the goal with the rule grammar and turns each clause into a step of the
 * browser and compound tools of `@sextant/tools` (`navigate`, `login`, `search`, `fill`, `clickTextMatches`,
 * `clickNthAnchor`, `select`, `check`, `uncheck`, `press`, `scroll`, `back`, `extractList`, `pagination`).
 * No model, no network.
 * Goals outside its templates fail with `AgentError`/`CannotPlan` and the grammar's reason.
 */

const cannotPlan = (detail: string) => new AgentError({ reason: new CannotPlan({ detail }) })

const inputString = (task: AgentTask, ...keys: ReadonlyArray<string>): string | undefined => {
  for (const key of keys) {
    const value = task.inputs[key]
    if (typeof value === "string" && value !== "") return value
    if (typeof value === "number") return String(value)
  }
  return undefined
}

/** Field names as the extractList tool infers them: singular English words ("prices" → "price", "价格" → "price"). */
const FIELD_NAMES: ReadonlyMap<string, string> = new Map([
  ["名称", "name"],
  ["名字", "name"],
  ["标题", "title"],
  ["价格", "price"],
  ["价钱", "price"],
  ["评分", "rating"],
  ["链接", "url"],
  ["网址", "url"],
  ["图片", "image"],
  ["编号", "id"],
])

/** A field name as the extractList tool infers it ("prices" → "price", "价格" → "price"). */
export const fieldName = (field: string): string => {
  const known = FIELD_NAMES.get(field)
  if (known !== undefined) return known
  const word = field.toLowerCase()
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`
  if (/(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2)
  return word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word
}

const targetText = (target: TargetPhrase): string => target.text ?? target.raw

/** The words a step's `target` carries: the phrase as a person would find it on the page. */
const fieldLabel = (target: TargetPhrase | undefined): string | undefined =>
  target === undefined ? undefined : targetText(target)

type StepDraft = Omit<StepInput, "index">

/**
 * Writes every secret input's value in a step as its placeholder (`<secret:password>`), longest value
 * first, so the plan (stored, traced, shown) never holds a secret; the executor puts the value back at
 * the tool. A value typed in the goal itself is hidden too when it is a secret input's value.
 */
const secretHider = (task: AgentTask): ((value: unknown) => unknown) => {
  const secrets = task.secretInputs
    .map((name) => ({ name, value: task.inputs[name] }))
    .flatMap(({ name, value }) =>
      (typeof value === "string" || typeof value === "number") && String(value) !== ""
        ? [{ placeholder: `<secret:${name}>`, value: String(value) }]
        : [],
    )
    .sort((left, right) => right.value.length - left.value.length)
  const hide = (value: unknown): unknown => {
    if (typeof value === "string")
      return secrets.reduce((text, secret) => text.split(secret.value).join(secret.placeholder), value)
    if (Array.isArray(value)) return value.map(hide)
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, hide(item)]))
    return value
  }
  return (value) => (secrets.length === 0 ? value : hide(value))
}

const hideSecrets = (task: AgentTask): ((draft: StepDraft) => StepDraft) => {
  const hide = secretHider(task)
  return (draft) => ({
    ...draft,
    args: hide(draft.args) as Record<string, unknown>,
    ...(draft.description === undefined ? {} : { description: hide(draft.description) as string }),
  })
}

const step = (
  tool: string,
  args: Record<string, unknown>,
  description: string,
  successCriteria: ReadonlyArray<Criterion> = [],
): StepDraft => ({
  tool,
  args,
  description,
  successCriteria: [...successCriteria],
})

/** One or more steps for one clause; a reason when the clause has no template. */
const stepsFor = (command: Command, task: AgentTask): ReadonlyArray<StepDraft> | string => {
  const description = describeCommand(command)
  switch (command.kind) {
    case "navigate": {
      const url = absoluteUrl(command.url, task.startUrl)
      if (url === undefined)
        return `'go to ${command.url}' needs a full http(s) address, or the task's startUrl to resolve a path against`
      return [step("navigate", { url }, description)]
    }
    case "login": {
      const username = command.username ?? inputString(task, "username", "email", "user", "login")
      const password = command.password ?? inputString(task, "password")
      if (username === undefined || password === undefined) {
        return `'log in' needs a ${username === undefined ? "username" : "password"}: write it in the goal ("log in as alice@example.com with password …") or give task.inputs.${username === undefined ? "username" : "password"}`
      }
      // The login tool types and sends at once: a box of its form to tick first is for the step-wise agent.
      if (command.options !== undefined)
        return `'log in' with a box to tick first (${command.options.map((option) => `"${option.raw}"`).join(", ")}) is done by the step-wise agent: the plan's login step sends the form at once`
      // The validator's login guard adds the "logged in" check after this step.
      return [step("login", { username, password }, description)]
    }
    case "search":
      return [step("search", { query: command.query }, description)]
    case "type": {
      const label = fieldLabel(command.field)
      if (label === undefined)
        return `'type "${command.value}"' needs the field to type into in plan mode, e.g. type "${command.value}" into Email`
      return [step("fill", { label, value: command.value }, description)]
    }
    case "click":
    case "open":
    case "expand":
    case "collapse":
      if (command.target.path !== undefined) {
        return command.target.path.map((segment) =>
          step("clickTextMatches", { text: segment }, `click "${segment}"`),
        )
      }
      if (command.target.ordinal !== undefined && command.target.text === undefined) {
        const role = command.target.role
        if (role !== undefined && role !== "link" && role !== "result") {
          return `'${description}' counts ${role}s, which needs the page: use the step-wise agent`
        }
        const index = command.target.ordinal === -1 ? -1 : command.target.ordinal - 1
        // Results are the links of the page's content, not of its header and navigation.
        return [
          step(
            "clickNthAnchor",
            role === "result" ? { index, rootSelector: "main" } : { index },
            description,
          ),
        ]
      }
      // clickTextMatches finds a control by its text alone: which item it sits in is read on the page.
      if (command.target.container !== undefined)
        return `'${description}' picks the control inside ${describeTarget(command.target.container)}, which needs the page: use the step-wise agent (--mode agent)`
      return [step("clickTextMatches", { text: targetText(command.target) }, description)]
    case "select":
      if (command.list === undefined) {
        return `'${description}' needs the list in plan mode, e.g. select Red from Color`
      }
      return [step("select", { label: targetText(command.list), values: [...command.options] }, description)]
    case "check":
    case "uncheck":
      return [step(command.kind, { label: targetText(command.target) }, description)]
    case "submit":
      return [step("press", { key: "Enter" }, description)]
    case "press":
      return [step("press", { key: command.key }, description)]
    case "scroll":
      if (command.target !== undefined)
        return `'scroll to ${describeTarget(command.target)}' needs the page: use the step-wise agent`
      // "scroll the Change log to the bottom": the element that scrolls, never the page in its place.
      if (command.within !== undefined) {
        if (command.to === "middle")
          return `'${description}' needs the page to find the middle of what scrolls: use the step-wise agent (--mode agent)`
        const to = command.to === "top" || command.direction === "up" ? "top" : "bottom"
        return [step("scrollInside", { text: targetText(command.within), to }, description)]
      }
      return [
        step(
          "scroll",
          command.to === undefined
            ? {
                direction: command.direction ?? "down",
                ...(command.count === undefined ? {} : { count: command.count }),
              }
            : { to: command.to },
          description,
        ),
      ]
    case "back":
      return [step("back", {}, description)]
    case "nextPage":
      return [step("clickTextMatches", { text: "Next" }, description)]
    case "previousPage":
      return [step("clickTextMatches", { text: "Previous" }, description)]
    case "extract": {
      const fields = command.fields.map(fieldName)
      if (command.pages <= 1) return [step("extractList", { fields }, description)]
      // The pagination tool reads the list on each page and follows Next up to the limit.
      return [step("pagination", { limit: command.pages, extract: { fields } }, description)]
    }
    case "hover":
    case "close":
    case "focus":
    case "drag":
    case "selectText":
    case "copy":
    case "paste":
    case "pick":
      return `'${description}' needs the page: use the step-wise agent or text-to-action`
  }
}

/** The words of a phrase from its first identifier ("T-4788", "1043") or capitalised name on, or undefined. */
const itemWordsIn = (phrase: string): string | undefined => {
  const words = phrase.trim().split(/\s+/)
  const first = words.findIndex((word, index) => /\d/.test(word) || (index > 0 && /^\p{Lu}/u.test(word)))
  if (first < 0) return undefined
  // "T-4788 这个工单": the Chinese words after the item's name point at it and say its kind.
  const han = words.findIndex((word, index) => index > first && /\p{Script=Han}/u.test(word))
  return words.slice(first, han < 0 ? undefined : han).join(" ")
}

/**
 * The goal part one clause stands for, with the check that says it was done: logged in, searched,
 * submitted, extracted (every field non-empty), every page reached, the opened page shown; other
 * actions must take effect.
 *
 * @example
 * ```ts
 * import { goalPartFor } from "@sextant/planner"
 * goalPartFor({ kind: "search", query: "lantern" }).check // { type: "searched", query: "lantern" }
 * ```
 */
export const goalPartFor = (command: Command): GoalPart => {
  const description = describeCommand(command)
  const part = (kind: GoalPart["kind"], check: GoalPart["check"]): GoalPart => ({ kind, description, check })
  switch (command.kind) {
    case "navigate":
      return part("navigate", { type: "actionsSucceeded" })
    case "login":
      return part("login", { type: "loggedIn" })
    case "search":
      return part("search", { type: "searched", query: command.query })
    case "type": {
      // A literal typed into a named field is checked on the page: the field must hold it at the end.
      // A secret or an input reference is not known here, so only the action is checked.
      const field = command.field
      const named =
        field?.text !== undefined && field.ordinal === undefined && field.path === undefined
          ? field.text
          : undefined
      return named !== undefined && !/<secret:|\{\{/.test(command.value)
        ? part("fill", { type: "fieldValue", target: named, value: command.value })
        : part("fill", { type: "actionsSucceeded" })
    }
    case "submit":
      return part("submit", { type: "submitted" })
    case "open":
      return part("open", { type: "pageChanged" })
    case "click": {
      // "click the first result/link" opens something: the page must change to it.
      if (command.target.ordinal !== undefined && command.target.text === undefined)
        return part("open", { type: "pageChanged" })
      // "click "Call" in "Tom Okafor | Bluegate"": the control pressed must be the one in that item.
      const within = command.target.container?.text
      return part("click", { type: "actionsSucceeded", ...(within === undefined ? {} : { within }) })
    }
    case "expand":
    case "collapse":
    case "hover":
    case "focus":
    case "close": {
      // "close ticket T-4788": the words naming one item (from its first identifier or proper name on)
      // are where the control pressed must sit, as for a click in a named item; a dialog names none.
      const within = command.target.role === undefined ? itemWordsIn(command.target.raw) : undefined
      return part("click", { type: "actionsSucceeded", ...(within === undefined ? {} : { within }) })
    }
    case "drag":
    case "selectText":
    case "copy":
      return part("other", { type: "actionsSucceeded" })
    case "paste":
      // The text is read from the page during the run: the fill that types it must take effect.
      return part("fill", { type: "actionsSucceeded" })
    case "select": {
      // Each option named must show as chosen at the end; "select nothing" and ordinals are checked by their actions.
      const options = command.options
      const list = command.list?.text
      // A menu item is not left chosen: "select Print from the File menu" is judged by its click.
      const menu = command.list?.role === "menuitem"
      return options.length === 0 || command.target.ordinal !== undefined || menu
        ? part("select", { type: "actionsSucceeded" })
        : part("select", {
            type: "optionsChosen",
            options: [...options],
            ...(list === undefined ? {} : { list }),
          })
    }
    case "check":
    case "uncheck": {
      // Each named box must be in the wanted state on the page at the end, not merely clicked.
      const target = command.target
      const text = target.ordinal === undefined && target.path === undefined ? target.text : undefined
      return text === undefined
        ? part("check", { type: "actionsSucceeded" })
        : part("check", {
            type: "controlState",
            targets: [...(listedNames(text) ?? [text])],
            checked: command.kind === "check",
          })
    }
    case "pick":
      // Exactly the item the words name must be the one chosen: checked again on the page it was chosen on.
      return part(command.action === "cart" ? "click" : "select", {
        type: "itemPicked",
        pick: { ...command.item, action: command.action },
      })
    case "press":
      return part("press", { type: "actionsSucceeded" })
    case "scroll":
      return part("scroll", { type: "actionsSucceeded" })
    case "back":
      return part("back", { type: "actionsSucceeded" })
    case "nextPage":
    case "previousPage":
      return part("paginate", { type: "pageChanged" })
    case "extract":
      return part("extract", { type: "records", fields: command.fields.map(fieldName), min: 1 })
  }
}

/**
 * The goal's parts as the rule grammar reads them: one per clause, plus "every page was reached" for
 * an extraction over every page. `undefined` when the grammar cannot read the goal.
 *
 * @example
 * ```ts
 * import { goalPartsOf } from "@sextant/planner"
 * goalPartsOf("log in and extract the products")?.map((part) => part.check.type) // ["loggedIn", "records"]
 * ```
 */
export const goalPartsOf = (goal: string): ReadonlyArray<GoalPart> | undefined => {
  const parsed = parseCommands(goal)
  if (!parsed.ok) return undefined
  return partsOfCommands(parsed.commands)
}

/**
 * The parts of a goal the grammar cannot read whole, read clause by clause (`clausesOf`): "log in and
 * then tell me what the page says" has the part "log in" though no part of the whole reads. Undefined
 * for a goal of one clause or when no clause reads into a part. `read` reads one clause (default
 * `goalPartsOf`; a step policy's own `parts`). A run checks the parts found on the page like any
 * others, so a model that says "done" without signing in does not make such a run COMPLETED; the
 * clauses left unread are the model's word.
 *
 * @example
 * ```ts
 * import { goalPartsByClause } from "@sextant/planner"
 * goalPartsByClause("log in and then tell me what the page says")?.map((part) => part.description) // ["log in"]
 * ```
 */
export const goalPartsByClause = (
  goal: string,
  read: (clause: string) => ReadonlyArray<GoalPart> | undefined = goalPartsOf,
): ReadonlyArray<GoalPart> | undefined => {
  const clauses = clausesOf(goal)
  if (clauses.length < 2) return undefined
  const parts = clauses.flatMap((clause) => read(clause) ?? [])
  return parts.length === 0 ? undefined : parts
}

/**
 * One part per clause (clause i is part i), then "reach the last page" for each extraction over every
 * page, and "read N pages" for each over a number of pages (a list with fewer pages leaves it unmet).
 */
const partsOfCommands = (commands: ReadonlyArray<Command>): ReadonlyArray<GoalPart> => [
  ...commands.map(goalPartFor),
  ...commands.flatMap((command): Array<GoalPart> => {
    if (command.kind !== "extract") return []
    if (command.allPages === true)
      return [{ kind: "paginate", description: "reach the last page", check: { type: "lastPage" } }]
    return command.pages > 1
      ? [
          {
            kind: "paginate",
            description: `read ${command.pages} pages`,
            check: { type: "pagesRead", pages: command.pages },
          },
        ]
      : []
  }),
]

/**
 * Plans a task with the rule grammar: a navigate to `startUrl` first when the goal does not start by
 * going somewhere, then one or more steps per clause. The values of `task.secretInputs` appear in the
 * plan only as `<secret:name>` placeholders, which the executor resolves at the tool.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { decodeAgentTask } from "@sextant/core"
 * import { planWithRules } from "@sextant/planner"
 * const task = decodeAgentTask({ goal: "search for lantern", startUrl: "http://127.0.0.1:4000/search" })
 * // Effect.runSync(planWithRules(task)).steps.map((step) => step.tool) → ["navigate", "search"]
 * ```
 */
export const planWithRules = (task: AgentTask): Effect.Effect<Plan, AgentError> =>
  Effect.gen(function* () {
    const parsed = parseCommands(task.goal)
    if (!parsed.ok) return yield* Effect.fail(cannotPlan(parsed.reason))
    const drafts: Array<StepDraft> = []
    const parts: Array<GoalPart> = []
    if (task.startUrl !== undefined && parsed.commands[0]?.kind !== "navigate") {
      parts.push({
        kind: "navigate",
        description: `open ${task.startUrl}`,
        check: { type: "actionsSucceeded" },
      })
      drafts.push({ ...step("navigate", { url: task.startUrl }, `go to ${task.startUrl}`), part: 0 })
    }
    const offset = parts.length
    parts.push(...partsOfCommands(parsed.commands))
    for (const [position, command] of parsed.commands.entries()) {
      const steps = stepsFor(command, task)
      if (typeof steps === "string") return yield* Effect.fail(cannotPlan(steps))
      drafts.push(...steps.map((draft) => ({ ...draft, part: offset + position })))
    }
    const hidden = drafts.map(hideSecrets(task))
    return Plan.parse({
      taskId: task.id,
      parts: parts.map(secretHider(task)),
      steps: hidden.map((draft, index) => ({ ...draft, index })),
    })
  })

/**
 * The steps to plan again, with a click on the link that names the goal's object before the
 * extraction, when the extraction failed for want of a list on its page ("log in and extract the
 * products" lands on a dashboard one link away from them). Once: a part that already followed a link
 * is planned as it is.
 */
const followToObject = (
  task: AgentTask,
  plan: Plan,
  failure: StepFailure,
  steps: ReadonlyArray<Plan["steps"][number]>,
): ReadonlyArray<Plan["steps"][number]> => {
  const failed = plan.steps[failure.stepIndex]
  const noList =
    failed !== undefined &&
    (failed.tool === "extractList" || failed.tool === "pagination") &&
    (typeof failure.error === "string"
      ? /no repeated items/.test(failure.error)
      : failure.error.reason === "ListNotFound")
  if (!noList || failed.part === undefined) return steps
  // Only after an earlier part acted ("log in and …"), not just opened the start page: an extraction
  // that is the goal's first action stays on the page the task names, where a 404, a redirect or a
  // broken page is the answer.
  const part = failed.part
  if (!plan.steps.some((item) => item.part !== undefined && item.part < part && item.tool !== "navigate"))
    return steps
  if (plan.steps.some((item) => item.part === failed.part && item.tool === "clickTextMatches")) return steps
  const parsed = parseCommands(task.goal)
  const description = plan.parts?.[failed.part]?.description
  const command = parsed.ok
    ? parsed.commands.find(
        (one): one is Extract<Command, { kind: "extract" }> =>
          one.kind === "extract" && describeCommand(one) === description,
      )
    : undefined
  const pattern = command === undefined ? undefined : objectPattern(command)
  const at = steps.findIndex((item) => item.part === failed.part)
  if (pattern === undefined || at < 0) return steps
  const follow = {
    tool: "clickTextMatches",
    args: { pattern, selector: "a[href]" },
    description: `follow the link that names ${command?.items ?? command?.fields.join(", ")}`,
    successCriteria: [],
    part: failed.part,
    index: 0,
    state: "pending" as const,
    attempts: 0,
  }
  return [...steps.slice(0, at), follow, ...steps.slice(at)]
}

const replanWithRules = (
  task: AgentTask,
  plan: Plan,
  failure: StepFailure,
  _mode: ReplanMode,
  planFresh: (task: AgentTask) => Effect.Effect<Plan, AgentError> = planWithRules,
): Effect.Effect<Plan, AgentError> =>
  Effect.map(planFresh(task), (fresh) => {
    // The grammar gives the same parts and steps again. A replan keeps the steps of the parts before the
    // failed step's part and plans that part and every later one again, so no part is dropped (steps the
    // validator inserted, such as guards, shift indexes: parts, not indexes, line them up). A full replan
    // from rules would only repeat the same steps, submissions included, so it keeps the done parts too.
    const failedPart = plan.steps[failure.stepIndex]?.part
    const partial = failedPart !== undefined
    const kept = partial ? plan.steps.filter((item) => item.part !== undefined && item.part < failedPart) : []
    const planned = partial
      ? fresh.steps.filter((item) => item.part === undefined || item.part >= failedPart)
      : fresh.steps
    const rest = followToObject(task, plan, failure, planned)
    return Plan.parse({
      taskId: task.id,
      revision: plan.revision + 1,
      parts: fresh.parts,
      steps: [
        ...kept,
        ...rest.map((item) => ({ ...item, state: "pending", attempts: 0, observation: undefined })),
      ].map((item, index) => ({ ...item, index })),
    })
  })

/**
 * The rule planner as a `Planner` (no `usage`: it calls no model).
 *
 * @example
 * ```ts
 * import { makeRulePlanner } from "@sextant/planner"
 * const planner = makeRulePlanner()
 * // planner.plan(task) → Effect<Plan, AgentError>
 * ```
 */
export const makeRulePlanner = (options: RulePlannerOptions = {}): PlannerShape => {
  const tools = options.tools ?? []
  // A goal that names an extra tool ("use tableToCsv on #prices") gets that tool's step; the rest of
  // the goal goes to the grammar.
  const plan = (task: AgentTask) => planWithToolClauses(task, tools, planWithRules) ?? planWithRules(task)
  return {
    plan: (task: AgentTask, _context?: PlanContext) => plan(task),
    replan: (task, current, failure, mode, _context) => replanWithRules(task, current, failure, mode, plan),
  }
}

export type { RuleTool } from "./ToolClauses.ts"

/** Options of {@link makeRulePlanner}. */
export interface RulePlannerOptions {
  /**
   * Extra tools (from tool packages) a goal may name: `use <name> on <value>` or
   * `use <name> with key=value, …` plans one step of that tool.
   */
  readonly tools?: ReadonlyArray<RuleTool> | undefined
}

/**
 * The rule planner as the `Planner` service: `RulePlanner.layer` (no extra tools),
 * `RulePlanner.layerWith(options)` (extra tools a goal may name) and `RulePlanner.make(options)`.
 *
 * @example
 * ```ts
 * import { RulePlanner } from "@sextant/planner"
 * program.pipe(Effect.provide(RulePlanner.layer))
 * ```
 */
export const RulePlanner: {
  readonly layer: Layer.Layer<Planner>
  readonly layerWith: (options: RulePlannerOptions) => Layer.Layer<Planner>
  readonly make: (options?: RulePlannerOptions) => PlannerShape
} = {
  layer: Layer.sync(Planner, () => makeRulePlanner()),
  layerWith: (options) => Layer.sync(Planner, () => makeRulePlanner(options)),
  make: makeRulePlanner,
}
