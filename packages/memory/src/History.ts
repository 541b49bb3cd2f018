import { type Redaction, toRedact } from "./Redaction.ts"

/** Options of the step-wise history. */
export interface HistoryOptions {
  /** How many recent lines a step-wise prompt sees. Default 8. */
  readonly historyWindow?: number
}

/** The default of {@link HistoryOptions.historyWindow}. */
export const DEFAULT_HISTORY_WINDOW = 8

/** One atomic action of a step-wise agent. */
export interface HistoryAction {
  readonly step: number
  readonly tool: string
  /** What it acted on: a URL, a selector, a ref. */
  readonly target?: string
  /** How many elements the action touched, shown as `x1`. */
  readonly count?: number
  /** A short outcome, e.g. `failed: no element matches #next`. */
  readonly note?: string
}

/** Formats one action: `#1 navigate -> https://…`, `#3 click -> #login-btn x1`. */
export const formatAction = (action: HistoryAction): string => {
  const parts = [`#${action.step} ${action.tool}`]
  if (action.target !== undefined && action.target !== "") parts.push(`-> ${action.target}`)
  if (action.count !== undefined) parts.push(`x${action.count}`)
  if (action.note !== undefined && action.note !== "") parts.push(`(${action.note})`)
  return parts.join(" ")
}

/** Formats the final answer: `FINAL {"taskComplete":true,…}`. */
export const formatFinal = (result: unknown): string => `FINAL ${JSON.stringify(result)}`

/**
 * The action history of a step-wise agent, one line per action and a `FINAL` line at the end.
 * Immutable: `add` and `finish` return a new history.
 *
 * @example
 * ```ts
 * import { History } from "@sextant/memory"
 * const history = History.make()
 *   .add({ step: 1, tool: "navigate", target: "http://127.0.0.1:4000/login" })
 *   .add({ step: 2, tool: "fill", target: "#password", note: "typed hunter2" })
 * history.render({ password: "hunter2" })
 * // "#1 navigate -> http://127.0.0.1:4000/login\n#2 fill -> #password (typed <secret:password>)"
 * ```
 */
export class History {
  readonly lines: ReadonlyArray<string>
  readonly historyWindow: number

  private constructor(lines: ReadonlyArray<string>, historyWindow: number) {
    this.lines = lines
    this.historyWindow = historyWindow
  }

  /** An empty history. A window below 1 is a programmer mistake and throws. */
  static make(options: HistoryOptions = {}): History {
    const historyWindow = options.historyWindow ?? DEFAULT_HISTORY_WINDOW
    if (!Number.isInteger(historyWindow) || historyWindow < 1) {
      throw new RangeError(`History: historyWindow must be a positive integer, got ${historyWindow}`)
    }
    return new History([], historyWindow)
  }

  add(action: HistoryAction): History {
    return new History([...this.lines, formatAction(action)], this.historyWindow)
  }

  /** Adds the `FINAL` line. */
  finish(result: unknown): History {
    return new History([...this.lines, formatFinal(result)], this.historyWindow)
  }

  /** The last `historyWindow` lines, for a step-wise prompt. */
  get window(): ReadonlyArray<string> {
    return this.lines.slice(-this.historyWindow)
  }

  /** The window as prompt text, secrets replaced by `<secret:name>`. */
  render(redaction?: Redaction): string {
    const redact = toRedact(redaction)
    return this.window.map(redact).join("\n")
  }

  /** Every line, not just the window (for a transcript), secrets replaced. */
  renderAll(redaction?: Redaction): string {
    const redact = toRedact(redaction)
    return this.lines.map(redact).join("\n")
  }
}
