import { Context, type Effect, type Scope } from "effect"
import type { DriverError } from "./Errors.ts"
import type { Signal } from "./Observation.ts"
import type { ActionOp, LookOptions, PageAction, PageSnapshot } from "./PageSnapshot.ts"
import type { Target } from "./Target.ts"

/** Where a navigation ended. */
export interface NavigationResult {
  readonly url: string
  readonly title: string
  /** The HTTP status of the document, when the driver could read it (0 or absent: unknown). */
  readonly status?: number | undefined
  /**
   * Set when the page had rendered but had not finished loading by the driver's page-load wait: the
   * driver stopped the load (as pressing Esc does) this many ms after it started, and what the page
   * rendered is usable.
   */
  readonly stoppedLoadingAfterMs?: number | undefined
  /** What a model should know about the load, in words (e.g. that it was stopped), when anything. */
  readonly hint?: string | undefined
}

/**
 * What one action did, so an agent needs no extra look to know: whether the page changed, the
 * semantic signals of the change, the actions available now, and a hint in words
 * ("navigation detected", "e1 filled, consider e2 next", "error appeared: Invalid password").
 */
export interface ActResult {
  readonly ok: boolean
  readonly changed: boolean
  readonly signals: ReadonlyArray<Signal>
  readonly actions: ReadonlyArray<PageAction>
  readonly hint: string
  readonly url: string
  /** A JavaScript dialog the action opened; it blocks the page until `respondToDialog`. */
  readonly dialog?: DialogInfo
  /** Handles of tabs the action opened; `switchTab` to use one. */
  readonly newTabs?: ReadonlyArray<string>
}

/** What {@link ActOrigins} holds. */
export interface ActOriginsShape {
  /**
   * When set, `act` with `input` types only into an element whose document, and whose form's action,
   * is on one of these origins (e.g. `http://127.0.0.1:4000`); otherwise it fails with `OriginRefused`
   * and types nothing. Checked in the page in the same script that finds and focuses the element.
   */
  readonly typing: ReadonlyArray<string> | undefined
}

/**
 * Where the driver may type: the executor sets it around a step that types a secret, so the check
 * happens at the moment of acting, in the page, not before. Unset (the default), typing goes anywhere.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ActOrigins, BrowserDriver } from "@sextant/core"
 * const typed = BrowserDriver.use((driver) => driver.act({ selector: "#password" }, "input", "secret")).pipe(
 *   Effect.provideService(ActOrigins, { typing: ["http://127.0.0.1:4000"] }),
 * )
 * ```
 */
export const ActOrigins: Context.Reference<ActOriginsShape> = Context.Reference<ActOriginsShape>(
  "@sextant/core/ActOrigins",
  { defaultValue: () => ({ typing: undefined }) },
)

/** What {@link TabOrigins} holds. */
export interface TabOriginsShape {
  /**
   * When set, a tab a page opens (a pop-up, a link to a new tab) whose first URL is on none of these
   * origins (e.g. `http://127.0.0.1:4000`) is closed by the driver before it loads anything; a blank
   * tab is judged by the origin of the page that opened it.
   */
  readonly popups: ReadonlyArray<string> | undefined
  /** Told the URL of each new tab the driver closed for it, so the caller can report it. */
  readonly onClosed?: ((url: string) => void) | undefined
}

/**
 * Which origins tabs opened by the run's pages may load: the executor sets it around a run whose
 * task names `allowedOrigins`, and a driver that holds new tabs before their first request (the
 * launched Chromium does) closes a foreign one before it sends anything. Each driver call reads it;
 * unset (the default), new tabs load wherever they go.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { BrowserDriver, TabOrigins } from "@sextant/core"
 * const clicked = BrowserDriver.use((driver) => driver.act({ selector: "#open" }, "click")).pipe(
 *   Effect.provideService(TabOrigins, { popups: ["http://127.0.0.1:4000"] }),
 * )
 * ```
 */
export const TabOrigins: Context.Reference<TabOriginsShape> = Context.Reference<TabOriginsShape>(
  "@sextant/core/TabOrigins",
  { defaultValue: () => ({ popups: undefined }) },
)

