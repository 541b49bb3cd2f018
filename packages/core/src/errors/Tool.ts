import { Data } from "effect"

/**
 * The errors of the tools above the driver: the compound tools (`CompoundError`), the `sql` tool
 * (`SqlError`), and a step whose success criteria do not hold (`CriteriaNotMet`). They live in core so
 * the retry policy sees every error a step can end with in one union.
 */

/** Marks a real `CompoundError`: the guards check it, not the `_tag` any plain object can carry. */
export const CompoundErrorTypeId: unique symbol = Symbol.for("@sextant/core/CompoundError")
export type CompoundErrorTypeId = typeof CompoundErrorTypeId
/** Marks a real `SqlError`. */
export const SqlErrorTypeId: unique symbol = Symbol.for("@sextant/core/SqlError")
export type SqlErrorTypeId = typeof SqlErrorTypeId
/** Marks a real `CriteriaNotMet`. */
export const CriteriaNotMetTypeId: unique symbol = Symbol.for("@sextant/core/CriteriaNotMet")
export type CriteriaNotMetTypeId = typeof CriteriaNotMetTypeId

/**
 * The site answered the login with an error message: the credentials (or the account) are wrong.
 *
 * @example
 * ```ts
 * import { LoginRejected } from "@sextant/tools"
 * new LoginRejected({ pageError: "Invalid email or password", url: "http://127.0.0.1/login" }).isRetryable
 * ```
 */
export class LoginRejected extends Data.TaggedClass("LoginRejected")<{
  readonly pageError: string
  readonly url: string
}> {
  readonly isRetryable = false
  get message(): string {
    return `the site rejected the login with "${this.pageError}" (${this.url}): check the username and password`
  }
}

/**
 * After submitting, the page neither changed nor showed an error.
 *
 * @example
 * ```ts
 * import { LoginUnconfirmed } from "@sextant/tools"
 * new LoginUnconfirmed({ url: "http://127.0.0.1/login" }).isRetryable
 * ```
 */
export class LoginUnconfirmed extends Data.TaggedClass("LoginUnconfirmed")<{ readonly url: string }> {
  readonly isRetryable = true
  get message(): string {
    return `the login form at ${this.url} was submitted but the page neither moved on nor showed an error: call look() to see what happened`
  }
}

/**
 * After submitting, the password form is gone but the sign-in is not over: the page asks for a
 * one-time code, or says the account is locked. Not retryable: a retry (or a new plan) would send the
 * password again, and a locked account only counts another failed attempt.
 *
 * @example
 * ```ts
 * import { SignInUnfinished } from "@sextant/tools"
 * new SignInUnfinished({ asks: 'one-time code field "Verification code"', url: "http://127.0.0.1/login" }).isRetryable
 * new SignInUnfinished({ asks: "This account is locked.", url: "http://127.0.0.1/login" }).finding
 * // 'http://127.0.0.1/login says "This account is locked."'
 * ```
 */
export class SignInUnfinished extends Data.TaggedClass("SignInUnfinished")<{
  /** What the page shows: `one-time code field "…"`, or the sentence saying the account is locked. */
  readonly asks: string
  readonly url: string
}> {
  readonly isRetryable = false
  /** The page asks for a one-time code, rather than saying the account is locked. */
  get asksForCode(): boolean {
    return this.asks.startsWith("one-time code field")
  }
  /**
   * What the page shows, said once for the login tool's message and the "logged in" goal check's
   * evidence alike: `<url> asks for a one-time code (…): the sign-in is not over`, or `<url> says "…"`.
   */
  get finding(): string {
    return this.asksForCode
      ? `${this.url} asks for a one-time code (${this.asks}): the sign-in is not over`
      : `${this.url} says "${this.asks}"`
  }
  get message(): string {
    return this.asksForCode
      ? `the password was taken but ${this.finding}; ask the user for the code, do not log in again`
      : `the sign-in did not finish: ${this.finding}; do not log in again`
  }
}

/**
 * A control the tool needs (a password field, a search box, a Next link) is not on the page.
 *
 * @example
 * ```ts
 * import { ControlNotFound } from "@sextant/tools"
 * new ControlNotFound({ control: "password field", url: "http://127.0.0.1/", hint: "navigate to the login page first" }).isRetryable
 * ```
 */
export class ControlNotFound extends Data.TaggedClass("ControlNotFound")<{
  readonly control: string
  readonly url: string
  readonly hint: string
}> {
  readonly isRetryable = true
  get message(): string {
    return `no ${this.control} on ${this.url}: ${this.hint}`
  }
}

