import {
  type BrowserDriverShape,
  causeMessage,
  decodeAgentTask,
  type PageSnapshot,
  type SecretRequestGuard,
  type TaskConstraints,
  type UploadDirsShape,
} from "@sextant/core"
import {
  type GuardrailOptions,
  type Guardrails,
  guardSecretRequests,
  makeGuardrails,
  makeRedactor,
  type Redactor,
} from "@sextant/executor"
import type { PlannerShape, StepPolicyShape } from "@sextant/planner"
import { launch, makeDriver, sharedSession } from "@sextant/webdriverio"
import { Cause, Effect, Exit, Scope } from "effect"
import { mcpSettingNames, type ServerOptions, secretVariable } from "../ServerOptions.ts"
import { makeSessionDriver, type SessionNotice, takeBlockedRequests } from "./SessionDriver.ts"

/**
 * The state of one MCP client: its browser (launched on the first call that needs it and closed when the
 * client goes), the guardrails counting its quotas, the redactor hiding its secrets, and the last
 * snapshot, so `look` can answer only what changed and `act` can see what a ref points at.
 */
export interface ClientSession {
  readonly options: ServerOptions
  readonly constraints: TaskConstraints
  /** The session's quotas: look/act/go and every `run` of the session count against the same ones. */
  readonly quotas: TaskConstraints["quotas"]
  readonly guardrails: Guardrails
  readonly redactor: Redactor
  /** Secret values by name (for `run` inputs). */
  readonly secrets: Readonly<Record<string, string>>
  /**
   * The origins secrets are bound to, known before any call: `secretOrigins`, else the allowed origins.
   * Undefined when neither is configured: typing a secret is then refused.
   */
  readonly secretOrigins: ReadonlyArray<string> | undefined
  /**
   * Where `act` may upload files from: `allowUploadDirs` (with any `constraints.allowedUploadDirs`), and
   * the flag a refusal names (`--allow-upload-dir DIR`). A `run` reads the same folders from `constraints`.
   */
  readonly uploadDirs: UploadDirsShape
  /** Set once a secret was typed in this session: presses and clicks then check where their form posts. */
  secretTyped: boolean
  /**
   * The browser's request guard (`guardSecretRequests`), armed when the browser starts if the session
   * has secrets bound to origins, and released when the session closes.
   */
  secretGuard: SecretRequestGuard | undefined
  /** The strict guard armed before the first secret is typed (`strictAfterSecret`), until the session closes. */
  strictGuard: SecretRequestGuard | undefined
  /** Arms `strictGuard` once; nothing when the option is off or the browser has not started. */
  readonly armStrictGuard: Effect.Effect<void>
  /** For each secret a blocked request carried, that request in words: the session never types it again. */
  readonly secretsBlocked: Map<string, string>
  /** What the next tool answer tells the client besides its own result (see `takeNotices`). */
  readonly notices: Array<SessionNotice>
  /** Who plans the goals of `run` when no step policy decides them. */
  readonly planner: PlannerShape
  /** Who decides the steps of `run`, one at a time on the page; undefined: `planner` plans them first. */
  readonly stepPolicy: StepPolicyShape | undefined
  /** The browser, launched on first use, behind the secret rule (see `makeSessionDriver`). */
  readonly driver: () => Promise<BrowserDriverShape>
  /** The browser as a `run` gets it: the same rule, and each navigation, click and submission charged to the session's quotas. */
  readonly runDriver: () => Promise<BrowserDriverShape>
  /** Runs an effect of the browser and turns a typed failure into a rejection with that error. */
  readonly call: <A, E>(use: (driver: BrowserDriverShape) => Effect.Effect<A, E>) => Promise<A>
  lastSnapshot: PageSnapshot | undefined
  /** The process ids of this session's ChromeDriver and Chromium while its browser is open; empty otherwise. */
  readonly browserProcesses: () => ReadonlyArray<number>
  readonly close: () => Promise<void>
}

/** The guardrail options of a session and of its runs: refusals name the flags of `sextant mcp`. */
export const guardrailOptions = (options: ServerOptions): GuardrailOptions => ({
  settingNames: mcpSettingNames,
  ...(options.allowDestructive ? { blockedPatterns: [] } : {}),
})

/** Reads the secrets' values: given ones first, then the environment; a missing one is an error naming its variable. */
export const readSecrets = (options: ServerOptions): Record<string, string> => {
  const values: Record<string, string> = {}
  for (const name of options.secrets) {
    const value = options.secretValues?.[name] ?? process.env[secretVariable(name)]
    if (value === undefined || value === "") {
      throw new TypeError(`secret ${name}: set ${secretVariable(name)} to its value`)
    }
    values[name] = value
  }
  return values
}

