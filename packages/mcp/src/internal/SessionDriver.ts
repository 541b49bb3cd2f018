import {
  ActOrigins,
  type ActResult,
  type ActValue,
  type BlockedRequest,
  type BrowserDriverShape,
  DriverError,
  formatTarget,
  InvalidArgument,
  type NavigationResult,
  OriginRefused,
  type SecretRequestGuard,
  type Target,
  type TaskConstraints,
} from "@sextant/core"
import { checkSecretDestination, type Guardrails, type Redactor, type StepCharge } from "@sextant/executor"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { mcpSettingNames } from "../ServerOptions.ts"

/** The flags (and options) that bind secrets to origins, named in every refusal. */
export const secretSetting =
  "--secret-origin (option secretOrigins) or --allowed-origin (constraints.allowedOrigins)"

/** What the guards of a session's driver read and write. */
export interface SessionGuardState {
  /** Secret values by name. */
  readonly secrets: Readonly<Record<string, string>>
  /** The origins secrets are bound to; undefined when none is configured (typing a secret is refused). */
  readonly secretOrigins: ReadonlyArray<string> | undefined
  /** The session's guardrails: the quotas every call of the session counts against. */
  readonly guardrails: Guardrails
  /** The session's quotas. */
  readonly quotas: TaskConstraints["quotas"]
  /** Set once a secret was typed in the session. */
  secretTyped: boolean
  /**
   * The browser's request guard, armed for the session's lifetime when it has secrets bound to origins;
   * undefined before the browser starts, or when the driver cannot guard requests.
   */
  secretGuard: SecretRequestGuard | undefined
  /**
   * The strict guard armed before the first secret is typed (`strictAfterSecret`): from then on only the
   * secrets' origins may be reached. Undefined before, when the option is off, or when it cannot be armed.
   */
  strictGuard: SecretRequestGuard | undefined
  /** Arms {@link strictGuard} (once, before a secret is typed); a session that cannot guard says so in a notice. */
  readonly armStrictGuard: Effect.Effect<void>
  /** For each secret a blocked request carried, that request in words: the session never types it again. */
  readonly secretsBlocked: Map<string, string>
  /** What the next tool answer must tell the client (blocked requests, an unguarded session), oldest first. */
  readonly notices: Array<SessionNotice>
  /** The session's redactor: it learns the credentials of every page URL the browser reports (`learnUrl`). */
  readonly redactor: Pick<Redactor, "learnUrl">
}

/** A line the next tool answer adds; `blocked` when it reports a request the guard blocked (the answer is then an error). */
export interface SessionNotice {
  readonly text: string
  readonly blocked: boolean
}

/** A request the browser blocked, in words: where it went and which secret it carried, never its URL. */
export const blockedRequestText = (request: BlockedRequest, secret: string): string =>
  `a ${request.resourceType} ${request.method} request to ${request.origin}${request.redirectedFrom === undefined ? "" : ` (a redirect from ${request.redirectedFrom})`} carrying ${secret} in its ${request.carriedIn} was blocked before it left the browser`

/**
 * Reads the requests the guard blocked since the last call: each becomes a notice for the next answer,
 * and the secret it carried is never typed again in the session.
 */
export const takeBlockedRequests = (state: SessionGuardState): Effect.Effect<void> =>
  Effect.forEach(
    [state.secretGuard, state.strictGuard].filter((guard) => guard !== undefined),
    (guard) =>
      Effect.map(guard.blocked, (blocked) => {
        const names = Object.keys(state.secrets)
        for (const request of blocked) {
          const name = names[request.secret]
          const secret = name === undefined ? "a secret" : `<secret:${name}>`
          const said = blockedRequestText(request, secret)
          state.notices.push({
            text: `${said}: this session will not type ${secret} again; start a new MCP session to use it once the page is trusted`,
            blocked: true,
          })
          if (name !== undefined && !state.secretsBlocked.has(name)) state.secretsBlocked.set(name, said)
        }
      }),
    { discard: true },
  )

const refuse = (detail: string) => new DriverError({ method: "act", reason: new InvalidArgument({ detail }) })

/** The names of the secrets whose values `value` holds. */
const secretsIn = (state: SessionGuardState, value: ActValue | undefined): ReadonlyArray<string> => {
  const texts = typeof value === "string" ? [value] : Array.isArray(value) ? value : []
  return Object.entries(state.secrets)
    .filter(([, secret]) => texts.some((text) => text.includes(secret)))
    .map(([name]) => name)
}

const clickingOps: ReadonlyArray<string> = ["click", "check", "uncheck"]

/**
 * Wraps a session's browser with the secret rule of every Sextant entry point, applied to whoever types
 * (the `act` tool, or a `run`'s steps):
 * - a secret is typed only when the session binds secrets to origins, only after
 *   `checkSecretDestination` found the page, the field's document and its form's action on them, and
 *   with `ActOrigins` set so the driver checks again in the page as it types;
 * - once a secret was typed in the session, a press or a click in a form whose action is on another
 *   origin is refused before it is sent;
 * - a secret a request blocked by the session's request guard carried is never typed again.
 * With `counted` (a `run`), every navigation, click and submission is charged to the session's quotas,
 * and refused once they are used up, so a run never starts the quotas afresh.
 */