/**
 * No repeated items (cards, rows, list entries) were found on the page.
 *
 * @example
 * ```ts
 * import { ListNotFound } from "@sextant/tools"
 * new ListNotFound({ url: "http://127.0.0.1/" }).isRetryable
 * ```
 */
export class ListNotFound extends Data.TaggedClass("ListNotFound")<{
  readonly url: string
  readonly selector?: string | undefined
}> {
  readonly isRetryable = true
  get message(): string {
    return this.selector === undefined
      ? `no repeated items found on ${this.url}: give listSelector, or call look() to check the page shows a list`
      : `${this.selector} matches nothing on ${this.url}: check the selector or call look()`
  }
}

/**
 * Extracted records do not fit the schema; each issue names the record and the field.
 *
 * @example
 * ```ts
 * import { RecordsInvalid } from "@sextant/tools"
 * new RecordsInvalid({ issues: ["records[0].price: Invalid input"] }).isRetryable
 * ```
 */
export class RecordsInvalid extends Data.TaggedClass("RecordsInvalid")<{
  readonly issues: ReadonlyArray<string>
}> {
  readonly isRetryable = false
  get message(): string {
    return `extracted records do not fit the schema:\n  ${this.issues.slice(0, 20).join("\n  ")}`
  }
}

/**
 * The schema given to an extraction tool cannot be used.
 *
 * @example
 * ```ts
 * import { SchemaInvalid } from "@sextant/tools"
 * new SchemaInvalid({ detail: "pattern ( is not a regular expression" }).isRetryable
 * ```
 */
export class SchemaInvalid extends Data.TaggedClass("SchemaInvalid")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the record schema cannot be used: ${this.detail}`
  }
}

export type CompoundErrorReason =
  | LoginRejected
  | LoginUnconfirmed
  | SignInUnfinished
  | ControlNotFound
  | ListNotFound
  | RecordsInvalid
  | SchemaInvalid

/**
 * The error of the compound tools (login, search, fillForm, pagination, extractList,
 * detailPageExtractor) when the page, not the browser, is the problem. Browser failures stay
 * `DriverError`, HTTP failures `HttpError`.
 *
 * @example
 * ```ts
 * import { CompoundError, LoginRejected } from "@sextant/tools"
 * const error = new CompoundError({ tool: "login", reason: new LoginRejected({ pageError: "Invalid email or password", url: "http://127.0.0.1/login" }) })
 * error.isRetryable // false
 * ```
 */
export class CompoundError extends Data.TaggedError("CompoundError")<{
  readonly tool: string
  readonly reason: CompoundErrorReason
  readonly cause?: unknown
}> {
  readonly [CompoundErrorTypeId]: CompoundErrorTypeId = CompoundErrorTypeId
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `${this.tool}: ${this.reason.message}`
  }
}

// sql

/** The query does not parse. */
export class SqlSyntax extends Data.TaggedClass("SqlSyntax")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the query does not parse: ${this.detail}`
  }
}

/** The query parses but does something the `sql` tool does not allow (only one SELECT may run). */
export class SqlNotAllowed extends Data.TaggedClass("SqlNotAllowed")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the query is not allowed: ${this.detail}`
  }
}

/** The query failed while it ran (a bad selector, an unknown column). */
export class SqlFailed extends Data.TaggedClass("SqlFailed")<{ readonly detail: string }> {
  readonly isRetryable = false
  get message(): string {
    return `the query failed: ${this.detail}`
  }
}

export type SqlErrorReason = SqlSyntax | SqlNotAllowed | SqlFailed

/** The error of the `sql` tool (page loads fail with the session's `HttpError`). */
export class SqlError extends Data.TaggedError("SqlError")<{
  readonly query: string
  readonly reason: SqlErrorReason
  readonly cause?: unknown
}> {
  readonly [SqlErrorTypeId]: SqlErrorTypeId = SqlErrorTypeId
  get isRetryable(): boolean {
    return this.reason.isRetryable
  }
  override get message(): string {
    return `sql: ${this.reason.message}`
  }
}

// criteria

/** A step's criteria did not hold after it ran. Retryable: the page may still be settling. */
export class CriteriaNotMet extends Data.TaggedError("CriteriaNotMet")<{
  readonly tool: string
  readonly unmet: ReadonlyArray<string>
}> {
  readonly [CriteriaNotMetTypeId]: CriteriaNotMetTypeId = CriteriaNotMetTypeId
  readonly isRetryable = true
  override get message(): string {
    return `${this.tool} ran but its success criteria do not hold: ${this.unmet.join("; ")}`
  }
}
