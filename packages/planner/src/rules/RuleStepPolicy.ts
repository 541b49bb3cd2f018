import type { GoalPart, PageElement } from "@sextant/core"
import { isoDay, readCalendarDay } from "@sextant/core"
import { Effect, Layer } from "effect"
import { absoluteUrl } from "../internal/Url.ts"
import { noUsage } from "../internal/Usage.ts"
import {
  type DecideInput,
  type ElementAction,
  type StepDecision,
  StepPolicy,
  type StepPolicyShape,
  type SummarizeInput,
  type SummaryDecision,
  type ToolCall,
} from "../Planner.ts"
import { type Command, describeCommand } from "./Command.ts"
import { parseCommands } from "./Grammar.ts"
import { ancestryFromOutline } from "./Grounding.ts"
import { findSearchBox, nextRevealer } from "./grounding/Decide.ts"
import { extractionFoundNoList, linkToObject } from "./grounding/Follow.ts"
import { locateQuery, locateSection } from "./grounding/Locate.ts"
import { readReferencesOnPage } from "./grounding/Reference.ts"
import { readGoalOnPage } from "./Intent.ts"
import { elementsFromOutline } from "./Outline.ts"
import { fieldName, goalPartsOf } from "./RulePlanner.ts"
import {
  type CommandDecision,
  copiedText,
  decideCommand,
  PAGE_LOCATOR,
  type PageView,
} from "./TextToAction.ts"

/**
 * A step-wise policy with no model: it reads the goal with the rule grammar, works out from its own
 * history lines which clauses are done, and grounds the next clause on the outline of the current
 * `look()`, one action per turn.
 *
 * Progress lives in the history, so the policy itself holds no state: after each decision it adds a
 * line `rule-policy: done 1/3 parts username | next: type the password …`. The newest such line
 * wins, so the window of recent history lines is enough.
 */

const MARKER = "rule-policy:"

/** Progress through the goal's clauses, as recorded in the history. */
export interface PolicyProgress {
  /** Clauses fully done. */
  readonly done: number
  /** Parts of the current clause already done (`username`, `password`, `query`). */
  readonly parts: ReadonlySet<string>
}

/** A history line of a tool call that failed or was refused (`3. click({…}) -> failed: …`). */
const FAILED_STEP = /^\d+\. \w+\(.*\) -> (?:failed|refused)/

/**
 * Reads the newest progress line from the history (nothing done when there is none). A progress line
 * whose tool call then failed (an error, a guardrail) does not count: the one before it holds.
 */
export const readProgress = (history: ReadonlyArray<string>): PolicyProgress => {
  let failedAfter = false
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const line = history[index]!
    if (FAILED_STEP.test(line)) {
      failedAfter = true
      continue
    }
    if (/^\d+\. \w+\(/.test(line)) failedAfter = false
    const at = line.indexOf(MARKER)
    if (at < 0) continue
    if (failedAfter) {
      failedAfter = false
      continue
    }
    const match = /done (\d+)\/\d+(?: parts ([\w,-]+))?/.exec(line.slice(at))
    if (match === null) continue
    return { done: Number(match[1]), parts: new Set(match[2] === undefined ? [] : match[2].split(",")) }
  }
  return { done: 0, parts: new Set() }
}

const progressLine = (progress: PolicyProgress, total: number, next: string): string =>
  `${MARKER} done ${progress.done}/${total}${progress.parts.size === 0 ? "" : ` parts ${[...progress.parts].join(",")}`} | next: ${next}`

/**
 * Turns one element action into the tool call the executor runs: page actions to `navigate`, `back`,
 * `scroll`, `press`; element actions to `click`, `fill`, `select`, `check`, `uncheck`, `press`, `scroll`
 * with the ref as `target` (a hover becomes a click: the tool set has no hover tool). A navigate to a
 * path (`/products`) is made absolute against `pageUrl`, and a bare host gets https, as the navigate
 * tool takes only absolute http(s) addresses.
 *
 * @example
 * ```ts
 * import { toolCallFor } from "@sextant/planner"
 * toolCallFor({ locator: "e2", method: "input", description: "", arguments: [{ name: "value", value: "lantern" }] })
 * // { name: "fill", args: { target: "e2", value: "lantern" } }
 * toolCallFor({ locator: "_page", method: "navigate", description: "", arguments: [{ name: "url", value: "/products" }] }, "http://127.0.0.1:4000/login")
 * // { name: "navigate", args: { url: "http://127.0.0.1:4000/products" } }
 * ```
 */
