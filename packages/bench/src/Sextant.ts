import type { ActionOp, ActResult, ActValue, BrowserDriverShape, PageSnapshot, Target } from "@sextant/core"

/**
 * What the bench needs from Sextant's browser driver, as Promises: the page-view and action sections
 * are written against this so they time `look()` and `act()` and nothing of the bench's own.
 */
export interface SextantSession {
  readonly navigate: (url: string) => Promise<void>
  readonly look: (mode: "full" | "interactive") => Promise<PageSnapshot>
  readonly act: (target: Target, op: ActionOp, value?: ActValue) => Promise<ActResult>
  readonly evaluate: (script: string) => Promise<unknown>
  /** WebDriver requests the session has sent so far: HTTP commands plus BiDi messages. */
  readonly requests: () => number
  /** The driver itself, for tools that ask for the `BrowserDriver` service. */
  readonly driver: BrowserDriverShape
  readonly close: () => Promise<void>
}

/** A piece of Sextant that is not there yet, so its rows say so instead of showing numbers. */
export interface Missing {
  readonly missing: string
}

export const isMissing = (value: unknown): value is Missing =>
  typeof value === "object" && value !== null && typeof (value as { missing?: unknown }).missing === "string"
