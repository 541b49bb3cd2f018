import {
  type BlockedRequest,
  type BrowserDriverShape,
  InvalidArgument,
  type SecretGuardOptions,
  secretIndexIn,
} from "@sextant/core"
import { Effect } from "effect"
import { toDriverError } from "../DriverErrors.ts"
import { BROWSER_ENDPOINT, type DevtoolsEvent, type DevtoolsSockets } from "./DevtoolsSocket.ts"
import { fail } from "./Fail.ts"

/** Sends one DevTools command to one tab, on its own socket or its session on the browser's. */
type TabSend = (method: string, params: Record<string, unknown>) => Promise<unknown>

/**
 * Every request of the tab pauses before it is sent (request stage), redirects' next hops included:
 * Chromium pauses each hop as a new request whose `redirectedRequestId` names the one redirected.
 */
const FETCH_ENABLE = { patterns: [{ urlPattern: "*", requestStage: "Request" }] }

/** How many paused requests' origins are kept to name where a redirect came from. */
const REMEMBERED_REQUESTS = 200

/** The secret request guard of one driver: {@link makeSecretGuard}. */
export interface SecretGuard {
  readonly guardSecrets: NonNullable<BrowserDriverShape["guardSecrets"]>
  /**
   * Makes a tab the browser holds before its first script (a popup, a link to a new tab) pause its
   * requests too, while a guard is in force. Call before letting it run: commands on one session
   * are handled in order, so its first request is already inspected.
   */
  readonly holdNewTab: (
    targetId: string,
    send: TabSend,
    sessionId: string,
    alsoRefuses?: (params: Record<string, unknown>) => boolean,
  ) => void
  /** Whether the guard answers the paused requests of this tab (then no other module may). */
  readonly holds: (targetId: string) => boolean
  /**
   * Whether a guard is in force: then every request of every tab pauses (all resource types), and a
   * module that pauses some requests itself on the same session must not narrow the patterns
   * (`Fetch.enable` again) or switch pausing off (`Fetch.disable`) while it holds.
   */
  readonly active: () => boolean
  /**
   * Whether a paused request (`Fetch.requestPaused` params) carries a secret to another origin; one
   * that does is recorded for `blocked`. For a module that answers the paused requests of a session
   * itself: it fails the request (`BlockedByClient`) when this says so, whatever it would have done.
   */
  readonly blocks: (params: Record<string, unknown>) => boolean
}

interface PausedRequest {
  readonly requestId: string
  readonly resourceType?: string
  readonly redirectedRequestId?: string
  readonly request: {
    readonly url: string
    readonly method: string
    readonly headers?: Record<string, string>
    readonly postData?: string
    readonly hasPostData?: boolean
    readonly postDataEntries?: ReadonlyArray<{ readonly bytes?: string }>
  }
}

const originOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : parsed.protocol
  } catch {
    return "(not a URL)"
  }
}

const bodyOf = (request: PausedRequest["request"]): string | undefined => {
  if (request.postData !== undefined) return request.postData
  const entries = request.postDataEntries ?? []
  if (entries.length > 0) {
    return entries.map((entry) => Buffer.from(entry.bytes ?? "", "base64").toString("utf8")).join("")
  }
  // A body the browser does not show (a large upload) cannot be read: it is taken to carry the secret.
  return request.hasPostData === true ? undefined : ""
}

/**
 * Builds the request guard of a driver whose tabs' DevTools sockets stand in for BiDi (a Chromium
 * Sextant launched, the default): Chrome DevTools `Fetch.enable` with a request-stage pattern on every
 * open tab's socket and on every tab the browser opens while a guard is in force, so each request
 * (navigation, form post, `fetch`/XHR, beacon, each redirect hop) pauses until it is inspected; one
 * that carries a secret to an origin the secrets are not bound to is failed (`BlockedByClient`)
 * and never leaves the browser. Without such sockets (a BiDi session, a remote grid) it refuses.
 */