export const toolCallFor = (action: ElementAction, pageUrl?: string): ToolCall => {
  const argument = (name: string) => action.arguments.find((entry) => entry.name === name)?.value
  const target = action.locator
  if (target === PAGE_LOCATOR) {
    switch (action.method) {
      case "navigate": {
        const url = String(argument("url") ?? "")
        return { name: "navigate", args: { url: absoluteUrl(url, pageUrl) ?? url } }
      }
      case "back":
        return { name: "back", args: {} }
      case "login":
        return { name: "login", args: { username: argument("username"), password: argument("password") } }
      case "press":
        return { name: "press", args: { key: argument("key") } }
      case "scroll": {
        const to = argument("to")
        const count = argument("count")
        return {
          name: "scroll",
          args:
            to === undefined
              ? { direction: argument("direction") ?? "down", ...(count === undefined ? {} : { count }) }
              : { to },
        }
      }
      case "extract": {
        // The list tools read records with the named fields; more than one page goes through pagination.
        const fields = String(argument("fields") ?? "")
          .split(",")
          .filter((field) => field !== "")
          .map(fieldName)
        const pages = Number(argument("pages") ?? 1)
        return pages > 1
          ? { name: "pagination", args: { limit: pages, extract: { fields } } }
          : { name: "extractList", args: { fields } }
      }
      case "selectText":
        return { name: "selectText", args: { text: String(argument("text") ?? "") } }
      case "scrollToText":
        return { name: "scroll", args: { text: String(argument("text") ?? "") } }
      case "scrollInside":
        return {
          name: "scrollInside",
          args: { text: String(argument("text") ?? ""), to: argument("to") ?? "bottom" },
        }
      case "drag":
        return {
          name: "drag",
          args: Object.fromEntries(action.arguments.map((entry) => [entry.name, entry.value])),
        }
      default:
        return {
          name: action.method,
          args: Object.fromEntries(action.arguments.map((entry) => [entry.name, entry.value])),
        }
    }
  }
  switch (action.method) {
    case "input":
      return { name: "fill", args: { target, value: String(argument("value") ?? "") } }
    case "set":
      return { name: "setValue", args: { target, value: String(argument("value") ?? "") } }
    case "select":
      return {
        name: "select",
        args: {
          target,
          values: action.arguments
            .filter((entry) => entry.name === "value")
            .map((entry) => String(entry.value)),
        },
      }
    case "press":
      return { name: "press", args: { target, key: argument("key") } }
    case "scroll":
      return argument("to") === undefined
        ? { name: "scroll", args: { target } }
        : { name: "scrollInside", args: { target, to: argument("to") } }
    case "hover":
      return { name: "hover", args: { target } }
    case "focus":
      return { name: "focus", args: { target } }
    case "drag":
      return {
        name: "drag",
        args: { target, ...Object.fromEntries(action.arguments.map((entry) => [entry.name, entry.value])) },
      }
    default:
      return { name: action.method, args: { target } }
  }
}

const comparable = (text: string) => text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim()
const digitsOf = (text: string) =>
  (text.match(/\d+/g) ?? [])
    .map(Number)
    .sort((a, b) => a - b)
    .join(",")

/** The calendar day a text names (`2024-06-03`, `June 3, 2024`, `3 Jun 2024`), as `y-m-d`. */
const dayOf = (text: string): string | undefined => {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T ])/.exec(text.trim())
  if (iso !== null) return `${Number(iso[1])}-${Number(iso[2])}-${Number(iso[3])}`
  if (!/\p{L}{3}/u.test(text) || !/\d{4}/.test(text)) return undefined
  const date = new Date(text)
  return Number.isNaN(date.getTime())
    ? undefined
    : `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`
}

