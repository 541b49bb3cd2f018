import { type AgentError, AgentErrorTypeId } from "./errors/Agent.ts"
import { type DriverError, DriverErrorTypeId } from "./errors/Driver.ts"
import { type HttpError, HttpErrorTypeId } from "./errors/Http.ts"
import { type LlmError, LlmErrorTypeId } from "./errors/Model.ts"
import { type StoreError, StoreErrorTypeId } from "./errors/Store.ts"
import {
  type CompoundError,
  CompoundErrorTypeId,
  type CriteriaNotMet,
  CriteriaNotMetTypeId,
  type SqlError,
  SqlErrorTypeId,
} from "./errors/Tool.ts"

/**
 * Typed errors, one module per boundary (`errors/Driver.ts`, `Http.ts`, `Model.ts`, `Store.ts`,
 * `Agent.ts`, `Tool.ts`, and the reasons they share in `Shared.ts`). Each carries a tagged `reason`
 * that knows whether it is retryable, and a message that says what happened, to what, and what to do.
 *
 * @example
 * ```ts
 * import { DriverError, ElementNotFound } from "@sextant/core"
 * const error = new DriverError({ method: "act", reason: new ElementNotFound({ target: "#login" }) })
 * error.isRetryable // true
 * error.message // "BrowserDriver.act: no element matches #login: check the selector or call look() to see the page"
 * ```
 */

export * from "./errors/Agent.ts"
export * from "./errors/Driver.ts"
export * from "./errors/Http.ts"
export * from "./errors/Model.ts"
export * from "./errors/Shared.ts"
export * from "./errors/Store.ts"
export * from "./errors/Tool.ts"

/** Every typed error Sextant fails with: one per boundary, each with a tagged reason. */
export type SextantError =
  | DriverError
  | HttpError
  | LlmError
  | StoreError
  | AgentError
  | CompoundError
  | SqlError
  | CriteriaNotMet

const carries = (value: unknown, typeId: symbol): boolean =>
  typeof value === "object" && value !== null && typeId in value

/**
 * Type guards for users who catch rejections from the Promise facade. They check the error's TypeId,
 * which only Sextant's own classes carry: a plain `{ _tag: "DriverError" }` is not a `DriverError`.
 *
 * @example
 * ```ts
 * import { isDriverError } from "@sextant/core"
 * isDriverError({ _tag: "DriverError" }) // false
 * ```
 */
export const isDriverError = (value: unknown): value is DriverError => carries(value, DriverErrorTypeId)
export const isHttpError = (value: unknown): value is HttpError => carries(value, HttpErrorTypeId)
export const isLlmError = (value: unknown): value is LlmError => carries(value, LlmErrorTypeId)
export const isStoreError = (value: unknown): value is StoreError => carries(value, StoreErrorTypeId)
export const isAgentError = (value: unknown): value is AgentError => carries(value, AgentErrorTypeId)
export const isCompoundError = (value: unknown): value is CompoundError => carries(value, CompoundErrorTypeId)
export const isSqlError = (value: unknown): value is SqlError => carries(value, SqlErrorTypeId)
export const isCriteriaNotMet = (value: unknown): value is CriteriaNotMet =>
  carries(value, CriteriaNotMetTypeId)
export const isSextantError = (value: unknown): value is SextantError =>
  isDriverError(value) ||
  isHttpError(value) ||
  isLlmError(value) ||
  isStoreError(value) ||
  isAgentError(value) ||
  isCompoundError(value) ||
  isSqlError(value) ||
  isCriteriaNotMet(value)

/**
 * The value as a Sextant error when it is one (by its TypeId), or undefined: how code that holds an
 * error of unknown origin (a tool's failure) reaches the typed union.
 *
 * @example
 * ```ts
 * import { sextantErrorOf } from "@sextant/core"
 * sextantErrorOf(new Error("plain")) // undefined
 * ```
 */
export const sextantErrorOf = (value: unknown): SextantError | undefined =>
  isSextantError(value) ? value : undefined