export const makeSessionDriver = (
  inner: BrowserDriverShape,
  state: SessionGuardState,
  counted: boolean,
): BrowserDriverShape => {
  const charge = (method: string, wanted: StepCharge): Effect.Effect<void, DriverError> => {
    if (!counted) return Effect.void
    const used = state.guardrails.counts()
    const quotas = state.quotas
    const exhausted =
      wanted.navigates && used.navigations >= quotas.navigations
        ? `the session's navigation quota of ${quotas.navigations} is used up: start a new MCP session, or the server with a higher ${mcpSettingNames.navigations}`
        : wanted.clicks && used.clicks >= quotas.clicks
          ? `the session's click quota of ${quotas.clicks} is used up: start a new MCP session, or the server with a higher ${mcpSettingNames.clicks}`
          : undefined
    return exhausted === undefined
      ? Effect.void
      : Effect.fail(
          new DriverError({
            method,
            reason: new InvalidArgument({
              detail: exhausted,
            }),
          }),
        )
  }
  const counting = <A extends NavigationResult>(
    method: string,
    move: Effect.Effect<A, DriverError>,
  ): Effect.Effect<A, DriverError> =>
    counted
      ? Effect.gen(function* () {
          yield* charge(method, { navigates: true, clicks: false, submits: false })
          const landed = yield* move
          state.guardrails.commit({ navigates: true, clicks: false, submits: false })
          return landed
        })
      : move

  const secretCheck = (target: Target, names: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const secret = names.map((name) => `<secret:${name}>`).join(", ")
      yield* takeBlockedRequests(state)
      const blocked = names.find((name) => state.secretsBlocked.has(name))
      if (blocked !== undefined) {
        return yield* refuse(
          `<secret:${blocked}> was not typed: earlier in this session ${state.secretsBlocked.get(blocked)}, so the session never types it again; start a new MCP session to use it once the page is trusted`,
        )
      }
      const bound = state.secretOrigins
      if (bound === undefined || bound.length === 0) {
        return yield* refuse(
          `${secret} was not typed: secrets are bound to no origin; start the server with ${secretSetting} naming the origins that may receive them`,
        )
      }
      const problem = yield* checkSecretDestination(inner, {
        allowed: bound,
        field: "ref" in target ? { ref: target.ref } : { selector: target.selector },
        actor: "act",
        secret,
        setting: secretSetting,
      })
      if (problem !== undefined) return yield* refuse(problem)
      // Before the keys go in, as a run does: from now on the page may reach only the secrets' origins.
      yield* state.armStrictGuard
      // The driver checks again in the page as it types; a check set by the caller (a run's) still holds.
      const outer = (yield* ActOrigins).typing
      state.secretTyped = true
      return outer === undefined ? bound : bound.filter((origin) => outer.includes(origin))
    })

  const submitCheck = (target: Target, op: string) =>
    Effect.gen(function* () {
      const bound = state.secretOrigins ?? []
      // Where the press or click would send its form, read in the live page (perception's `formAction`).
      const found = yield* pageCall(inner, "formAction", target, op === "press")
      if (found.unresolved === true) {
        return yield* refuse(
          `${formatTarget(target)} could not be found to check where its form posts after a secret was typed: call look() and try again`,
        )
      }
      if (found.action !== undefined && !bound.includes(found.action)) {
        return yield* new DriverError({
          method: "act",
          reason: new OriginRefused({ target: formatTarget(target), origin: found.action, allowed: bound }),
        })
      }
    })

  const act = (target: Target, op: Parameters<BrowserDriverShape["act"]>[1], value?: ActValue) =>
    Effect.gen(function* () {
      const names = op === "input" ? secretsIn(state, value) : []
      const typing = names.length > 0 ? yield* secretCheck(target, names) : undefined
      if (state.secretTyped && (op === "press" || clickingOps.includes(op))) yield* submitCheck(target, op)
      const clicks = clickingOps.includes(op)
      if (clicks) yield* charge("act", { navigates: false, clicks: true, submits: false })
      const acted = inner.act(target, op, value)
      const result: ActResult = yield* typing === undefined
        ? acted
        : acted.pipe(Effect.provideService(ActOrigins, { typing }))
      if (counted) {
        state.guardrails.commit({
          navigates: false,
          clicks,
          submits: result.signals.includes("FormSubmitted"),
        })
      }
      return result
    })

  // A token a site put in the URL of a page the session reached (`?session_token=`, `#access_token=`) is
  // hidden from every answer from then on, as a run's trace hides it: each URL the browser reports is
  // learned here, before any answer can show it.
  const learning = <A extends { readonly url: string }, E>(
    reported: Effect.Effect<A, E>,
  ): Effect.Effect<A, E> =>
    Effect.tap(reported, (value) => Effect.sync(() => state.redactor.learnUrl(value.url)))

  return {
    ...inner,
    act: (target, op, value) => learning(act(target, op, value)),
    look: (options) => learning(inner.look(options)),
    currentUrl: Effect.tap(inner.currentUrl, (url) => Effect.sync(() => state.redactor.learnUrl(url))),
    navigate: (url, options) => learning(counting("navigate", inner.navigate(url, options))),
    back: learning(counting("back", inner.back)),
    forward: learning(counting("forward", inner.forward)),
    refresh: learning(counting("refresh", inner.refresh)),
    tabs: Effect.tap(inner.tabs, (tabs) =>
      Effect.sync(() => {
        for (const tab of tabs) state.redactor.learnUrl(tab.url)
      }),
    ),
    switchTab: (handle) => learning(inner.switchTab(handle)),
  }
}