/**
 * Whether a field shows the value typed into it. A page may reformat what it keeps (a date as
 * 05/14/2024, a phone number with brackets, upper case): the same words or the same numbers count.
 */
const showsValue = (shown: string, typed: string): boolean => {
  const have = comparable(shown)
  const want = comparable(typed)
  if (have === want) return true
  if (have.endsWith("…") && want.startsWith(have.slice(0, -1))) return true
  const letters = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, "")
  if (letters(have) !== "" && letters(have) === letters(want)) return true
  const day = dayOf(want)
  if (day !== undefined && dayOf(have) === day) return true
  return digitsOf(want) !== "" && digitsOf(have) === digitsOf(want) && /^[\d\s\p{P}]*$/u.test(want)
}

/** A history line of a fill the driver failed because the field, read back, did not hold the text. */
const NOT_TAKEN =
  /^\d+\. fill\(\{.*\}\) -> failed: (?:BrowserDriver\.act: )?(.* did not take the value typed into it: .*)$/

/**
 * Why the newest tool call did not take on the page, or undefined when it did or cannot be told: a
 * `fill` whose text field does not show the value, a `check`/`uncheck` whose box is in the other
 * state. The tools answer ok when the keys or the click were sent; a page that ignores them (a
 * read-only field, a box that springs back) would otherwise be reported done.
 */