export const makeSecretGuard = (driver: {
  readonly browser: WebdriverIO.Browser
  readonly sockets: DevtoolsSockets | undefined
  readonly tabEvents: boolean
}): SecretGuard => {
  const { browser, sockets } = driver
  const guards = new Set<{ readonly options: SecretGuardOptions; readonly blocked: Array<BlockedRequest> }>()
  // Tabs whose requests pause, by target id: how to answer them, and how to stop.
  const tabs = new Map<string, { readonly send: TabSend; readonly stop: () => void }>()
  const origins = new Map<string, string>()

  // Whether the paused request carries a secret to another origin; one that does is recorded.
  const blocks = (paused: PausedRequest): boolean => {
    const { request } = paused
    const origin = originOf(request.url)
    origins.set(paused.requestId, origin)
    if (origins.size > REMEMBERED_REQUESTS) origins.delete(origins.keys().next().value as string)
    for (const guard of guards) {
      if (guard.options.origins.includes(origin)) continue
      const values = guard.options.values
      const body = bodyOf(request)
      const headers = Object.values(request.headers ?? {}).join("\n")
      const inUrl = secretIndexIn(request.url, values)
      const inBody = body === undefined ? 0 : secretIndexIn(body, values)
      const inHeader = secretIndexIn(headers, values)
      const secret = inUrl ?? inBody ?? inHeader
      if (secret === undefined) continue
      guard.blocked.push({
        origin,
        method: request.method,
        carriedIn: inUrl !== undefined ? "url" : inBody !== undefined ? "body" : "header",
        resourceType: paused.resourceType ?? "Other",
        redirectedFrom:
          paused.redirectedRequestId === undefined ? undefined : origins.get(paused.redirectedRequestId),
        secret,
      })
      return true
    }
    return false
  }

  const inspect = (
    paused: PausedRequest,
    send: TabSend,
    alsoRefuses?: (params: Record<string, unknown>) => boolean,
  ) => {
    if (blocks(paused) || alsoRefuses?.(paused as unknown as Record<string, unknown>) === true)
      void send("Fetch.failRequest", { requestId: paused.requestId, errorReason: "BlockedByClient" })
    else void send("Fetch.continueRequest", { requestId: paused.requestId })
  }

  const onEvent =
    (send: TabSend, alsoRefuses?: (params: Record<string, unknown>) => boolean) => (event: DevtoolsEvent) => {
      if (event.method === "Fetch.requestPaused")
        inspect(event.params as unknown as PausedRequest, send, alsoRefuses)
    }

  const holdTab = (targetId: string) => {
    if (sockets === undefined || tabs.has(targetId)) return Promise.resolve()
    const send: TabSend = (method, params) => sockets.send(targetId, method, params)
    const stop = sockets.listen(targetId, onEvent(send))
    tabs.set(targetId, { send, stop })
    return sockets.send(targetId, "Fetch.enable", FETCH_ENABLE)
  }

  const holdNewTab: SecretGuard["holdNewTab"] = (targetId, send, sessionId, alsoRefuses) => {
    if (guards.size === 0 || sockets === undefined || tabs.has(targetId)) return
    const listener = onEvent(send, alsoRefuses)
    const stop = sockets.listen(BROWSER_ENDPOINT, (event) => {
      if (event.sessionId === sessionId) listener(event)
    })
    tabs.set(targetId, { send, stop })
    void send("Fetch.enable", FETCH_ENABLE)
  }

  const release = () =>
    Effect.promise(async () => {
      if (guards.size > 0) return
      const held = [...tabs.values()]
      tabs.clear()
      for (const tab of held) tab.stop()
      // A closed tab answers nothing: each disable is best effort.
      await Promise.all(held.map((tab) => tab.send("Fetch.disable", {}).catch(() => undefined)))
    }).pipe(Effect.timeout("2 seconds"), Effect.ignore)

  const guardSecrets: SecretGuard["guardSecrets"] = (options) =>
    Effect.gen(function* () {
      if (!driver.tabEvents || sockets === undefined) {
        return yield* fail(
          "guardSecrets",
          new InvalidArgument({
            detail:
              "guarding requests needs the tabs' Chrome DevTools sockets of a Chromium Sextant launched without BiDi (the default launch); this session has none (a BiDi session or a remote endpoint): launch with bidi off to guard secrets",
          }),
        )
      }
      const handles = yield* Effect.tryPromise({
        try: () => browser.getWindowHandles(),
        catch: toDriverError("guardSecrets"),
      })
      const guard = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const made = { options, blocked: [] as Array<BlockedRequest> }
          guards.add(made)
          return made
        }),
        (made) =>
          Effect.andThen(
            Effect.sync(() => guards.delete(made)),
            release(),
          ),
      )
      const enabled = yield* Effect.promise(() => Promise.all(handles.map(holdTab)))
      if (enabled.some((answer) => answer === undefined)) {
        return yield* fail(
          "guardSecrets",
          new InvalidArgument({
            detail:
              "a tab did not accept request interception (Fetch.enable): the requests of this session cannot be guarded; close other tabs or start a new session",
          }),
        )
      }
      return { blocked: Effect.sync(() => guard.blocked.splice(0)) }
    })

  return {
    guardSecrets,
    holdNewTab,
    holds: (targetId) => tabs.has(targetId),
    active: () => guards.size > 0,
    blocks: (params) => blocks(params as unknown as PausedRequest),
  }
}
