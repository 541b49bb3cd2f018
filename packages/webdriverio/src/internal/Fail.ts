import { DriverError, type DriverErrorReason } from "@sextant/core"
import { Effect } from "effect"

/** Fails with the `DriverError` of `method` for `reason`. */
export const fail = (method: string, reason: DriverErrorReason, cause?: unknown) =>
  Effect.fail(new DriverError({ method, reason, cause }))
