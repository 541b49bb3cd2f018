import type { PageElement, PageForm, PageOutput, PageSnapshot, Signal } from "@sextant/core"

/** The parts of a snapshot that say which screen the user is on, in a diff-friendly form. */
export interface Screen {
  /** URL without its fragment. */
  readonly url: string
  readonly title: string
  readonly forms: ReadonlyArray<PageForm>
  readonly outputs: ReadonlyArray<PageOutput>
  /** Identity keys of the elements, in document order. */
  readonly keys: ReadonlyArray<string>
  /** One line per fact, stable across looks of an unchanged page: equal states mean no change. */
  readonly state: string
}

/** What changed between two screens, and what it means. */
export interface ScreenDiff {
  readonly signals: ReadonlyArray<Signal>
  readonly changed: boolean
  readonly navigated: boolean
  /** Error texts that appeared. */
  readonly errors: ReadonlyArray<string>
  /** Item count of results that appeared or changed. */
  readonly results: number | undefined
  readonly addedOutputs: ReadonlyArray<PageOutput>
  readonly removedOutputs: ReadonlyArray<PageOutput>
}

/** The URL without an in-page anchor; a hash route (`#/…`, `#!…`) is a place of its own and stays. */
const withoutHash = (url: string): string => {
  const index = url.indexOf("#")
  if (index === -1 || url.startsWith("#/", index) || url.startsWith("#!", index)) return url
  return url.slice(0, index)
}

const pathOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return parsed.pathname + parsed.search
  } catch {
    return url
  }
}

const elementState = (element: PageElement): string => {
  const parts = [element.key ?? `${element.role}|${element.name}`]
  if (element.value !== undefined && element.value !== "") parts.push(`value=${element.value}`)
  if (element.checked !== undefined) parts.push(`checked=${String(element.checked)}`)
  if (element.selected === true) parts.push("selected")
  if (element.expanded !== undefined) parts.push(`expanded=${String(element.expanded)}`)
  if (element.pressed !== undefined) parts.push(`pressed=${String(element.pressed)}`)
  if (element.disabled === true) parts.push("disabled")
  if (element.invalid === true) parts.push("invalid")
  return parts.join(" ")
}

const outputKey = (output: PageOutput): string => `${output.region}|${output.text}|${output.count ?? ""}`

/**
 * The canonical state of a snapshot: URL, title, forms, element identities with their values and
 * states, and outputs, one fact per line. Secret values are already `<secret>` in the snapshot.
 *
 * @example
 * ```ts
 * import { canonicalState } from "@sextant/perception"
 * canonicalState(before) === canonicalState(after) // nothing the user can see changed
 * ```
 */
export const canonicalState = (snapshot: PageSnapshot): string => {
  const lines = [`url ${withoutHash(snapshot.url)}`, `title ${snapshot.title}`]
  for (const form of snapshot.forms)
    lines.push(`form ${form.key} ${form.fields.join(",")} ${form.submit ?? ""}`)
  for (const element of Object.values(snapshot.elements)) lines.push(`element ${elementState(element)}`)
  for (const output of snapshot.outputs) lines.push(`output ${outputKey(output)}`)
  return lines.join("\n")
}

/**
 * The screen semantics of a snapshot: forms with their fields and submit control, outputs by
 * region, identity keys and the canonical state.
 *
 * @example
 * ```ts
 * import { screenOf } from "@sextant/perception"
 * screenOf(snapshot).forms.map((form) => form.name) // ["Sign in"]
 * ```
 */
export const screenOf = (snapshot: PageSnapshot): Screen => ({
  url: withoutHash(snapshot.url),
  title: snapshot.title,
  forms: snapshot.forms,
  outputs: snapshot.outputs,
  keys: Object.values(snapshot.elements).map((element) => element.key ?? `${element.role}|${element.name}`),
  state: canonicalState(snapshot),
})

