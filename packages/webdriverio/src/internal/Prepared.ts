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