/** What {@link UploadDirs} holds. */
export interface UploadDirsShape {
  /**
   * Absolute folders `act(…, "upload", path)` may take files from. The driver resolves the file's real
   * path (symlinks followed) and uploads it only when it lies inside one of these folders' real
   * paths; otherwise it fails with `UploadRefused` and uploads nothing. Empty refuses every upload.
   */
  readonly allowed: ReadonlyArray<string>
  /**
   * What the refusal tells the user to change to allow another folder, as the program that set
   * `allowed` calls it (`--allow-upload-dir DIR` for a CLI). Default `constraints.allowedUploadDirs`.
   */
  readonly setting?: string | undefined
}

/**
 * Where the driver may upload files from: the executor sets it from the task's
 * `constraints.allowedUploadDirs` around every step, so a file path chosen by a model (or a page that
 * talked it into one) cannot reach past them. Unset (the default), no folder is allowed and every
 * upload is refused.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { BrowserDriver, UploadDirs } from "@sextant/core"
 * const uploaded = BrowserDriver.use((driver) => driver.act({ selector: "#cv" }, "upload", "/home/me/cv.pdf")).pipe(
 *   Effect.provideService(UploadDirs, { allowed: ["/home/me"] }),
 * )
 * ```
 */
export const UploadDirs: Context.Reference<UploadDirsShape> = Context.Reference<UploadDirsShape>(
  "@sextant/core/UploadDirs",
  { defaultValue: () => ({ allowed: [] }) },
)

/** A value for `act`: text to type, an option (or several) to select, a number for a slider, a file path. */
export type ActValue = string | number | ReadonlyArray<string>

/** What `waitFor` waits for. */
export type WaitCondition =
  | { readonly ref: string }
  | { readonly selector: string; readonly state?: "present" | "visible" | "hidden" }
  | { readonly text: string }
  | { readonly js: string }
  | { readonly navigation: { readonly from?: string } }

export interface WaitResult {
  readonly ok: boolean
  readonly elapsedMs: number
}

/** Scroll operations a page allows. */
export type ScrollOp =
  | { readonly direction: "down" | "up"; readonly count?: number }
  | { readonly to: "top" | "bottom" | "middle" }
  | { readonly ratio: number }
  | { readonly screen: number }
  | { readonly target: Target }

export interface ScrollResult {
  readonly y: number
  readonly height: number
  readonly viewportHeight: number
  readonly atBottom: boolean
}

export interface TabInfo {
  readonly handle: string
  readonly url: string
  readonly title: string
  readonly active: boolean
}

/** A JavaScript dialog the page opened. */
export interface DialogInfo {
  readonly type: "alert" | "confirm" | "prompt" | "beforeunload"
  readonly text: string
}

/**
 * The element an action was taken on, as a script outside the run can find it again: its role and
 * accessible name, and its strongest selector (unique in its document when it was taken). Never a ref.
 */
export interface RecordedElement {
  readonly role?: string | undefined
  readonly name?: string | undefined
  readonly selector?: string | undefined
  /** Same-origin iframe or shadow-root path from the top document; absent at the top. */
  readonly frame?: ReadonlyArray<string> | undefined
}

/** One thing the driver did to the page, in order: what a plain script needs to do it again. */
export type RecordedAction =
  | {
      readonly kind: "navigate"
      readonly via: "navigate" | "back" | "forward" | "refresh"
      /** Where the navigation ended. */
      readonly url: string
      /** Set when the driver stopped a page that had rendered but not finished loading (see NavigationResult). */
      readonly stoppedLoadingAfterMs?: number | undefined
    }
  | {
      readonly kind: "act"
      readonly op: ActionOp
      readonly element: RecordedElement
      /** Typed text, chosen options, a key; placeholders for secrets once the executor redacted it. */
      readonly value?: ActValue | undefined
      /** The page's URL before and after the action. */
      readonly urlBefore: string
      readonly url: string
    }
  | {
      readonly kind: "wait"
      readonly condition: { readonly text: string } | { readonly selector: string; readonly state?: string }
    }

/** One HTTP exchange the page made (a `fetch` or XHR with a JSON answer), from WebDriver BiDi network events. */
export interface RecordedExchange {
  readonly method: string
  readonly url: string
  readonly status: number
  readonly requestBody?: string | undefined
  readonly requestContentType?: string | undefined
  readonly responseBody?: string | undefined
  readonly responseContentType?: string | undefined
}

