import {
  AgentError,
  type BrowserDriverShape,
  decodeAgentTask,
  type PageSnapshot,
  type TaskConstraints,
} from "@sextant/core"
import { type Guardrails, makeGuardrails, makeRedactor, type Redactor } from "@sextant/executor"
import type { PlannerShape } from "@sextant/planner"
import { launch, makeDriver } from "@sextant/webdriverio"
import { Cause, Effect, Exit, Scope } from "effect"
import { type ServerOptions, secretVariable } from "../ServerOptions.ts"

/**
 * The state of one MCP client: its browser (launched on the first call that needs it and closed when the
 * client goes), the guardrails counting its quotas, the redactor hiding its secrets, and the last
 * snapshot, so `look` can answer only what changed and `act` can see what a ref points at.
 */
export interface ClientSession {
  readonly options: ServerOptions
  readonly constraints: TaskConstraints
  readonly guardrails: Guardrails
  readonly redactor: Redactor
  /** Secret values by name (for `run` inputs). */
  readonly secrets: Readonly<Record<string, string>>
  /** Who plans the goals of `run`. */
  readonly planner: PlannerShape
  /** The browser, launched on first use. */
  readonly driver: () => Promise<BrowserDriverShape>
  /** Runs an effect of the browser and turns a typed failure into a rejection with that error. */
  readonly call: <A, E>(use: (driver: BrowserDriverShape) => Effect.Effect<A, E>) => Promise<A>
  lastSnapshot: PageSnapshot | undefined
  readonly close: () => Promise<void>
}

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

export const makeClientSession = (options: ServerOptions, planner: PlannerShape): ClientSession => {
  const secrets = readSecrets(options)
  const task = Effect.runSync(
    decodeAgentTask({
      goal: "serve an MCP client",
      inputs: secrets,
      secretInputs: Object.keys(secrets),
      constraints: options.constraints,
    }),
  )
  const guardrails = makeGuardrails(task, { restrictToStartOrigin: false })
  const redactor = makeRedactor(task)
  let started: Promise<{ driver: BrowserDriverShape; scope: Scope.Closeable }> | undefined
  let closed = false

  const start = async () => {
    const scope = await Effect.runPromise(Scope.make())
    try {
      const driver = await Effect.runPromise(
        Scope.provide(
          Effect.flatMap(launch(options.browser), (session) => makeDriver(session)),
          scope,
        ),
      )
      return { driver, scope }
    } catch (error) {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      throw error
    }
  }

  const driver = () => {
    if (closed) return Promise.reject(new Error("the session is closed"))
    started ??= start()
    return started.then((value) => value.driver)
  }

  const session: ClientSession = {
    options,
    constraints: task.constraints,
    guardrails,
    redactor,
    secrets,
    planner,
    driver,
    call: async (use) => {
      const exit = await Effect.runPromiseExit(use(await driver()))
      if (Exit.isSuccess(exit)) return exit.value
      throw Cause.squash(exit.cause)
    },
    lastSnapshot: undefined,
    close: async () => {
      if (closed) return
      closed = true
      const running = started
      started = undefined
      if (running === undefined) return
      const value = await running.catch(() => undefined)
      if (value !== undefined) await Effect.runPromise(Scope.close(value.scope, Exit.void))
    },
  }
  return session
}

/** A guardrail's refusal in words, or the error's own message. */
export const describeError = (error: unknown): string => {
  if (error instanceof AgentError) return error.message
  if (error instanceof Error) return error.message
  return String(error)
}
