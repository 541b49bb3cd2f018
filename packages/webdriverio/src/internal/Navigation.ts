import {
  type BrowserDriverShape,
  DriverError,
  InvalidUrl,
  NavigationFailed,
  type NavigationResult,
  PageStatus,
  Timeout,
} from "@sextant/core"
import { Effect } from "effect"
import { toDriverError } from "../DriverErrors.ts"
import type { DriverContext, ResolvedOptions } from "./DriverContext.ts"
import { fail } from "./Fail.ts"
import { loadOnSocket } from "./PageLoad.ts"
import { callFunction } from "./Protocol.ts"

const landedDeclaration = `function () {
  const failed = location.protocol === "chrome-error:"
  const code = failed ? ((document.querySelector(".error-code") || {}).textContent || "net error").trim() : ""
  const entry = performance.getEntriesByType("navigation")[0]
  return JSON.stringify([location.href, document.title, code, (entry && entry.responseStatus) || 0])
}`

/** Statuses after which a navigation is tried again: the server failed, or asked us to slow down. */
const retriedStatus = (status: number): boolean => status === 429 || status >= 500

/** Retry-After as milliseconds: delay seconds or an HTTP date. */
export const retryAfterMs = (value: string | undefined, now = Date.now()): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * What `navigate` does after its `attempt`-th load answered `status`: keep the page, give up (with
 * the Retry-After to name), or load it again after `waitMs` (Retry-After, else a doubling backoff).
 */
export type NextLoad =
  | { readonly _tag: "Done" }
  | { readonly _tag: "GiveUp"; readonly retryAfterMs: number | undefined }
  | { readonly _tag: "Retry"; readonly waitMs: number }

export const nextLoad = (
  status: number,
  retryAfter: number | undefined,
  attempt: number,
  options: Pick<ResolvedOptions, "maxRetryAfterMs" | "statusRetries" | "statusBackoffMs">,
): NextLoad => {
  if (!retriedStatus(status)) return { _tag: "Done" }
  if (retryAfter !== undefined && retryAfter > options.maxRetryAfterMs)
    return { _tag: "GiveUp", retryAfterMs: retryAfter }
  if (attempt > options.statusRetries) return { _tag: "GiveUp", retryAfterMs: retryAfter }
  return { _tag: "Retry", waitMs: retryAfter ?? options.statusBackoffMs * 2 ** (attempt - 1) }
}

// What WebdriverIO's BiDi `url` answers: the navigation's request with its response.
interface NavigationRequest {
  readonly response?: { readonly status?: number; readonly headers?: Record<string, string> }
}

const headerOf = (headers: Record<string, string> | undefined, name: string): string | undefined => {
  if (headers === undefined) return undefined
  const key = Object.keys(headers).find((header) => header.toLowerCase() === name)
  return key === undefined ? undefined : headers[key]
}

/**
 * What a navigation result says about a load the driver stopped after its page-load wait: the ms,
 * and a hint a model reads in its history.
 */
const stoppedLoading = (
  stoppedAfterMs: number | undefined,
): Pick<NavigationResult, "stoppedLoadingAfterMs" | "hint"> =>
  stoppedAfterMs === undefined
    ? {}
    : {
        stoppedLoadingAfterMs: stoppedAfterMs,
        hint: `the page was still loading after ${stoppedAfterMs} ms and was stopped, as pressing Esc does; what it rendered is on screen: call look() to see it`,
      }

