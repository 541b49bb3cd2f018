import {
  type BrowserDriverShape,
  type DriverError,
  type DriverErrorReason,
  InvalidArgument,
  ScriptError,
} from "@sextant/core"
import type { Effect } from "effect"
import type { PageCallAnswer } from "./PageScript.ts"
import type { PageCalls } from "./page/calls.ts"

/** The name of a page function `BrowserDriver.callPage` can call (a key of `src/page/calls.ts`). */
export type PageCallName = keyof PageCalls

/** The arguments the page function `name` takes. */
export type PageCallArgs<Name extends PageCallName> = Parameters<PageCalls[Name]>

/** What the page function `name` answers, once it has crossed to the caller as JSON. */
export type PageCallResult<Name extends PageCallName> = Awaited<ReturnType<PageCalls[Name]>>

/**
 * Calls the page function `name` of perception's page runtime through `driver.callPage`, with the
 * argument and result types of the function itself. The runtime is installed where the document lacks
 * it. Fails with `DriverError` as the driver does: `ScriptError` when the function threw,
 * `InvalidArgument` for a name the page runtime does not have.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { BrowserDriver } from "@sextant/core"
 * import { pageCall } from "@sextant/perception"
 * const facts = BrowserDriver.use((driver) =>
 *   pageCall(driver, "criteriaFacts", { selectors: [".card"], texts: ["Welcome"] }),
 * )
 * ```
 */
export const pageCall = <Name extends PageCallName>(
  driver: Pick<BrowserDriverShape, "callPage">,
  name: Name,
  ...args: PageCallArgs<Name>
): Effect.Effect<PageCallResult<Name>, DriverError> =>
  driver.callPage(name, args) as Effect.Effect<PageCallResult<Name>, DriverError>

/**
 * Why a page call answered no value, as the reason of the driver's `DriverError`: `InvalidArgument`
 * for a name the page runtime does not have, `ScriptError` when the function threw or the answer could
 * not be read. For drivers implementing `callPage` on {@link decodePageCall}'s answer.
 *
 * @example
 * ```ts
 * import { pageCallReason } from "@sextant/perception"
 * pageCallReason("nope", { _tag: "unknown", name: "nope" })._tag // "InvalidArgument"
 * ```
 */
export const pageCallReason = (
  name: string,
  answer: Exclude<PageCallAnswer, { readonly _tag: "value" }>,
): DriverErrorReason => {
  switch (answer._tag) {
    case "unknown":
      return new InvalidArgument({
        detail: `the page runtime has no function "${answer.name}": call one of the names of @sextant/perception's calls (src/page/calls.ts)`,
      })
    case "error":
      return new ScriptError({ detail: `${name} threw: ${answer.error.split("\n")[0] ?? ""}` })
    case "missing":
      return new ScriptError({ detail: `${name}: the page runtime was not there after it was installed` })
    case "malformed":
      return new ScriptError({ detail: `${name}: ${answer.detail}` })
  }
}
