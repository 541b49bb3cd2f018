import {
  DriverError,
  type DriverErrorReason,
  ElementNotFound,
  formatTarget,
  InvalidArgument,
  NotEditable,
  NotInteractable,
  OriginRefused,
  StaleRef,
  type Target,
} from "@sextant/core"
import type { DescribedElement } from "./Recording.ts"

/** What the page script answers when it has found an element for an operation, or why it could not. */
export interface Prepared {
  readonly error?: string
  /** For a click: the element takes typed text (a text-like input, a number input, a textarea). */
  readonly textField?: boolean
  /** The element found, described by the page when the last look did not show it. */
  readonly element?: DescribedElement
  readonly detail?: string
  readonly x?: number
  readonly y?: number
  readonly box?: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }
  readonly checked?: boolean
  readonly value?: string
  readonly mark?: string
  readonly min?: number
  readonly max?: number
  readonly step?: number
  readonly current?: number
  readonly selected?: ReadonlyArray<string>
  readonly before?: string
  readonly inputs?: number
  /** The id of the document the action was prepared in (each document's actor makes its own). */
  readonly doc?: string
  readonly watched?: boolean
  /** The value was set in the input's own format (date, time, range…) instead of typed. */
  readonly assigned?: boolean
  /** Where a drag or a text selection ends. */
  readonly toX?: number
  readonly toY?: number
  /** How far a scroll inside the element goes. */
  readonly deltaY?: number
}

/** The driver error for the page script's `error` (and `detail`) about `target`. */
export const preparedError = (
  method: string,
  target: Target,
  prepared: Pick<Prepared, "error" | "detail">,
  origins?: ReadonlyArray<string>,
): DriverError => {
  const name = formatTarget(target)
  const reason = ((): DriverErrorReason => {
    switch (prepared.error) {
      case "stale":
        return "ref" in target ? new StaleRef({ ref: target.ref }) : new ElementNotFound({ target: name })
      case "missing":
        return new ElementNotFound({ target: name })
      case "selector":
        return new InvalidArgument({
          detail: `${name} is not a valid CSS selector (${prepared.detail ?? ""})`,
        })
      case "hidden":
        return new NotInteractable({ target: name, detail: "it is hidden" })
      case "covered":
      case "disabled":
        return new NotInteractable({ target: name, detail: prepared.detail ?? prepared.error })
      case "noteditable":
        return new NotEditable({ target: name, detail: prepared.detail ?? `${name} does not take text` })
      case "origin":
        return new OriginRefused({ target: name, origin: prepared.detail ?? "null", allowed: origins ?? [] })
      default:
        return new InvalidArgument({ detail: prepared.detail ?? `${name} cannot take this operation` })
    }
  })()
  return new DriverError({ method, reason })
}

/** What the page script's `checkTyped` answers: the field holds what was typed, or what it holds. */
export interface TypedCheck {
  readonly ok: boolean
  /** The field is a password field or the value is secret: `value` is never sent. */
  readonly secret?: boolean
  readonly length?: number
  readonly wanted?: number
  readonly maxLength?: number
  /** What it holds is the start of what was typed. */
  readonly prefix?: boolean
  /** What it holds, only when nothing about it is secret. */
  readonly value?: string
}

/**
 * What a field holds instead of the `wanted` text typed into it (twice), and what to do, for
 * `ValueNotTaken`. A secret field is described by lengths only; `wanted` is printed only when the
 * field says it is not secret.
 */
export const typedMismatch = (typed: TypedCheck, wanted: string): string => {
  const length = typed.length ?? 0
  const asked = typed.wanted ?? [...wanted].length
  const holds = `it holds ${length} of ${asked} characters`
  if (typed.maxLength !== undefined && typed.maxLength < asked && length <= typed.maxLength)
    return `${holds}: the field allows at most ${typed.maxLength} characters (maxlength); give a value that fits or use another field`
  if (typed.prefix === true && length > 0 && length < asked)
    return `${holds} after it was cleared and typed twice: the page lost keystrokes; look() at the field and fill it again, or type the missing part with press`
  if (typed.secret === true || typed.value === undefined)
    return `${holds}, not the value typed (a secret: only lengths are shown) after it was cleared and typed twice: the page changes what is typed; look() at the field and check what it expects`
  return `the page changed the value to ${JSON.stringify(typed.value)} (typed ${JSON.stringify(wanted)}, twice): give the value in the form the field expects`
}
