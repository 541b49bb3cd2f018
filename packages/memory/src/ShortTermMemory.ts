import type { Observation } from "@sextant/core"
import { type Redaction, toRedact } from "./Redaction.ts"

/** Options of the short-term window. */
export interface ShortTermMemoryOptions {
  /** How many recent observations a prompt sees. Default 30. */
  readonly windowSize?: number
  /** Longest summary line, in characters; longer ones are cut with `…`. Default 300. */
  readonly maxLineLength?: number
}

/** The default number of observations kept: {@link ShortTermMemoryOptions.windowSize}. */
export const DEFAULT_WINDOW_SIZE = 30
const DEFAULT_MAX_LINE_LENGTH = 300

/** One remembered observation, already summarised. */
export interface MemoryEntry {
  readonly step: number
  readonly kind: "navigation" | "extraction" | "action" | "error"
  /** `click(.next) => success` */
  readonly summary: string
}

// The argument that best says what a call acted on, in order of preference.
const TARGET_KEYS = ["url", "selector", "target", "ref", "query", "text", "key", "direction"] as const

const describeTarget = (args: Readonly<Record<string, unknown>> | undefined): string => {
  if (args === undefined) return ""
  for (const key of TARGET_KEYS) {
    const value = args[key]
    if (typeof value === "string" && value !== "") return value
  }
  const first = Object.values(args).find((value) => typeof value === "string" || typeof value === "number")
  return first === undefined ? "" : String(first)
}

const countItems = (data: unknown): number | undefined => {
  if (Array.isArray(data)) return data.length
  if (typeof data === "object" && data !== null) {
    for (const key of ["items", "records", "rows", "results"]) {
      const value = (data as Record<string, unknown>)[key]
      if (Array.isArray(value)) return value.length
    }
    const count = (data as Record<string, unknown>).count
    if (typeof count === "number") return count
  }
  return undefined
}

const cut = (text: string, length: number): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text

/**
 * Summarises one observation as a window line: errors keep their message, extractions their item count,
 * navigations where they landed.
 */
export const summarize = (
  step: number,
  observation: Observation,
  args?: Readonly<Record<string, unknown>>,
): MemoryEntry => {
  const call = `${observation.tool}(${describeTarget(args)})`
  if (!observation.ok) {
    const message = observation.error?.message ?? observation.message ?? "failed"
    return { step, kind: "error", summary: `${call} => error: ${message}` }
  }
  const items = countItems(observation.data)
  if (items !== undefined) {
    return { step, kind: "extraction", summary: `${call} => ${items} ${items === 1 ? "item" : "items"}` }
  }
  const navigated = observation.signals?.includes("NavigationOccurred") || observation.tool === "navigate"
  if (navigated && observation.url !== undefined) {
    return { step, kind: "navigation", summary: `${call} => success, now at ${observation.url}` }
  }
  return { step, kind: "action", summary: `${call} => success` }
}

/**
 * The last N observations of a run, summarised for the next prompt. Immutable: `add` returns a new
 * window.
 *
 * @example
 * ```ts
 * import { ShortTermMemory } from "@sextant/memory"
 * const memory = ShortTermMemory.make({ windowSize: 30 })
 *   .add(3, { tool: "click", ok: true, data: null, durationMs: 80, at: new Date().toISOString() }, { selector: ".next" })
 * memory.render() // "[Recent Observations]\nStep 3 click(.next) => success"
 * ```
 */
export class ShortTermMemory {
  readonly entries: ReadonlyArray<MemoryEntry>
  readonly windowSize: number
  readonly maxLineLength: number

  private constructor(entries: ReadonlyArray<MemoryEntry>, windowSize: number, maxLineLength: number) {
    this.entries = entries
    this.windowSize = windowSize
    this.maxLineLength = maxLineLength
  }

  /** An empty window. A window size below 1 is a programmer mistake and throws. */
  static make(options: ShortTermMemoryOptions = {}): ShortTermMemory {
    const windowSize = options.windowSize ?? DEFAULT_WINDOW_SIZE
    if (!Number.isInteger(windowSize) || windowSize < 1) {
      throw new RangeError(`ShortTermMemory: windowSize must be a positive integer, got ${windowSize}`)
    }
    return new ShortTermMemory([], windowSize, options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH)
  }

  /** Remembers an observation of step `step`; the oldest entry drops out when the window is full. */
  add(step: number, observation: Observation, args?: Readonly<Record<string, unknown>>): ShortTermMemory {
    return this.push(summarize(step, observation, args))
  }

  /** Remembers an entry summarised elsewhere. */
  push(entry: MemoryEntry): ShortTermMemory {
    const entries = [...this.entries, entry].slice(-this.windowSize)
    return new ShortTermMemory(entries, this.windowSize, this.maxLineLength)
  }

  /**
   * The window as prompt text, `[Recent Observations]` then one `Step N …` line per entry, secrets
   * replaced by `<secret:name>`. An empty window renders as an empty string.
   */
  render(redaction?: Redaction): string {
    if (this.entries.length === 0) return ""
    const redact = toRedact(redaction)
    const lines = this.entries.map((entry) =>
      redact(cut(`Step ${entry.step} ${entry.summary}`, this.maxLineLength)),
    )
    return ["[Recent Observations]", ...lines].join("\n")
  }
}
