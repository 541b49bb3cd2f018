import {
  DriverError,
  formatIssues,
  type LookOptions,
  type PageElement,
  type PageOutput,
  type PageRegion,
  type PageSnapshot,
  ScriptError,
  StaleRef,
} from "@sextant/core"
import { Effect } from "effect"
import { actionsOf } from "./Actions.ts"
import { diffOutlines } from "./Changes.ts"
import { type Anchor, applyBudget } from "./internal/Budget.ts"
import { RawSnapshot } from "./internal/RawSnapshot.ts"
import { applyViewBudget, readOn } from "./internal/ViewBudget.ts"
import { countTokens } from "./Tokens.ts"

/** Options of {@link parseSnapshot}: the look options plus whether to count the tree's tokens. */
export interface ParseOptions extends LookOptions {
  /** Count the tree's o200k tokens into `stats.tokens` even when no `maxTokens` asks for it. */
  readonly countTokens?: boolean
  /** Time the whole look took as the caller measured it (round trip included), for `stats.durationMs`. */
  readonly durationMs?: number
}

/** How many text outputs of one region a snapshot keeps for screen semantics. */
const MAX_OUTPUTS_PER_REGION = 40
/** How long one output's text may be. */
const MAX_OUTPUT_TEXT = 200
/** Regions around the content: they keep fewer outputs, since they rarely change what a screen means. */
const QUIET_REGIONS: ReadonlySet<PageRegion> = new Set(["header", "nav", "footer"])
const MAX_QUIET_OUTPUTS = 10

const outputsOf = (texts: RawSnapshot["texts"]): Array<PageOutput> => {
  const outputs: Array<PageOutput> = []
  const perRegion = new Map<PageRegion, number>()
  const seen = new Map<string, number>()
  for (const [region, kind, fullText, count] of texts) {
    const text = fullText.length > MAX_OUTPUT_TEXT ? `${fullText.slice(0, MAX_OUTPUT_TEXT)}…` : fullText
    if (region === "alert" || region === "modal") {
      // An alert reports its whole text after the runs inside it: keep the whole, drop the parts.
      if (kind === "alert") {
        for (let index = outputs.length - 1; index >= 0; index--) {
          const output = outputs[index]!
          if (output.region === region && text.includes(output.text)) outputs.splice(index, 1)
        }
      } else if (outputs.some((output) => output.region === region && output.text.includes(text))) continue
    }
    const used = perRegion.get(region) ?? 0
    const limit = QUIET_REGIONS.has(region) ? MAX_QUIET_OUTPUTS : MAX_OUTPUTS_PER_REGION
    if (used >= limit && count === undefined) continue
    perRegion.set(region, used + 1)
    const base = `${region}:${kind}:${text.slice(0, 60)}`
    const index = seen.get(base) ?? 0
    seen.set(base, index + 1)
    outputs.push({
      key: index === 0 ? base : `${base}#${index}`,
      region,
      text,
      ...(count === undefined ? {} : { count }),
    })
  }
  return outputs
}

const scriptError = (detail: string, cause?: unknown) =>
  new DriverError({ method: "look", reason: new ScriptError({ detail }), cause })

/**
 * Turns the JSON string of one `look` execute call (see `lookScript`) into a `PageSnapshot`:
 * validates it, builds elements, actions, forms and outputs, then applies `since` (only the changed
 * lines), `from` (the view from that line on), `budget` (every control kept, text left out by priority
 * with a line naming the look that shows it) and `maxTokens` (the longest head that fits, with a hint
 * naming `look({ within })` and `look({ from })` for the rest). Throws `DriverError` with `StaleRef` when `within` names a ref the page no longer has, and
 * with `ScriptError` when the page answered something else than a snapshot.
 *
 * @example
 * ```ts
 * import { lookScript, parseSnapshot } from "@sextant/perception"
 * const json = await browser.execute(lookScript({ mode: "full" }))
 * const snapshot = parseSnapshot(json as string, { maxTokens: 2000 })
 * console.log(snapshot.tree)
 * ```
 */