/** Loading pages and moving through the tab's history: navigate, back, forward, refresh, currentUrl, title. */
export const makeNavigation = (
  driver: Pick<
    DriverContext,
    | "browser"
    | "channels"
    | "dialogs"
    | "options"
    | "state"
    | "recorded"
    | "currentUrl"
    | "title"
    | "guard"
    | "networkEvents"
  >,
): Pick<BrowserDriverShape, "navigate" | "back" | "forward" | "refresh" | "currentUrl" | "title"> => {
  const { browser, channels, dialogs, options, state, guard, networkEvents } = driver

  // One call for where a navigation ended; Chromium shows its own error page (chrome-error://)
  // instead of failing the command when a site cannot be reached.
  const navigationResult = (method: string, requested?: string) =>
    Effect.gen(function* () {
      const answer = yield* Effect.tryPromise({
        try: () =>
          callFunction(browser, channels, state.context, landedDeclaration, [], {
            direct: dialogs.pending() === undefined,
          }),
        catch: toDriverError(method),
      })
      const [url, pageTitle, errorCode, status] = JSON.parse(String(answer)) as [
        string,
        string,
        string,
        number,
      ]
      if (errorCode !== "") {
        return yield* fail(
          method,
          new NavigationFailed({
            url: requested ?? pageTitle,
            detail: errorCode || "the browser showed its error page",
          }),
        )
      }
      return { url, title: pageTitle, status } satisfies NavigationResult
    })

  const navigate: BrowserDriverShape["navigate"] = Effect.fn("BrowserDriver.navigate")(
    function* (url, navigateOptions) {
      const timeoutMs = navigateOptions?.timeoutMs ?? options.navigationTimeoutMs
      // A user's own WebdriverIO browser may resolve paths against its baseUrl; anything else needs
      // a whole URL, or the browser would guess a host from the word and fail with a DNS error.
      if (!URL.canParse(url) && browser.options.baseUrl === undefined) {
        return yield* fail(
          "navigate",
          new InvalidUrl({
            url,
            action: "open",
            detail: "it is not an absolute URL: give the scheme and host, e.g. http://127.0.0.1:4000/login",
          }),
        )
      }
      for (let attempt = 1; ; attempt++) {
        const { result, retryAfter } = yield* load(url, timeoutMs)
        const status = result.status ?? 0
        const next = nextLoad(status, retryAfter, attempt, options)
        if (next._tag === "Done") return result
        if (next._tag === "GiveUp") {
          return yield* Effect.fail(
            new DriverError({
              method: "navigate",
              reason: new PageStatus({ url, status, attempts: attempt, retryAfterMs: next.retryAfterMs }),
            }),
          )
        }
        yield* Effect.sleep(next.waitMs)
      }
    },
  )

  const navigationFailed = (url: string, timeoutMs: number) => (cause: unknown) => {
    const mapped = toDriverError("navigate", { target: url, timeoutMs })(cause)
    return mapped.reason._tag === "DriverUnknown" || mapped.reason._tag === "InvalidArgument"
      ? new DriverError({
          method: "navigate",
          reason: new NavigationFailed({ url, detail: mapped.reason.message }),
          cause,
        })
      : mapped
  }

  // One load over WebDriver: BiDi answers the navigation's response (through WebdriverIO's network
  // events, when the driver left them on), Classic only the status, read from the page.
  const loadOverWebdriver = (url: string, timeoutMs: number) =>
    Effect.gen(function* () {
      const request = yield* Effect.tryPromise({
        try: () => (networkEvents ? (browser.url(url) as Promise<unknown>) : browser.navigateTo(url)),
        catch: navigationFailed(url, timeoutMs),
      })
      const response = (request as NavigationRequest | undefined)?.response
      const landed = yield* navigationResult("navigate", url)
      return {
        result: { ...landed, status: response?.status ?? landed.status },
        retryAfter: retryAfterMs(headerOf(response?.headers, "retry-after")),
      }
    })

  // One load of `url`: where it landed, with the document's status and Retry-After when the
  // session can read them. The tab's own DevTools socket first, as Playwright loads pages; WebDriver
  // when the tab has none.
  const load = (url: string, timeoutMs: number) =>
    Effect.gen(function* () {
      state.lastSnapshot = undefined
      const sockets = channels.sockets
      const progress = { committed: false }
      // Until the document commits, the tab waits on the server: the hang watch leaves it be.
      state.loading = progress
      // Within the navigation's own limit only: a shorter limit is the caller's to keep.
      const pageLoadWaitMs = options.pageLoadWaitMs < timeoutMs ? options.pageLoadWaitMs : undefined
      // An alert the page opens while it loads answers DialogOpen at once, not after the time limit.
      return yield* dialogs
        .guard(
          "navigate",
          `loading ${url}`,
          timeoutMs,
          Effect.gen(function* () {
            const loaded =
              sockets === undefined
                ? undefined
                : yield* Effect.tryPromise({
                    try: (signal) =>
                      loadOnSocket(sockets, state.context, url, { signal, pageLoadWaitMs, progress }),
                    catch: navigationFailed(url, timeoutMs),
                  })
            if (loaded === undefined) return yield* loadOverWebdriver(url, timeoutMs)
            if (loaded.errorText !== undefined && (loaded.stayed || loaded.landed !== undefined)) {
              // The browser could not load it: it stayed, or shows its error page for the URL.
              return yield* fail(
                "navigate",
                new NavigationFailed({ url, detail: loaded.errorText.replace(/^net::/, "") }),
              )
            }
            const stopped = stoppedLoading(loaded.stoppedAfterMs)
            if (loaded.landed !== undefined && loaded.status !== undefined) {
              return {
                result: { ...loaded.landed, status: loaded.status, ...stopped },
                retryAfter: retryAfterMs(headerOf(loaded.headers, "retry-after")),
              }
            }
            const landed = yield* navigationResult("navigate", url)
            return {
              result: { ...landed, status: loaded.status ?? landed.status, ...stopped },
              retryAfter: retryAfterMs(headerOf(loaded.headers, "retry-after")),
            }
          }),
        )
        .pipe(
          Effect.mapError((error) =>
            // No document came: say so, since waiting longer on the page would not help.
            error.reason._tag === "Timeout" && sockets !== undefined && !progress.committed
              ? new DriverError({
                  method: "navigate",
                  reason: new Timeout({ operation: `loading ${url} (the server did not answer)`, timeoutMs }),
                  cause: error,
                })
              : error,
          ),
          Effect.ensuring(
            Effect.sync(() => {
              if (state.loading === progress) state.loading = undefined
            }),
          ),
        )
    })

  const navigated = (via: "navigate" | "back" | "forward" | "refresh", url?: string) =>
    driver.recorded<NavigationResult>((result) => ({
      kind: "navigate",
      via,
      url: url ?? result.url,
      ...(result.stoppedLoadingAfterMs === undefined
        ? {}
        : { stoppedLoadingAfterMs: result.stoppedLoadingAfterMs }),
    }))

  const history = (method: "back" | "forward" | "refresh") =>
    Effect.gen(function* () {
      state.lastSnapshot = undefined
      yield* Effect.tryPromise({ try: () => browser[method](), catch: toDriverError(method) })
      return yield* navigationResult(method)
    }).pipe(navigated(method), guard(method, options.navigationTimeoutMs + options.commandTimeoutMs))

  return {
    navigate: (url, navigateOptions) =>
      navigate(url, navigateOptions).pipe(
        navigated("navigate", url),
        guard(
          "navigate",
          (options.statusRetries + 1) *
            ((navigateOptions?.timeoutMs ?? options.navigationTimeoutMs) + options.commandTimeoutMs) +
            options.statusRetries * options.maxRetryAfterMs,
        ),
      ),
    back: history("back"),
    forward: history("forward"),
    refresh: history("refresh"),
    currentUrl: driver.currentUrl.pipe(guard("currentUrl")),
    title: driver.title.pipe(guard("title")),
  }
}