/** What the driver did since the last time the recording was taken. */
export interface DriverRecording {
  readonly actions: ReadonlyArray<RecordedAction>
  /** Empty unless the driver was asked to record traffic (it costs a body copy per JSON answer). */
  readonly exchanges: ReadonlyArray<RecordedExchange>
}

/** What {@link BrowserDriverShape.guardSecrets} guards: the secret values and the origins they may go to. */
export interface SecretGuardOptions {
  /** The secret values, as typed (every spelling of each is looked for, see `secretForms`). */
  readonly values: ReadonlyArray<string>
  /** The origins the secrets are bound to, e.g. `["http://127.0.0.1:4000"]`; a request there is never blocked. */
  readonly origins: ReadonlyArray<string>
  /**
   * Strict: every request to an origin not in `origins` is blocked, whatever it carries (a secret in
   * an encoding no matcher knows, or split across requests, cannot leave); only those that carried a
   * secret are reported in `blocked`. Off by default: then only requests that carry a secret are.
   */
  readonly strict?: boolean
}

/**
 * A request the page made that carried a secret to an origin the secrets are not bound to, and that the
 * driver failed before it left the browser. It names where it was going, never the secret: its URL is
 * not kept, since the secret may be in it.
 */
export interface BlockedRequest {
  /** The origin the request was going to, e.g. `http://127.0.0.1:41235`. */
  readonly origin: string
  readonly method: string
  /** Where the secret was found: the URL, the body or a header. */
  readonly carriedIn: "url" | "body" | "header"
  /** What kind of request it was (`Document`, `XHR`, `Fetch`, `Ping`, …), as the browser said. */
  readonly resourceType: string
  /** The origin of the response that redirected here, when the request is a redirect's next hop. */
  readonly redirectedFrom?: string | undefined
  /** The index, in `values`, of the secret it carried. */
  readonly secret: number
}

/**
 * A page a tab tried to load on an origin a strict guard does not allow (the tab's own navigation, not
 * a frame's), which the driver failed before it left the browser. It carried no secret the guard knows.
 */
export interface RefusedPage {
  /** The origin the tab tried to go to, e.g. `http://127.0.0.1:41235`. */
  readonly origin: string
  readonly method: string
}

/** A running request guard, as {@link BrowserDriverShape.guardSecrets} answers it; it ends with its scope. */
export interface SecretRequestGuard {
  /** Takes the requests blocked since the last call, oldest first. */
  readonly blocked: Effect.Effect<ReadonlyArray<BlockedRequest>>
  /**
   * Takes the pages a tab tried to load on an origin a strict guard does not allow since the last call,
   * oldest first. Optional: a driver without it says nothing of them (they are still blocked).
   */
  readonly refusedPages?: Effect.Effect<ReadonlyArray<RefusedPage>> | undefined
}

/**
 * The browser, as an agent uses it. Implemented by `@sextant/webdriverio`; fake layers in
 * `@sextant/testing`. Every operation fails with `DriverError` whose reason says what to do.
 */