export const parseSnapshot = (json: unknown, options: ParseOptions = {}): PageSnapshot => {
  if (typeof json !== "string")
    throw scriptError(
      `look() answered ${typeof json} instead of a JSON string: install the page script with lookScript()`,
    )
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch (cause) {
    throw scriptError("look() answered text that is not JSON", cause)
  }
  if (typeof parsed === "object" && parsed !== null && "failure" in parsed)
    throw scriptError(String((parsed as { failure: unknown }).failure))
  const result = RawSnapshot.safeParse(parsed)
  if (!result.success)
    throw scriptError(
      `look() answered an unexpected snapshot: ${formatIssues("snapshot", result.error, parsed).join("; ")}`,
    )
  const raw = result.data
  if (raw.stale !== undefined)
    throw new DriverError({ method: "look", reason: new StaleRef({ ref: raw.stale }) })

  const elements: Record<string, PageElement> = {}
  // RawSnapshot already validated every element against a schema PageElement accepts as is.
  for (const element of raw.elements) elements[element.ref] = element

  const outline = raw.lines.join("\n")
  let lines = raw.lines
  let anchors: ReadonlyArray<Anchor> = raw.anchors
  let view: "full" | "interactive" | "changes" = raw.mode
  const place = { within: options.within, from: options.from }
  if (options.since !== undefined) {
    const previous = options.since.outline ?? options.since.tree
    const changes = diffOutlines(previous, outline)
    lines = changes.length === 0 ? ["(no changes since the last look)"] : changes
    anchors = []
    view = "changes"
  } else if (options.from !== undefined && options.from > 0) {
    // The next part of a view: its lines from `from` on, and the containers that still hold some.
    const from = options.from
    lines = lines.slice(from)
    anchors = anchors.flatMap(([ref, label, start, end]) =>
      end > from ? [[ref, label, Math.max(0, start - from), end - from] as Anchor] : [],
    )
    if (lines.length === 0) lines = [`(the view has ${raw.lines.length} lines: nothing from line ${from} on)`]
  }
  const fitted =
    options.budget !== undefined && view === "full"
      ? applyViewBudget(lines, anchors, elements, options.budget, place)
      : { tree: lines.join("\n"), truncated: false }
  const cut = applyBudget(
    fitted.tree === "" ? [] : fitted.tree.split("\n"),
    // A view the budget changed has other line numbers than its containers.
    fitted.truncated ? [] : anchors,
    options.maxTokens,
    view === "full"
      ? 'look({ mode: "interactive" }) lists only the actions'
      : "raise maxTokens to see the rest",
    view === "changes" || fitted.truncated ? undefined : (kept) => readOn(place, kept),
  )
  const budgeted = { tree: cut.tree, truncated: fitted.truncated || cut.truncated }
  const tokens =
    options.maxTokens !== undefined || options.budget !== undefined || options.countTokens === true
      ? countTokens(budgeted.tree)
      : undefined
  const keepOutline = view === "changes" || budgeted.truncated || lines !== raw.lines

  return {
    url: raw.url,
    title: raw.title,
    tree: budgeted.tree,
    elements,
    actions: actionsOf(elements, raw.title, raw.scroll),
    forms: raw.forms.map((form) => ({
      key: form.key,
      ref: form.ref,
      name: form.name,
      fields: form.fields,
      ...(form.submit === undefined ? {} : { submit: form.submit }),
    })),
    outputs: outputsOf(raw.texts),
    stats: {
      nodes: raw.nodes,
      elements: raw.elements.length,
      lines: budgeted.tree === "" ? 0 : budgeted.tree.split("\n").length,
      chars: budgeted.tree.length,
      ...(tokens === undefined ? {} : { tokens }),
      truncated: budgeted.truncated,
      durationMs: options.durationMs ?? raw.ms,
    },
    view,
    scroll: raw.scroll,
    ...(keepOutline ? { outline } : {}),
  }
}

/**
 * `parseSnapshot` as an Effect: the same result, failures in the error channel as `DriverError`.
 *
 * @example
 * ```ts
 * import { decodeSnapshot } from "@sextant/perception"
 * const snapshot = yield* decodeSnapshot(json, { mode: "interactive" })
 * ```
 */
export const decodeSnapshot = (
  json: unknown,
  options: ParseOptions = {},
): Effect.Effect<PageSnapshot, DriverError> =>
  Effect.try({
    try: () => parseSnapshot(json, options),
    catch: (error) =>
      error instanceof DriverError
        ? error
        : scriptError(`reading the snapshot failed: ${String(error)}`, error),
  })
