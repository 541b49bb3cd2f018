import type { TaskConstraints, ToolGroup, ToolRegistry } from "@sextant/core"

/** What decides which tool groups a prompt lists. */
export interface ToolNeeds {
  readonly goal: string
  /** The page view the model is shown; left out when no page is known yet (form tools are then listed). */
  readonly outline?: string | undefined
  /** The task's inputs: a task that hands over values has fields to put them in. */
  readonly inputs?: Readonly<Record<string, unknown>> | undefined
  readonly constraints?: Partial<Pick<TaskConstraints, "allowedUploadDirs" | "toolGroups">> | undefined
  /** Groups the policy or planner was told to list on every call; `"all"` lists every tool. */
  readonly asked?: ReadonlyArray<ToolGroup> | "all" | undefined
}

const FIELD_ROLES = "textbox|searchbox|combobox|listbox|checkbox|radio|switch|slider|spinbutton"

/**
 * A field a page view prints: `- textbox "Email" [ref=e1]`; `e3 textbox Email` when compact; or a run
 * of fields under their role on a line of its own (`textbox:` over `e3 Email`, `e4 Name`).
 */
const FIELD = new RegExp(`(?:^\\s*- |(?:^|[\\s·])e\\d+ )(?:${FIELD_ROLES})\\b|^\\s*(?:${FIELD_ROLES}):`, "m")

/** Goal words that ask for collecting records rather than acting on one element. */
const EXTRACTION =
  /\b(list|lists|extract\w*|scrape|collect|gather|records?|tables?|csv|every page|all pages|pages|paginat\w*|next page|details? pages?|screenshot)\b|列表|提取|抓取|所有|每一?页|表格|翻页|详情|截图/i

/** Goal words that name a gesture the core tools do not make. */
const GESTURES =
  /\b(hover\w*|drag\w*|drop|highlight\w*|select(ing)? (the )?text|inside|within|pattern|regex|matching|nth|pause|delay)\b|悬停|拖|高亮|选中.*文字|里面|内部/i

/** Goal words of form work, for a page that does not show its fields yet. */
const FORMS =
  /\b(log ?in|sign ?in|sign ?up|register|search|type|enter|fill|form|select|choose|pick|check|uncheck|tick|subscribe|submit|password|date)\b|登录|搜索|输入|填|选择|勾选|提交|日期/i

/** The words of a tool name: `selectText` → "select text". */
const nameWords = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase()

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** Tools of `registry` the goal names, by their name or its words ("use sql", "select text"). */
export const toolsNamedIn = (goal: string, registry: ToolRegistry): ReadonlyArray<string> =>
  registry
    .catalog()
    .filter((entry) => entry.group !== "core")
    .map((entry) => entry.name)
    .filter((name) =>
      [name, nameWords(name)].some((form) =>
        new RegExp(`(?<![\\w-])${literal(form)}(?![\\w-])`, "i").test(goal),
      ),
    )

/**
 * The tool groups a prompt lists for a task, `core` always first:
 *
 * - `forms` when the page view shows a field (textbox, searchbox, combobox, listbox, checkbox, radio,
 *   switch, slider, spin button), when no page is known yet, when the task hands over inputs, or when
 *   the goal speaks of form work (log in, search, type, fill, select, check, submit…);
 * - `files` when the task's constraints allow an upload folder (`allowedUploadDirs`);
 * - `extraction` when the goal speaks of collecting (list, extract, scrape, every page, table, csv…);
 * - `gestures` when the goal names one (hover, drag, highlight, inside, pattern, nth, pause…);
 * - `session` only when asked: the option, or the task's `constraints.toolGroups`.
 *
 * Any group the option or `constraints.toolGroups` names is listed as well. A tool the goal names by
 * name is listed by `toolsNamedIn`, whatever its group.
 *
 * @example
 * ```ts
 * import { toolGroupsFor } from "@sextant/planner"
 * toolGroupsFor({ goal: "sign in as alice", outline: '- textbox "Email" [ref=e1]' }) // ["core", "forms"]
 * toolGroupsFor({ goal: "open the first story", outline: '- link "Story" [ref=e1]' }) // ["core"]
 * ```
 */
export const toolGroupsFor = (needs: ToolNeeds): ReadonlyArray<ToolGroup> | undefined => {
  if (needs.asked === "all") return undefined
  const groups = new Set<ToolGroup>([
    "core",
    ...(needs.asked ?? []),
    ...(needs.constraints?.toolGroups ?? []),
  ])
  const hasInputs = Object.keys(needs.inputs ?? {}).length > 0
  if (needs.outline === undefined || FIELD.test(needs.outline) || hasInputs || FORMS.test(needs.goal))
    groups.add("forms")
  if ((needs.constraints?.allowedUploadDirs ?? []).length > 0) groups.add("files")
  if (EXTRACTION.test(needs.goal)) groups.add("extraction")
  if (GESTURES.test(needs.goal)) groups.add("gestures")
  return [...groups]
}

/**
 * The catalog a prompt carries for a task: the tools of `toolGroupsFor(needs)`, the tools the goal
 * names, and `always` by name.
 */
export const catalogFor = (registry: ToolRegistry, needs: ToolNeeds, always: ReadonlyArray<string> = []) => {
  const groups = toolGroupsFor(needs)
  return groups === undefined
    ? registry.renderCatalog()
    : registry.renderCatalog({ groups, tools: [...always, ...toolsNamedIn(needs.goal, registry)] })
}
