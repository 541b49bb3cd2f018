import type { Page } from "playwright-core"
import type { WebdriverBrowser } from "./Browsers.ts"
import { type Contender, interleave, type RunPlan } from "./Measure.ts"
import { isMissing, type Missing, type SextantSession } from "./Sextant.ts"
import { median, type Summary } from "./Stats.ts"

/** The page the action section runs on: a text input, a select and a button that does not navigate. */
export const ACTION_PAGE = "/forms/contact"

/**
 * CSS selectors that hold for every seed. The click goes to "Send message" while the message is
 * empty, so the page's own validation stops the submit and the page stays put.
 */
export const ACTION_SELECTORS = {
  click: 'form[aria-label="Contact"] button[type="submit"]',
  fill: 'input[name="name"]',
  select: 'select[name="topic"]',
} as const

const TOPICS = ["Support", "Sales", "Feedback"] as const

/** One action measured three ways on the same page. */
export interface ActionResult {
  readonly action: "click" | "fill" | "select"
  readonly sextant: Summary | Missing
  /** WebDriver requests per act() (HTTP commands plus BiDi messages), median and maximum. */
  readonly sextantRequests: { readonly median: number; readonly max: number } | Missing
  readonly playwright: Summary
  readonly webdriverio: Summary
}

const refOf = async (session: SextantSession, role: string, name: string): Promise<string> => {
  const snapshot = await session.look("full")
  const element = Object.values(snapshot.elements).find(
    (candidate) => candidate.role === role && candidate.name.trim() === name,
  )
  if (element === undefined) {
    throw new Error(`look() on ${ACTION_PAGE} shows no ${role} "${name}"; its outline was:\n${snapshot.tree}`)
  }
  return element.ref
}

const expectOk = (what: string, result: { readonly ok: boolean; readonly hint: string }) => {
  if (!result.ok) throw new Error(`act() ${what} answered ok=false: ${result.hint}`)
}

/**
 * Click, fill and select through Sextant's act() (by ref, as an agent calls it), Playwright's locator
 * actions and plain WebdriverIO commands (`$(selector)` found each time), round by round.
 */
export const measureActions = async (
  base: string,
  plan: RunPlan,
  playwright: Page,
  webdriverio: WebdriverBrowser,
  sextant: SextantSession | Missing,
): Promise<ReadonlyArray<ActionResult>> => {
  const url = `${base}${ACTION_PAGE}`
  await playwright.goto(url, { waitUntil: "load" })
  await webdriverio.url(url)
  let refs: { click: string; fill: string; select: string } | undefined
  if (!isMissing(sextant)) {
    await sextant.navigate(url)
    refs = {
      click: await refOf(sextant, "button", "Send message"),
      fill: await refOf(sextant, "textbox", "Name"),
      select: await refOf(sextant, "combobox", "Topic"),
    }
  }
  // Each run types or picks something other than what the field holds, so every action changes it.
  let counter = 0
  const next = () => {
    counter += 1
    return counter
  }
  const nextText = () => `Ada Lovelace ${next()}`
  const nextTopic = () => TOPICS[next() % TOPICS.length]!

  const sextantContender = (
    action: ActionResult["action"],
    run: (session: SextantSession, ref: string) => Promise<void>,
    requests: Array<number>,
  ): ReadonlyArray<Contender> =>
    isMissing(sextant) || refs === undefined
      ? []
      : [
          {
            piece: `act() ${action}`,
            run: async () => {
              const before = sextant.requests()
              await run(sextant, refs[action])
              requests.push(sextant.requests() - before)
            },
          },
        ]

  const measure = async (
    action: ActionResult["action"],
    sextantRun: (session: SextantSession, ref: string) => Promise<void>,
    playwrightRun: () => Promise<unknown>,
    webdriverioRun: () => Promise<unknown>,
  ): Promise<ActionResult> => {
    const requests: Array<number> = []
    const contenders = [
      { piece: `Playwright ${action}`, run: playwrightRun },
      { piece: `WebdriverIO ${action}`, run: webdriverioRun },
      ...sextantContender(action, sextantRun, requests),
    ]
    const [playwrightTime, webdriverioTime, sextantTime] = await interleave(
      `${action} on ${ACTION_PAGE}`,
      plan,
      contenders,
    )
    return {
      action,
      playwright: playwrightTime!,
      webdriverio: webdriverioTime!,
      sextant: sextantTime ?? (isMissing(sextant) ? sextant : { missing: "act() not measured" }),
      sextantRequests:
        requests.length === 0
          ? { missing: "act() not measured" }
          : { median: median(requests.slice(-plan.runs)), max: Math.max(...requests.slice(-plan.runs)) },
    }
  }

  return [
    await measure(
      "click",
      async (session, ref) => expectOk("click", await session.act({ ref }, "click")),
      () => playwright.locator(ACTION_SELECTORS.click).click(),
      () => webdriverio.$(ACTION_SELECTORS.click).click(),
    ),
    await measure(
      "fill",
      async (session, ref) => expectOk("fill", await session.act({ ref }, "input", nextText())),
      () => playwright.locator(ACTION_SELECTORS.fill).fill(nextText()),
      () => webdriverio.$(ACTION_SELECTORS.fill).setValue(nextText()),
    ),
    await measure(
      "select",
      async (session, ref) => expectOk("select", await session.act({ ref }, "select", nextTopic())),
      () => playwright.locator(ACTION_SELECTORS.select).selectOption({ label: nextTopic() }),
      () => webdriverio.$(ACTION_SELECTORS.select).selectByVisibleText(nextTopic()),
    ),
  ]
}