export interface BrowserDriverShape {
  readonly navigate: (
    url: string,
    options?: { readonly timeoutMs?: number },
  ) => Effect.Effect<NavigationResult, DriverError>
  readonly currentUrl: Effect.Effect<string, DriverError>
  readonly title: Effect.Effect<string, DriverError>
  /** One injected script, one round trip: the outline with refs and the data behind it. */
  readonly look: (options?: LookOptions) => Effect.Effect<PageSnapshot, DriverError>
  /** One trusted input action on a ref or selector. */
  readonly act: (target: Target, op: ActionOp, value?: ActValue) => Effect.Effect<ActResult, DriverError>
  readonly waitFor: (
    condition: WaitCondition,
    options?: { readonly timeoutMs?: number },
  ) => Effect.Effect<WaitResult, DriverError>
  /** Runs a script in the page (`return` gives the result; `arguments[i]` are the args). */
  readonly evaluate: (script: string, args?: ReadonlyArray<unknown>) => Effect.Effect<unknown, DriverError>
  /**
   * Calls the page function `name` of the page runtime (`@sextant/perception`'s `calls`, on
   * `globalThis.__sextant.calls`) with `args` in the current tab's top document, installing the
   * runtime where the document lacks it. Arguments and answer cross as JSON. Fails with `DriverError`:
   * `InvalidArgument` for a name the runtime does not have, `ScriptError` when the function threw, and
   * the driver's usual reasons for a tab that navigated away, crashed or holds an open dialog. Use
   * `pageCall` from `@sextant/perception` for the typed form.
   *
   * @example
   * ```ts
   * import { BrowserDriver } from "@sextant/core"
   * const facts = BrowserDriver.use((driver) =>
   *   driver.callPage("criteriaFacts", [{ selectors: [".card"], texts: ["Welcome"] }]),
   * )
   * ```
   */
  readonly callPage: (name: string, args?: ReadonlyArray<unknown>) => Effect.Effect<unknown, DriverError>
  /** A PNG of the viewport, or of one element. */
  readonly screenshot: (options?: { readonly target?: Target }) => Effect.Effect<Uint8Array, DriverError>
  readonly scroll: (op: ScrollOp) => Effect.Effect<ScrollResult, DriverError>
  readonly back: Effect.Effect<NavigationResult, DriverError>
  readonly forward: Effect.Effect<NavigationResult, DriverError>
  readonly refresh: Effect.Effect<NavigationResult, DriverError>
  readonly tabs: Effect.Effect<ReadonlyArray<TabInfo>, DriverError>
  readonly switchTab: (handle: string) => Effect.Effect<TabInfo, DriverError>
  readonly closeTab: (handle: string) => Effect.Effect<void, DriverError>
  /**
   * After the current tab crashed (`DriverCrashed` with `tab` set): opens a fresh tab in the same
   * browser context (same cookies and storage), makes it the tab every call goes to, and closes the
   * crashed one. The new tab is blank: load the page again. Optional: a driver without it cannot
   * continue after a tab crash.
   *
   * @example
   * ```ts
   * import { Effect } from "effect"
   * import { BrowserDriver } from "@sextant/core"
   * const again = (url: string) =>
   *   BrowserDriver.use((driver) =>
   *     Effect.andThen(driver.recoverTab ?? Effect.void, driver.navigate(url)),
   *   )
   * ```
   */
  readonly recoverTab?: Effect.Effect<TabInfo, DriverError> | undefined
  /** The last dialog the page opened, if any is still open. */
  readonly dialog: Effect.Effect<DialogInfo | undefined, DriverError>
  readonly respondToDialog: (accept: boolean, text?: string) => Effect.Effect<void, DriverError>
  /**
   * Takes what the driver did since the last call (successful navigations, actions on elements, waits,
   * and the page's JSON traffic when recorded) and starts a new recording. The executor writes it into
   * the run's trace after each step, so a run can be exported as a script or as API tests. Optional:
   * a driver without it records nothing.
   */
  readonly takeRecording?: Effect.Effect<DriverRecording> | undefined
  /**
   * Inspects every request every tab makes from now on until the scope closes (navigations, form
   * posts, `fetch`/XHR, beacons, and each hop of a redirect) and fails, before it leaves the browser,
   * any request that carries one of `values` in any spelling (`secretForms`) in its URL, body or
   * headers to an origin not in `origins`. Blocked requests are read with the answer's `blocked`.
   * Fails with `DriverError` (`InvalidArgument`, saying why) when the session cannot intercept requests; a driver
   * without it cannot guard requests at all (the executor says so in the trace).
   */
  readonly guardSecrets?:
    | ((options: SecretGuardOptions) => Effect.Effect<SecretRequestGuard, DriverError, Scope.Scope>)
    | undefined
}

/**
 * The `BrowserDriver` service.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { BrowserDriver } from "@sextant/core"
 * const program = Effect.gen(function* () {
 *   const driver = yield* BrowserDriver
 *   yield* driver.navigate("http://127.0.0.1:4000/login")
 *   return (yield* driver.look()).tree
 * })
 * ```
 */
export class BrowserDriver extends Context.Service<BrowserDriver, BrowserDriverShape>()(
  "@sextant/core/BrowserDriver",
) {}
