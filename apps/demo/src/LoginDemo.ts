import { FIXTURE_USERS, startFixtureSite } from "@sextant/fixture-site"
import { type LaunchOptions, launchPageAgent, type PageAgent } from "@sextant/webdriverio"

/** What the login demo saw, for printing and for its test. */
export interface LoginDemoReport {
  readonly siteUrl: string
  readonly loginOutline: string
  readonly steps: ReadonlyArray<{
    readonly call: string
    readonly hint: string
    readonly signals: ReadonlyArray<string>
  }>
  readonly finalUrl: string
  readonly finalOutline: string
}

export interface LoginDemoOptions {
  readonly seed?: number
  readonly launch?: LaunchOptions
  readonly log?: (line: string) => void
}

const refOf = async (agent: PageAgent, role: string, name: RegExp): Promise<string> => {
  const look = await agent.look()
  if (!("actions" in look)) throw new Error(`look() failed: ${JSON.stringify(look)}`)
  const action = look.actions.find((candidate) => candidate.role === role && name.test(candidate.name))
  if (action === undefined) throw new Error(`the page shows no ${role} named ${name}; outline:\n${look.tree}`)
  return action.ref
}

/**
 * Starts the fixture site, opens it in headless Chromium through WebdriverIO, logs in through the agent
 * API (look, then act on the refs look gave) and reports what it saw at each step.
 */
export const runLoginDemo = async (options: LoginDemoOptions = {}): Promise<LoginDemoReport> => {
  const log = options.log ?? (() => {})
  const site = await startFixtureSite({ port: 0, seed: options.seed ?? 0 })
  try {
    await using agent = await launchPageAgent(options.launch ?? {})
    const user = FIXTURE_USERS[0]!
    const opened = await agent.go(`${site.url}/login`)
    if (!opened.ok) throw new Error(`could not open the login page: ${opened.error}`)
    const first = await agent.look()
    if (!("tree" in first)) throw new Error(`look() failed: ${first.error}`)
    log(`look() of ${first.url}:\n${first.tree}`)

    const steps: Array<LoginDemoReport["steps"][number]> = []
    const act = async (role: string, name: RegExp, op: "input" | "click", value?: string, shown?: string) => {
      const ref = await refOf(agent, role, name)
      const result = await agent.act(ref, op, value)
      if (!result.ok) throw new Error(`act(${ref}, ${op}) failed: ${result.error}`)
      const call = `act(${ref}, "${op}"${shown === undefined ? "" : `, ${shown}`})`
      steps.push({ call, hint: result.hint, signals: result.signals })
      log(`${call} → ${result.hint}${result.signals.length > 0 ? ` [${result.signals.join(", ")}]` : ""}`)
    }
    await act("textbox", /e-?mail/i, "input", user.email, JSON.stringify(user.email))
    await act("textbox", /password/i, "input", user.password, '"<secret:password>"')
    await act("button", /sign in|log in/i, "click")

    const final = await agent.look()
    if (!("tree" in final)) throw new Error(`look() failed: ${final.error}`)
    log(`look() of ${final.url}:\n${final.tree}`)
    return {
      siteUrl: site.url,
      loginOutline: first.tree,
      steps,
      finalUrl: final.url,
      finalOutline: final.tree,
    }
  } finally {
    await site.close()
  }
}