export const makeClientSession = (
  options: ServerOptions,
  planner: PlannerShape,
  stepPolicy?: StepPolicyShape,
): ClientSession => {
  const secrets = readSecrets(options)
  const task = Effect.runSync(
    decodeAgentTask({
      goal: "serve an MCP client",
      inputs: secrets,
      secretInputs: Object.keys(secrets),
      constraints: {
        ...options.constraints,
        allowedUploadDirs: [...options.allowUploadDirs, ...(options.constraints.allowedUploadDirs ?? [])],
      },
    }),
  )
  // The session goes wherever the client asks within the allowed origins; a `run` keeps to its start origin.
  const guardrails = makeGuardrails(task, { ...guardrailOptions(options), restrictToStartOrigin: false })
  const redactor = makeRedactor(task)
  let started:
    | Promise<{ driver: BrowserDriverShape; scope: Scope.Closeable; processes: ReadonlyArray<number> }>
    | undefined
  let processes: ReadonlyArray<number> = []
  let closed = false
  let strictArmed = false

  // Armed once, in the browser's scope, so it lasts until the session closes.
  const armStrictGuard = Effect.promise(async () => {
    const origins = session.secretOrigins ?? []
    if (strictArmed || !options.strictAfterSecret || started === undefined || origins.length === 0) return
    strictArmed = true
    const { driver, scope } = await started
    const armed = await Effect.runPromise(
      Scope.provide(
        guardSecretRequests(driver, { values: Object.values(secrets), origins, strict: true }),
        scope,
      ),
    )
    if ("guard" in armed) session.strictGuard = armed.guard
    // A session whose requests cannot be guarded was told so when its browser started.
  })

  const start = async () => {
    const scope = await Effect.runPromise(Scope.make())
    try {
      const { driver, launched } = await Effect.runPromise(
        Scope.provide(
          Effect.flatMap(
            options.shareBrowser ? sharedSession(options.browser) : launch(options.browser),
            (launched) => Effect.map(makeDriver(launched), (driver) => ({ driver, launched })),
          ),
          scope,
        ),
      )
      processes = [launched.chromedriverPid, launched.browserPid].filter(
        (pid): pid is number => pid !== undefined,
      )
      // One policy for every entry point: besides the checks before typing, the browser fails any
      // request that carries a secret elsewhere (a 307 hop, an action swapped on submit, a beacon)
      // for as long as the session's browser lives.
      const origins = session.secretOrigins ?? []
      if (Object.keys(secrets).length > 0 && origins.length > 0) {
        const armed = await Effect.runPromise(
          Scope.provide(guardSecretRequests(driver, { values: Object.values(secrets), origins }), scope),
        )
        if ("guard" in armed) session.secretGuard = armed.guard
        else {
          session.notices.push({
            text: `requests are not guarded: ${armed.missing}; a page that sends a typed secret elsewhere on submit or by redirect is not stopped`,
            blocked: false,
          })
        }
      }
      return { driver, scope, processes }
    } catch (error) {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      throw error
    }
  }

  const browser = () => {
    if (closed) return Promise.reject(new Error("the session is closed: start a new MCP session"))
    started ??= start()
    return started.then((value) => value.driver)
  }
  const driver = async () => makeSessionDriver(await browser(), session, false)

  const session: ClientSession = {
    options,
    constraints: task.constraints,
    quotas: task.constraints.quotas,
    guardrails,
    redactor,
    secrets,
    secretOrigins:
      options.secretOrigins ?? options.constraints.allowedOrigins?.map((origin) => new URL(origin).origin),
    uploadDirs: {
      allowed: task.constraints.allowedUploadDirs,
      setting: mcpSettingNames.allowedUploadDirs,
    },
    secretTyped: false,
    secretGuard: undefined,
    strictGuard: undefined,
    armStrictGuard,
    secretsBlocked: new Map(),
    notices: [],
    planner,
    stepPolicy,
    driver,
    runDriver: async () => makeSessionDriver(await browser(), session, true),
    call: async (use) => {
      const exit = await Effect.runPromiseExit(use(await driver()))
      if (Exit.isSuccess(exit)) return exit.value
      throw Cause.squash(exit.cause)
    },
    lastSnapshot: undefined,
    close: async () => {
      if (closed) return
      closed = true
      session.secretGuard = undefined
      session.strictGuard = undefined
      const running = started
      started = undefined
      if (running === undefined) return
      const value = await running.catch(() => undefined)
      if (value !== undefined) await Effect.runPromise(Scope.close(value.scope, Exit.void))
      processes = []
    },
    browserProcesses: () => processes,
  }
  return session
}

/** A guardrail's refusal in words, or the error's own message. */
export const describeError = (error: unknown): string => causeMessage(error)

/**
 * What the client must hear besides a tool's own answer, once: the requests the guard blocked since the
 * last answer (each names the origin and the secret, never the URL) and a session whose requests are
 * not guarded.
 */
export const takeNotices = async (session: ClientSession): Promise<ReadonlyArray<SessionNotice>> => {
  await Effect.runPromise(takeBlockedRequests(session))
  return session.notices.splice(0)
}