export const unheldCall = (
  history: ReadonlyArray<string>,
  elements: ReadonlyArray<PageElement>,
): string | undefined => {
  const line = history.findLast((entry) => /^\d+\. \w+\(/.test(entry))
  const failedPick = line === undefined ? null : /^\d+\. pickDate\(.*\) -> failed: (.*)$/.exec(line)
  if (failedPick !== null) return `the day could not be chosen in the calendar: ${failedPick[1]}`
  // The driver reads a filled field back and fails the fill (ValueNotTaken) when it does not hold the
  // text: the same as a fill that went through and does not show.
  const notTaken = line === undefined ? null : NOT_TAKEN.exec(line)
  if (notTaken !== null) return notTaken[1]
  const match =
    line === undefined ? null : /^\d+\. (fill|pickDate|check|uncheck)\((\{.*\})\) -> ok/.exec(line)
  if (match === null) return undefined
  let args: { target?: unknown; value?: unknown; date?: unknown }
  try {
    args = JSON.parse(match[2]!) as { target?: unknown; value?: unknown; date?: unknown }
  } catch {
    return undefined
  }
  const element = elements.find((candidate) => candidate.ref === args.target)
  if (element === undefined) return undefined
  const name = element.name === "" ? element.ref : `"${element.name}"`
  if (match[1] === "pickDate") {
    const shown = element.value ?? ""
    return typeof args.date !== "string" || showsValue(shown, args.date)
      ? undefined
      : `${element.role} ${name} shows ${shown === "" ? "nothing" : `"${shown}"`} after choosing ${args.date} in its calendar`
  }
  if (match[1] === "fill") {
    if (typeof args.value !== "string" || args.value === "") return undefined
    if (!["textbox", "searchbox"].includes(element.role) || element.attributes.type === "password")
      return undefined
    const shown = element.value ?? ""
    return showsValue(shown, args.value)
      ? undefined
      : `${element.role} ${name} shows ${shown === "" ? "nothing" : `"${shown}"`} after typing "${args.value}" into it`
  }
  if (!["checkbox", "switch"].includes(element.role) || element.checked === undefined) return undefined
  const wanted = match[1] === "check"
  return element.checked === wanted
    ? undefined
    : `${element.role} ${name} is still ${wanted ? "unchecked" : "checked"} after the ${match[1]}`
}

/**
 * The `pickDate` call for the newest tool call when it typed a day into a field (`fill` with
 * `2024-05-14`, `June 14, 2024`), or undefined.
 */
const datePickFor = (history: ReadonlyArray<string>): ToolCall | undefined => {
  const line = history.findLast((entry) => /^\d+\. \w+\(/.test(entry))
  const match =
    line === undefined
      ? null
      : (/^\d+\. fill\((\{.*\})\) -> ok/.exec(line) ??
        (NOT_TAKEN.test(line) ? /\((\{.*\})\) -> /.exec(line) : null))
  if (match === null) return undefined
  let args: { target?: unknown; value?: unknown }
  try {
    args = JSON.parse(match[1]!) as { target?: unknown; value?: unknown }
  } catch {
    return undefined
  }
  const day = typeof args.value === "string" ? readCalendarDay(args.value) : undefined
  return typeof args.target !== "string" || day === undefined
    ? undefined
    : { name: "pickDate", args: { target: args.target, date: isoDay(day) } }
}

/** Options of the rule step policy. */
export interface RuleStepPolicyOptions {
  /** How many clauses that are already true on the page one turn may skip over (default 20). */
  readonly maxSkips?: number
  /** The `login` tool is registered: a login with both credentials is one `login` call (default false). */
  readonly loginTool?: boolean
  /**
   * How long one `waitFor` may wait for an element the clause names that is not on the page yet (a
   * button rendered after a delay), in milliseconds; 0 turns the wait off (default 2500). The policy
   * asks for one wait per named text, then gives up as before; the executor does not repeat a wait
   * that used its whole limit, so a target that never shows costs this once.
   */
  readonly waitForMissingMs?: number
  /**
   * The `pickDate` tool is registered: a day typed into a field that does not take typing (a read-only
   * field with a calendar) is then chosen in the field's calendar, instead of ending the run (default
   * false).
   */
  readonly pickDateTool?: boolean
}

const DEFAULT_WAIT_FOR_MISSING_MS = 2500

const COPIED = `${MARKER} copied `
const copiedLine = (text: string) => `${COPIED}${JSON.stringify(text)}`

/** The text the newest "copy" clause read, from the policy's history (the run's clipboard). */
const copiedBefore = (history: ReadonlyArray<string>): string | undefined => {
  const line = history.findLast((entry) => entry.startsWith(COPIED))
  if (line === undefined) return undefined
  try {
    const text: unknown = JSON.parse(line.slice(COPIED.length))
    return typeof text === "string" ? text : undefined
  } catch {
    return undefined
  }
}

/** A non-empty string or number input under the first of `keys` that has one, as the rule planner reads it. */
const inputString = (
  inputs: Readonly<Record<string, unknown>> | undefined,
  ...keys: ReadonlyArray<string>
): string | undefined => {
  for (const key of keys) {
    const value = inputs?.[key]
    if (typeof value === "string" && value !== "") return value
    if (typeof value === "number") return String(value)
  }
  return undefined
}

/**
 * A "log in" clause with the credentials the goal leaves out taken from the task's inputs (username,
 * email, user or login; password), as the rule planner does. A secret input arrives as its
 * `<secret:name>` placeholder: the policy types the placeholder and the executor puts the value back
 * for the tool only, so the value never reaches the history.
 */
const withInputs = (command: Command, inputs: Readonly<Record<string, unknown>> | undefined): Command => {
  if (command.kind !== "login" || inputs === undefined) return command
  const username = command.username ?? inputString(inputs, "username", "email", "user", "login")
  const password = command.password ?? inputString(inputs, "password")
  return {
    ...command,
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
  }
}

const followingLine = (name: string) =>
  `${MARKER} no list to extract here: following the link ${JSON.stringify(name)} that names it`

/** Words that say the text to paste is on the page: "the invite code shown on the page". */
const SHOWN_ON_PAGE = /\b(?:shown|displayed|written|printed)\b|\bon (?:the|this) page\b|页面上|显示的|页面中/i

/**
 * The text a "paste … into F" clause means when nothing was copied before and the goal says the text
 * is on the page ("Paste the invite code shown on the page into the Invite code box"): the value the
 * page's text gives for F's words ("Your invite code: JOIN-4821"). Read from the page's text lines,
 * never from the field itself; undefined when the page shows no such line (the paste is then refused
 * as before).
 */
const shownForPaste = (command: Command, goal: string, view: PageView): string | undefined => {
  if (command.kind !== "paste" || command.field === undefined || !SHOWN_ON_PAGE.test(goal)) return undefined
  return copiedText(command.field, { ...view, elements: [] })?.text
}

const READING = `${MARKER} read on the page as `

interface GoalReading {
  readonly goal: string
  readonly commands: ReadonlyArray<string>
}

const readingLine = (reading: GoalReading) => `${READING}${JSON.stringify(reading)}`

/** The reading of the goal on the page written down by an earlier turn, if any. */
const readingIn = (history: ReadonlyArray<string>): GoalReading | undefined => {
  const line = history.findLast((entry) => entry.startsWith(READING))
  if (line === undefined) return undefined
  try {
    const value = JSON.parse(line.slice(READING.length)) as Partial<GoalReading>
    return typeof value.goal === "string" && Array.isArray(value.commands)
      ? { goal: value.goal, commands: value.commands.filter((one) => typeof one === "string") }
      : undefined
  } catch {
    return undefined
  }
}

/**
 * The parts of a goal read on the page: the same parts, with the same page checks, as the goal the
 * reading wrote down (a box's state, a field's value, an option chosen, a press that took).
 */
const readingParts = (reading: GoalReading): ReadonlyArray<GoalPart> => goalPartsOf(reading.goal) ?? []

/**
 * Whether the goal's parts are the page's to say: a "find X" (a search, or a section to bring on screen)
 * and a goal with no action word read as fields and values ("Call Tom Okafor" is a control of a row where
 * a row has one). Their parts come with the first decision.
 */
const partsFromPage = (goal: string): boolean => {
  const parsed = parseCommands(goal)
  return (parsed.ok && parsed.verbless === true) || asksToFind(goal)
}

/**
 * A goal that starts with a word asking to find something and that the grammar reads as one search, or
 * not at all in one clause (no clause after the one it could not read).
 */
const asksToFind = (goal: string): boolean => {
  if (locateQuery(goal) === undefined) return false
  const parsed = parseCommands(goal)
  if (parsed.ok) return parsed.commands.length === 1 && parsed.commands[0]!.kind === "search"
  const clause = parsed.noActionIn
  const at = clause === undefined ? -1 : goal.normalize("NFKC").indexOf(clause)
  return at >= 0 && !/[\p{L}\p{N}]/u.test(goal.normalize("NFKC").slice(at + clause!.length))
}

/**
 * "Find the section about refunds", "Where's the contact phone number?" on a page with no search box: the
 * goal asks to bring a section of this page on screen, read as `scroll to "<its heading>"`, or refused
 * when no section carries its words. Undefined when the goal does not ask to find something, when the
 * page has a search box (then "find" is a search), or when the grammar reads it as more than one search.
 */
const locatedOnPage = (
  goal: string,
  outline: string,
): GoalReading | { readonly reason: string } | undefined => {
  const query = locateQuery(goal)
  if (query === undefined || !asksToFind(goal)) return undefined
  if (findSearchBox({ elements: elementsFromOutline(outline) }) !== undefined) return undefined
  const found = locateSection(query, outline)
  if ("reason" in found) return { reason: `cannot find "${query}" on this page: ${found.reason}` }
  const command = `scroll to "${found.heading.replaceAll('"', "")}"`
  return { goal: command, commands: [command] }
}

const waitingLine = (text: string) => `${MARKER} waiting for ${JSON.stringify(text)} to appear`

/**
 * Decides one turn for a goal on the current page.
 *
 * @example
 * ```ts
 * import { decideStep } from "@sextant/planner"
 * const decision = decideStep({ goal: "search for lantern", url, outline: snapshot.tree, history: [] })
 * decision.toolCalls[0] // { name: "fill", args: { target: "e4", value: "lantern" } }
 * ```
 */
export const decideStep = (input: DecideInput, options: RuleStepPolicyOptions = {}): StepDecision => {
  // A goal with clauses that name a control or a state but no action ("Print the page", "I want
  // overnight shipping"): read on the page once, then followed as the goal the reading wrote down.
  const earlier = readingIn(input.history)
  const reading =
    earlier ??
    locatedOnPage(input.goal, input.outline) ??
    readReferencesOnPage(input.goal, input.outline, parseCommands) ??
    (() => {
      const elements = elementsFromOutline(input.outline)
      return readGoalOnPage(
        input.goal,
        elements,
        ancestryFromOutline(input.outline, { sections: true }),
        parseCommands,
      )
    })()
  // A "find X" the page shows a search box for is a search, a verbless goal no item's control reads is
  // fields and values: their parts were left to this decision.
  if (reading === undefined && partsFromPage(input.goal)) {
    const decision = decideWords(input, options)
    return { ...decision, parts: goalPartsOf(input.goal) ?? [] }
  }
  if (reading !== undefined && "goal" in reading) {
    const inner = decideWords({ ...input, goal: reading.goal }, options)
    return {
      ...inner,
      history: earlier === undefined ? [readingLine(reading), ...inner.history] : inner.history,
      parts: readingParts(reading),
    }
  }
  if (reading !== undefined) {
    // "Sign me out" where Sign out sits in a closed menu or another tab: open what may hide it (a few
    // at most, each once), and read the goal again on the page that opens.
    if ("absent" in reading && reading.absent === true) {
      const lines = input.history
        .map((line) => REVEALED.exec(line))
        .filter((match): match is RegExpExecArray => match !== null)
      const opened = lines.map((match) => match[1]!)
      // A tab shown when the looking began was read already: switching back to it shows nothing new.
      const tried = new Set([...opened, ...lines.flatMap((match) => match[2]?.split(" ") ?? [])])
      const elements = elementsFromOutline(input.outline)
      const revealer = opened.length < MAX_REVEALS ? nextRevealer(elements, input.goal, tried) : undefined
      if (revealer !== undefined) {
        const shown = elements.filter((element) => element.role === "tab" && element.selected === true)
        return {
          toolCalls: [{ name: "click", args: { target: revealer.ref } }],
          taskComplete: false,
          history: [
            `${MARKER} opened ${revealer.ref} (${revealer.role} "${revealer.name}") to look for what "${input.goal}" names; read: ${shown.map((tab) => tab.ref).join(" ")}`,
          ],
          usage: noUsage,
        }
      }
    }
    return {
      toolCalls: [],
      taskComplete: false,
      method: "close",
      history: [`${MARKER} cannot understand "${input.goal}": ${reading.reason}`],
      usage: noUsage,
    }
  }
  return decideWords(input, options)
}

/** How many closed tabs, menus or sections a goal read on the page may open to find what it names. */
const MAX_REVEALS = 4
const REVEALED = new RegExp(
  `^${MARKER.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} opened (e\\d+) .*; read: ((?:e\\d+ ?)*)$`,
)

/** Decides one turn for a goal the grammar reads from its words alone. */
const decideWords = (input: DecideInput, options: RuleStepPolicyOptions): StepDecision => {
  const parsed = parseCommands(input.goal)
  if (!parsed.ok) {
    return {
      toolCalls: [],
      taskComplete: false,
      method: "close",
      history: [`${MARKER} cannot understand "${input.goal}": ${parsed.reason}`],
      usage: noUsage,
    }
  }
  const commands = parsed.commands.map((command) => withInputs(command, input.inputs))
  // The element of the last call, from its history line (`4. fill({"target":"e15",…}) -> ok`).
  const near = input.history
    .toReversed()
    .map((line) => /^\d+\. \w+\(\{"target":"(e\d+)"/.exec(line)?.[1])
    .find((ref) => ref !== undefined)
  const view: PageView = {
    elements: elementsFromOutline(input.outline),
    ancestry: ancestryFromOutline(input.outline),
    near,
    outline: input.outline,
  }
  // An action that did not take ends the run here: going on would report a part done that the page
  // does not show.
  const unheld = unheldCall(input.history, view.elements)
  // A date typed into a field that did not take it (a read-only field with a calendar): the day is
  // chosen in the calendar instead, once; the field is then checked again like any fill.
  const picking =
    unheld === undefined || options.pickDateTool !== true ? undefined : datePickFor(input.history)
  if (unheld !== undefined && picking !== undefined) {
    const progress = readProgress(input.history)
    return {
      toolCalls: [picking],
      taskComplete: false,
      part: progress.parts.size === 0 ? Math.max(0, progress.done - 1) : progress.done,
      history: [
        `${MARKER} ${unheld}: choosing ${String(picking.args.date)} in its calendar`,
        progressLine(progress, commands.length, `choose ${String(picking.args.date)} in the calendar`),
      ],
      usage: noUsage,
    }
  }
  if (unheld !== undefined) {
    return {
      toolCalls: [],
      taskComplete: false,
      method: "close",
      history: [`${MARKER} stopped: ${unheld}`],
      usage: noUsage,
    }
  }
  let progress = readProgress(input.history)
  const notes: Array<string> = []
  const maxSkips = options.maxSkips ?? 20
  for (let skips = 0; skips <= maxSkips && progress.done < commands.length; skips += 1) {
    const command = commands[progress.done]!
    // The extraction found no list here ("log in and extract the products" lands on a dashboard): the
    // one link whose words name the goal's object leads to it, followed once — only after an earlier
    // part of the goal moved the run (the log-in). An extraction that is the goal's first part stays on
    // the page the task names: a 404, a redirect to a log-in or a broken page there is the answer, not a
    // reason to extract something else.
    if (command.kind === "extract" && progress.done > 0 && extractionFoundNoList(input.history)) {
      const link = linkToObject(command, view.elements)
      if (link !== undefined && !input.history.includes(followingLine(link.name))) {
        return {
          toolCalls: [{ name: "click", args: { target: link.ref } }],
          taskComplete: false,
          part: progress.done,
          history: [
            ...notes,
            followingLine(link.name),
            progressLine(progress, commands.length, describeCommand(command)),
          ],
          usage: noUsage,
        }
      }
    }
    const clipboard = copiedBefore(input.history) ?? shownForPaste(command, input.goal, view)
    const decision: CommandDecision = decideCommand(command, view, {
      done: progress.parts,
      loginTool: options.loginTool === true,
      ...(clipboard === undefined ? {} : { clipboard }),
    })
    if (decision.type === "complete") {
      if (decision.satisfied) {
        notes.push(`${MARKER} "${describeCommand(command)}" already holds: ${decision.summary}`)
        progress = { done: progress.done + 1, parts: new Set() }
        continue
      }
      // The element the clause names is not on the page: it may be rendered late, so wait for its
      // words to show (once per text; a wait that ends at once leaves the no-op turns below).
      const waitMs = options.waitForMissingMs ?? DEFAULT_WAIT_FOR_MISSING_MS
      if (
        decision.missing !== undefined &&
        waitMs > 0 &&
        !input.history.some((line) => line === waitingLine(decision.missing!))
      ) {
        return {
          // No part: a wait only reads the page, so the goal checks judge the clause by its action.
          toolCalls: [{ name: "waitFor", args: { text: decision.missing, timeoutMs: waitMs } }],
          taskComplete: false,
          history: [
            ...notes,
            `${progress.done + 1}/${commands.length} ${describeCommand(command)}: ${decision.summary}`,
            waitingLine(decision.missing),
            progressLine(progress, commands.length, describeCommand(command)),
          ],
          usage: noUsage,
        }
      }
      // The page does not offer it yet (still loading, or the wrong page): wait one turn.
      return {
        toolCalls: [],
        taskComplete: false,
        part: progress.done,
        history: [
          ...notes,
          `${progress.done + 1}/${commands.length} ${describeCommand(command)}: ${decision.summary}`,
          progressLine(progress, commands.length, describeCommand(command)),
        ],
        usage: noUsage,
      }
    }
    const part = decision.part
    const next: PolicyProgress = decision.final
      ? { done: progress.done + 1, parts: new Set() }
      : {
          done: progress.done,
          parts: part === undefined ? progress.parts : new Set([...progress.parts, part]),
        }
    const last = decision.final && next.done === commands.length
    const copied =
      command.kind === "copy"
        ? copiedText(command.target, view)?.text
        : command.kind === "paste" && copiedBefore(input.history) === undefined
          ? clipboard
          : undefined
    return {
      toolCalls: [toolCallFor(decision.action, input.url)],
      // Done is said on the next turn, once this call has run without failing.
      taskComplete: false,
      part: progress.done,
      history: [
        ...notes,
        `${progress.done + 1}/${commands.length} ${describeCommand(command)}: ${decision.action.description}`,
        ...(copied === undefined ? [] : [copiedLine(copied)]),
        progressLine(
          next,
          commands.length,
          last ? "nothing, the goal is done" : describeCommand(commands[next.done] ?? command),
        ),
      ],
      usage: noUsage,
    }
  }
  return {
    toolCalls: [],
    taskComplete: true,
    history: [...notes, progressLine(progress, commands.length, "nothing, the goal is done")],
    usage: noUsage,
  }
}

/** Summarizes a run from the policy's own progress lines. */
export const summarizeRun = (input: SummarizeInput): SummaryDecision => {
  const reading = readingIn(input.history)
  const parsed = parseCommands(reading?.goal ?? input.goal)
  // The page was read for the goal and could not settle it: that refusal says the most.
  const refused = input.history.findLast((line) => line.startsWith(`${MARKER} cannot understand `))
  // A goal the grammar reads that the page refused ("Call Ana" where two rows say Ana): the refusal.
  if (parsed.ok && refused !== undefined && readProgress(input.history).done === 0)
    return {
      taskComplete: false,
      summary: refused.slice(MARKER.length + 1),
      keyFindings: [],
      nextSuggestions: [],
      usage: noUsage,
    }
  const total = parsed.ok ? parsed.commands.length : 0
  const progress = readProgress(input.history)
  const complete = parsed.ok && progress.done >= total
  const remaining = parsed.ok ? parsed.commands.slice(progress.done).map(describeCommand) : []
  return {
    taskComplete: complete,
    summary: parsed.ok
      ? `${progress.done} of ${total} parts of "${input.goal}" done${input.url === undefined ? "" : `; now on ${input.url}`}`
      : (refused?.slice(MARKER.length + 1) ?? `cannot understand "${input.goal}": ${parsed.reason}`),
    keyFindings: parsed.ok
      ? parsed.commands.slice(0, progress.done).map((command) => `done: ${describeCommand(command)}`)
      : [],
    nextSuggestions: remaining.map((text) => `still to do: ${text}`),
    usage: noUsage,
  }
}

/**
 * The rule step policy as a `StepPolicy`: no model, no tokens.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { makeRuleStepPolicy } from "@sextant/planner"
 * const policy = makeRuleStepPolicy()
 * const decision = Effect.runSync(policy.decide({ goal: "click Sign in", url, outline, history: [] }))
 * ```
 */
export const makeRuleStepPolicy = (options: RuleStepPolicyOptions = {}): StepPolicyShape => ({
  decide: (input) => Effect.sync(() => decideStep(input, options)),
  summarize: (input) => Effect.sync(() => summarizeRun(input)),
  // Only the page can say what some goals are (see `partsFromPage`): their parts come with the first decision.
  parts: (goal) => (partsFromPage(goal) ? undefined : goalPartsOf(goal)),
})

/** A layer providing the rule step policy as the `StepPolicy` service. */
export const ruleStepPolicyLayer = (options: RuleStepPolicyOptions = {}): Layer.Layer<StepPolicy> =>
  Layer.succeed(StepPolicy, makeRuleStepPolicy(options))
