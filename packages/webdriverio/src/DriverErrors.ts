import {
  causeMessage,
  DialogOpen,
  DriverCrashed,
  DriverError,
  type DriverErrorReason,
  DriverUnknown,
  ElementNotFound,
  InvalidArgument,
  NavigationFailed,
  NotInteractable,
  refPattern,
  ScriptError,
  SessionClosed,
  StaleRef,
  Timeout,
} from "@sextant/core"

/** What the failing call was aimed at, so a reason can name it. */
export interface ErrorContext {
  /** The ref, selector or URL the call was about. */
  readonly target?: string
  /** The time limit of the call, for `Timeout`. */
  readonly timeoutMs?: number
}

type ReasonFactory = (detail: string, context: ErrorContext) => DriverErrorReason

const target = (context: ErrorContext): string => context.target ?? "the element"

/**
 * The W3C WebDriver error codes (Classic `error` field and BiDi `error` field) and the `DriverError`
 * reason each becomes. Codes not listed map to `DriverUnknown` with the code kept.
 */
export const errorCodeReasons: Readonly<Record<string, ReasonFactory>> = {
  "no such element": (_, context) => new ElementNotFound({ target: target(context) }),
  "no such node": (_, context) => new ElementNotFound({ target: target(context) }),
  "no such shadow root": (_, context) => new ElementNotFound({ target: target(context) }),
  "detached shadow root": (_, context) => new ElementNotFound({ target: target(context) }),
  "stale element reference": (_, context) =>
    context.target !== undefined && refPattern.test(context.target)
      ? new StaleRef({ ref: context.target })
      : new ElementNotFound({ target: target(context) }),
  "element click intercepted": (detail, context) =>
    new NotInteractable({ target: target(context), detail: `covered by another element: ${detail}` }),
  "element not interactable": (detail, context) => new NotInteractable({ target: target(context), detail }),
  "move target out of bounds": (detail, context) =>
    new NotInteractable({ target: target(context), detail: `outside the viewport: ${detail}` }),
  "invalid element state": (detail, context) => new NotInteractable({ target: target(context), detail }),
  timeout: (_, context) => new Timeout({ operation: "the command", timeoutMs: context.timeoutMs ?? 0 }),
  "script timeout": (_, context) =>
    new Timeout({ operation: "the page script", timeoutMs: context.timeoutMs ?? 0 }),
  "javascript error": (detail) => new ScriptError({ detail }),
  "unable to set cookie": (detail) => new ScriptError({ detail }),
  "invalid session id": (detail) => new SessionClosed({ detail }),
  "no such window": (detail) => new SessionClosed({ detail: `the window is closed: ${detail}` }),
  "no such frame": (detail, context) =>
    new ElementNotFound({ target: `frame of ${target(context)} (${detail})` }),
  "unexpected alert open": (detail) => new DialogOpen({ text: detail }),
  "no such alert": (detail) => new InvalidArgument({ detail: `no dialog is open (${detail})` }),
  "invalid argument": (detail) => new InvalidArgument({ detail }),
  "invalid selector": (detail, context) =>
    new InvalidArgument({ detail: `${target(context)} is not a valid selector (${detail})` }),
  "unknown command": (detail) =>
    new InvalidArgument({ detail: `the driver does not support this (${detail})` }),
  "unknown method": (detail) =>
    new InvalidArgument({ detail: `the driver does not support this (${detail})` }),
  "unsupported operation": (detail) =>
    new InvalidArgument({ detail: `the driver does not support this (${detail})` }),
  "insecure certificate": (detail, context) =>
    new NavigationFailed({ url: context.target ?? "the page", detail: `insecure certificate: ${detail}` }),
  "session not created": (detail) => new DriverCrashed({ detail: `no session was created: ${detail}` }),
  "unknown error": (detail) => new DriverUnknown({ code: "unknown error", detail }),
}

/**
 * The reason for a W3C error code; unknown codes keep the code in `DriverUnknown`.
 *
 * @example
 * ```ts
 * import { reasonForCode } from "@sextant/webdriverio"
 * reasonForCode("no such element", "", { target: "#login" })._tag // "ElementNotFound"
 * ```
 */
export const reasonForCode = (
  code: string,
  detail: string,
  context: ErrorContext = {},
): DriverErrorReason => {
  const factory = errorCodeReasons[code]
  return factory === undefined ? new DriverUnknown({ code, detail }) : factory(detail, context)
}

/** Node's network error codes that mean the driver process is gone. */
const connectionLost = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ENOTFOUND"])

// WebdriverIO raises BiDi failures as plain errors whose message it writes as
// `WebDriver Bidi command "<method>" failed with error: <code> - <message>`; the code is the
// protocol's own `error` field, read from that fixed frame, never from the driver's message.
const bidiFrame = /^WebDriver Bidi command "[^"]+" failed with error: ([a-z ]+) - ([\s\S]*)$/

const firstLine = (text: string): string => (text.split("\n")[0] ?? "").trim()

/** The W3C code and the driver's detail of a thrown WebdriverIO error, when it carries one. */
export const errorCode = (error: unknown): { readonly code: string; readonly detail: string } | undefined => {
  if (typeof error !== "object" || error === null) return undefined
  const record = error as { name?: unknown; message?: unknown; code?: unknown; error?: unknown }
  const message = typeof record.message === "string" ? record.message : ""
  if (typeof record.error === "string" && record.error !== "") {
    return { code: record.error, detail: firstLine(message) }
  }
  if (typeof record.name === "string" && errorCodeReasons[record.name] !== undefined) {
    return { code: record.name, detail: firstLine(message) }
  }
  const bidi = bidiFrame.exec(message)
  if (bidi !== null) return { code: bidi[1]!, detail: firstLine(bidi[2]!) }
  if (typeof record.code === "string" && connectionLost.has(record.code)) {
    return { code: "connection lost", detail: `${record.code}: ${firstLine(message)}` }
  }
  return undefined
}

/**
 * Turns anything a WebdriverIO call threw into a `DriverError`, by the W3C error code it carries.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { toDriverError } from "@sextant/webdriverio"
 * const title = (browser: WebdriverIO.Browser) =>
 *   Effect.tryPromise({ try: () => browser.getTitle(), catch: toDriverError("title") })
 * ```
 */
export const toDriverError =
  (method: string, context: ErrorContext = {}) =>
  (error: unknown): DriverError => {
    if (error instanceof DriverError) return error
    const found = errorCode(error)
    const detail = firstLine(causeMessage(error))
    const reason =
      found === undefined
        ? new DriverUnknown({ code: "unknown", detail })
        : found.code === "connection lost"
          ? new DriverCrashed({ detail: found.detail })
          : reasonForCode(found.code, found.detail, context)
    return new DriverError({ method, reason, cause: error })
  }