const ERROR_WORDS =
  /\b(error|errors|invalid|incorrect|wrong|fail|failed|failure|denied|not found|required|must|unable|cannot|can't|could not|expired|too (short|long)|try again|problem)\b/i

const filledFields = (snapshot: PageSnapshot, form: PageForm): number =>
  form.fields.filter((ref) => {
    const element = snapshot.elements[ref]
    return (
      element !== undefined &&
      ((element.value !== undefined && element.value !== "") || element.checked === true)
    )
  }).length

const resultTexts = (snapshot: PageSnapshot): string =>
  snapshot.outputs
    .filter((output) => output.region === "results")
    .map((output) => `${output.text}|${output.count ?? ""}`)
    .join("\n")

/**
 * The semantic diff of two snapshots of the same tab. Signals:
 * - `NavigationOccurred`: the URL (without fragment) changed;
 * - `ScreenLoaded`: a new screen: first look, navigation, or another title;
 * - `FormSubmitted`: the action was a form's submit control, or a form that held input is gone, was
 *   reset, or the page navigated away from it — unless the action was following a link;
 * - `ErrorAppeared`: an alert or error text appeared, or a field became invalid;
 * - `ResultsAppeared`: a results list appeared or its items changed;
 * - `NoOp`: nothing the user can see changed.
 *
 * @example
 * ```ts
 * import { diffScreens } from "@sextant/perception"
 * diffScreens(beforeLogin, afterLogin).signals // ["NavigationOccurred", "ScreenLoaded", "FormSubmitted"]
 * ```
 */
export const diffScreens = (
  before: PageSnapshot | undefined,
  after: PageSnapshot,
  action: { readonly ref?: string; readonly op?: string } = {},
): ScreenDiff => {
  if (before === undefined) {
    return {
      signals: ["ScreenLoaded"],
      changed: true,
      navigated: false,
      errors: [],
      results: undefined,
      addedOutputs: after.outputs,
      removedOutputs: [],
    }
  }
  const signals: Array<Signal> = []
  const navigated = withoutHash(before.url) !== withoutHash(after.url)
  const changed = navigated || canonicalState(before) !== canonicalState(after)
  const beforeOutputs = new Set(before.outputs.map(outputKey))
  const afterOutputs = new Set(after.outputs.map(outputKey))
  const addedOutputs = after.outputs.filter((output) => !beforeOutputs.has(outputKey(output)))
  const removedOutputs = before.outputs.filter((output) => !afterOutputs.has(outputKey(output)))

  if (navigated) signals.push("NavigationOccurred")
  if (navigated || before.title !== after.title) signals.push("ScreenLoaded")

  const errors = addedOutputs
    .filter(
      (output) => (output.region === "alert" || output.region === "modal") && ERROR_WORDS.test(output.text),
    )
    .map((output) => output.text)
  for (const element of Object.values(after.elements)) {
    const previous = before.elements[element.ref]
    if (element.invalid === true && previous?.invalid !== true && errors.length === 0)
      errors.push(`${element.name || element.ref} is invalid`)
  }

  const submittedByAction =
    action.ref !== undefined &&
    (action.op === "click" || action.op === "press") &&
    before.forms.some((form) => form.submit === action.ref)
  // Following a link never submits a form, even when the page it leaves held a filled one.
  const followedLink =
    action.op === "click" && action.ref !== undefined && before.elements[action.ref]?.role === "link"
  const submittedByChange =
    !followedLink &&
    before.forms.some((form) => {
      if (filledFields(before, form) === 0) return false
      const now = after.forms.find((candidate) => candidate.key === form.key)
      return navigated || now === undefined || filledFields(after, now) === 0
    })
  if (changed && (submittedByAction || submittedByChange)) signals.push("FormSubmitted")
  if (errors.length > 0) signals.push("ErrorAppeared")

  const counted = after.outputs.filter((output) => output.region === "results" && output.count !== undefined)
  const results = counted.reduce((sum, output) => sum + (output.count ?? 0), 0)
  if (results > 0 && resultTexts(before) !== resultTexts(after)) signals.push("ResultsAppeared")
  if (!changed) signals.push("NoOp")
  return {
    signals,
    changed,
    navigated,
    errors,
    results: signals.includes("ResultsAppeared") ? results : undefined,
    addedOutputs,
    removedOutputs,
  }
}

const FILLING = new Set(["input", "select", "check", "uncheck", "set", "upload", "clear"])

const describeOp = (op: string): string => {
  switch (op) {
    case "select":
      return "selected"
    case "check":
      return "checked"
    case "uncheck":
      return "unchecked"
    case "set":
      return "set"
    case "upload":
      return "uploaded"
    case "clear":
      return "cleared"
    default:
      return "filled"
  }
}

const nextField = (snapshot: PageSnapshot, ref: string): string | undefined => {
  const form = snapshot.forms.find((candidate) => candidate.fields.includes(ref))
  if (form === undefined) return undefined
  const start = form.fields.indexOf(ref)
  for (const field of [...form.fields.slice(start + 1), ...form.fields.slice(0, start)]) {
    const element = snapshot.elements[field]
    if (element === undefined || element.disabled === true || field === form.submit) continue
    const fillable = ["textbox", "searchbox", "spinbutton", "combobox"].includes(element.role)
    if (fillable && (element.value === undefined || element.value === "")) return field
  }
  return form.submit
}

/**
 * A hint in words about what an action did, for the agent's next turn: "navigation detected: /dashboard",
 * "e1 filled, consider e2 next", "error appeared: Invalid email or password", "results appeared: 12 items",
 * "no visible change".
 *
 * @example
 * ```ts
 * import { describeChange } from "@sextant/perception"
 * describeChange(before, after, { ref: "e1", op: "input" }) // "e1 filled, consider e2 next"
 * ```
 */
export const describeChange = (
  before: PageSnapshot | undefined,
  after: PageSnapshot,
  action: { readonly ref?: string; readonly op?: string } = {},
): string => {
  const diff = diffScreens(before, after, action)
  const parts: Array<string> = []
  if (diff.navigated) parts.push(`navigation detected: ${pathOf(after.url)}`)
  for (const error of diff.errors.slice(0, 2)) parts.push(`error appeared: ${error}`)
  if (diff.results !== undefined) parts.push(`results appeared: ${diff.results} items`)
  const dialog = diff.addedOutputs.find((output) => output.region === "modal")
  if (dialog !== undefined && !diff.navigated) parts.push(`dialog appeared: ${dialog.text.slice(0, 80)}`)
  if (parts.length === 0 && diff.signals.includes("FormSubmitted")) parts.push("form submitted")
  if (parts.length === 0 && action.ref !== undefined && action.op !== undefined && FILLING.has(action.op)) {
    const next = nextField(after, action.ref)
    parts.push(
      next === undefined
        ? `${action.ref} ${describeOp(action.op)}`
        : `${action.ref} ${describeOp(action.op)}, consider ${next} next`,
    )
  }
  if (parts.length === 0 && before === undefined) parts.push("screen loaded")
  if (parts.length === 0) {
    const added = diff.addedOutputs[0]
    parts.push(
      diff.changed
        ? added === undefined
          ? "page changed"
          : `page changed: ${added.text.slice(0, 80)}`
        : "no visible change",
    )
  }
  return parts.join("; ")
}
