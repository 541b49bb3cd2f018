import { readFileSync } from "node:fs"
import { BrowserDriver, Store } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { TraceRecord } from "../src/index.ts"
import { callsThenStop, EMAIL, guardrails, leaks, PASSWORD, startRig, taskFor } from "./support/HostileRig.ts"
import { temporaryDirectory } from "./support/TemporaryDirectory.ts"

/**
 * Pages that try to take the password or the browser to another origin, run in real headless Chromium
 * with the rule planner and with the model step policy (the real openai SDK against the scripted
 * server). A second server plays the other origin and logs every request; whatever the pages try, it
 * must never receive the secret in any spelling, and each attempt must be a guardrail event.
 */

const rig = startRig()
const { hostile, withRules } = rig

const withModel = (
  startUrl: string,
  script: Parameters<typeof rig.withModel>[1],
  options: { readonly traceDirectory?: string } = {},
) =>
  rig.withModel(
    startUrl,
    script,
    options.traceDirectory === undefined
      ? {}
      : { traceDirectory: options.traceDirectory, failureShots: true },
  )

const openTabs = () => rig.runtime.runPromise(BrowserDriver.use((driver) => driver.tabs))

describe("hostile pages with the rule planner: the other origin never receives the secret", () => {
  it("refuses to type the password into a form whose action is on another origin, and does not replan", async () => {
    const { result, events, attacker } = await withRules(
      `log in as ${EMAIL} with password ${PASSWORD}`,
      hostile("/hostile/offsite-form"),
    )
    expect(guardrails(events)).toContain("secret-origin")
    expect(events.some((event) => event.type === "replan")).toBe(false)
    expect(result.status).toBe("FAILED")
    expect(attacker.leaked).toBe(false)
    expect(attacker.paths).toEqual([])
    expect(JSON.stringify(result)).not.toContain(PASSWORD)
  }, 60_000)

  it("never types the password into another origin's login form the page moved to", async () => {
    const { result, events, attacker } = await withRules(
      `log in as ${EMAIL} with password ${PASSWORD}`,
      hostile("/hostile/redirect-login"),
    )
    // What stops it depends on when the page moves (200 ms after it loads): the request guard, armed
    // before the password is typed, refusing the tab's move to another origin (said as a secret-origin
    // event); the guard that refuses a page on another origin once the navigation lands there; or the
    // log-in step finding no password field on the page before it moved (a failure there, on the
    // site's own origin, not retried). Either way the run fails and nothing reaches the other origin.
    const spoke = guardrails(events).filter((rule) => rule === "secret-origin" || rule === "allowed-origins")
    const stoppedOnTheSite =
      result.firstFailure?.tool === "login" && new URL(result.firstFailure.url).origin === rig.site.url
    expect(spoke.length > 0 || stoppedOnTheSite, result.summary.summary).toBe(true)
    expect(result.status).toBe("FAILED")
    expect(attacker.leaked).toBe(false)
    expect(attacker.paths.filter((path) => path.startsWith("POST"))).toEqual([])
  }, 60_000)

  it("never runs a javascript: link, whichever click tool the replanner picks", async () => {
    const { result, events, attacker } = await withRules("click Claim offer", hostile("/hostile/links"))
    expect(guardrails(events).length).toBeGreaterThan(0)
    expect(result.status).toBe("FAILED")
    expect(attacker.paths).toEqual([])
  }, 60_000)

  it("does not follow a link to another origin", async () => {
    const { result, events, attacker } = await withRules("click Partner offer", hostile("/hostile/links"))
    expect(guardrails(events).length).toBeGreaterThan(0)
    expect(result.status).toBe("FAILED")
    expect(attacker.paths).toEqual([])
  }, 60_000)

  it("closes pop-ups a page opens on another origin before they load, and reports each one", async () => {
    const { events, attacker } = await withRules("scroll down", hostile("/hostile/popups"))
    expect(guardrails(events).filter((rule) => rule === "popup").length).toBeGreaterThanOrEqual(1)
    expect(attacker.leaked).toBe(false)
    // Closed by the driver while held before their first request: the other origin never heard of them.
    expect(attacker.paths.filter((path) => path.startsWith("GET /popup"))).toEqual([])
    expect((await openTabs()).map((tab) => new URL(tab.url).origin)).toEqual([rig.site.url])
  }, 60_000)

  it("refuses a plan that puts the password into a URL", async () => {
    // A URL cannot hold a space, so this password is one word.
    const { result, events, attacker } = await withRules(
      `go to ${rig.site.url}/hostile/secret-in-url?note=sesame42word`,
      `${rig.site.url}/`,
      { password: "sesame42word" },
    )
    expect(guardrails(events)).toContain("secret-placeholder")
    expect(result.status).toBe("FAILED")
    expect(attacker.paths).toEqual([])
    expect(JSON.stringify(result)).not.toContain("sesame42word")
  }, 60_000)
})

describe("hostile pages with the model step policy: the other origin never receives the secret", () => {
  it("refuses the password for an off-origin form action, and the guard stops the submit", async () => {
    const { events, attacker, prompts } = await withModel(hostile("/hostile/offsite-form"), [
      { name: "fill", args: { target: "#email", value: EMAIL } },
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "click", args: { target: "#login-btn" } },
    ])
    const rules = guardrails(events)
    expect(rules).toContain("secret-origin")
    expect(rules).toContain("form-action")
    expect(attacker.paths).toEqual([])
    expect(prompts.some((request) => leaks(JSON.stringify(request)))).toBe(false)
  }, 60_000)

  it("stops Enter in a field from submitting a form to another origin", async () => {
    const { events, attacker } = await withModel(hostile("/hostile/offsite-form"), [
      { name: "fill", args: { target: "#email", value: EMAIL } },
      { name: "press", args: { target: "#email", key: "Enter" } },
    ])
    expect(guardrails(events)).toEqual(["form-action"])
    expect(attacker.paths).toEqual([])
  }, 60_000)

  it("refuses the password for a field in another origin's frame", async () => {
    const { events, attacker } = await withModel(hostile("/hostile/framed-login"), [
      { name: "fill", args: { target: "#login-frame", value: "<secret:password>" } },
    ])
    expect(guardrails(events)).toEqual(["secret-origin"])
    expect(attacker.leaked).toBe(false)
    expect(attacker.paths.filter((path) => path.startsWith("POST"))).toEqual([])
  }, 60_000)

  it("types nothing into another origin's login form the page moves to while the fill waits", async () => {
    // The page moves when the test opens its gate: as the second fill starts. The first fill met the
    // loading page (no password field: it types nothing) and armed the request guard, so the move always
    // comes after the guard armed, whatever the load of the machine; the second fill waits for a password
    // field while the page moves. A page that moves on a timer would race the model's first answer.
    const gate = `redirect-${Date.now()}`
    const since = rig.attacker.requests.length
    rig.script(
      callsThenStop([
        { name: "fill", args: { target: "#password", value: "<secret:password>" } },
        { name: "fill", args: { target: "#password", value: "<secret:password>" } },
        { name: "click", args: { target: "#login-btn" } },
      ]),
    )
    const events: Array<TraceRecord> = []
    let fills = 0
    let opened: Promise<unknown> = Promise.resolve()
    await rig.runModel(taskFor("sign in and look around", hostile(`/hostile/redirect-login?gate=${gate}`)), {
      screenshots: "never",
      onEvent: (event) => {
        events.push(event)
        if (event.type === "step-start" && event.tool === "fill" && ++fills === 2)
          opened = fetch(`${rig.site.url}/hostile/gate?name=${gate}`, { method: "POST" })
      },
    })
    await opened
    expect(fills).toBeGreaterThanOrEqual(2)
    const attacker = rig.attackerSince(since)
    expect(guardrails(events)).toContain("secret-origin")
    // The guard armed with the first fill: the move to the other origin is a request it blocks (strict
    // once armed), so that origin's page never even loads.
    expect(attacker.paths.some((path) => path.startsWith("GET /login"))).toBe(false)
    expect(attacker.leaked).toBe(false)
    expect(attacker.paths.filter((path) => path.startsWith("POST"))).toEqual([])
  }, 60_000)

  it("never runs javascript: links or follows off-origin ones, through any click tool", async () => {
    // Five refusals in a row are five no-ops: the run then ends for lack of progress.
    const { events, attacker } = await withModel(hostile("/hostile/links"), [
      { name: "click", args: { target: "#js-link" } },
      { name: "clickTextMatches", args: { text: "Claim offer", count: 3 } },
      { name: "clickMatches", args: { selector: "a", attribute: "href", pattern: "^javascript:" } },
      { name: "clickNthAnchor", args: { index: 0, rootSelector: "#offers" } },
      { name: "clickTextMatches", args: { text: "Partner offer" } },
    ])
    const rules = guardrails(events)
    expect(rules).toHaveLength(5)
    expect(rules.filter((rule) => rule === "link-target")).toHaveLength(4)
    expect(attacker.paths).toEqual([])
  }, 60_000)

  it("opens no window on another origin, by target=_blank or window.open", async () => {
    const { events, attacker } = await withModel(hostile("/hostile/links"), [
      { name: "click", args: { target: "#popup-link" } },
      { name: "click", args: { target: "#popup-button" } },
    ])
    const rules = guardrails(events)
    // The link is refused by its href before the click; window.open is stopped in the page.
    expect(rules).toEqual(["allowed-origins", "popup"])
    expect(attacker.paths).toEqual([])
    expect((await openTabs()).length).toBe(1)
  }, 60_000)

  it("refuses a model that puts the password into a URL or another origin's search box", async () => {
    const other = rig.attacker.url
    const {
      events,
      attacker: log,
      prompts,
    } = await withModel(hostile("/hostile/secret-in-url"), [
      { name: "navigate", args: { url: `${other}/done?note=<secret:password>` } },
      { name: "navigate", args: { url: `${rig.site.url}/?note=<secret:password>` } },
      { name: "fill", args: { label: "Search", value: "<secret:password>" } },
    ])
    const rules = guardrails(events)
    expect(rules.filter((rule) => rule === "secret-placeholder")).toHaveLength(2)
    expect(rules).toContain("secret-origin")
    expect(log.paths).toEqual([])
    expect(prompts.some((request) => leaks(JSON.stringify(request)))).toBe(false)
  }, 60_000)

  it("refuses the password for a GET form, whose fields would put it into the next page's URL", async () => {
    const { result, events, prompts } = await withModel(`${rig.site.url}/hostile/get-form`, [
      { name: "fill", args: { target: "#email", value: EMAIL } },
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "click", args: { target: "#login-btn" } },
      { name: "extract", args: { target: "#seen" } },
    ])
    expect(guardrails(events)).toEqual(["secret-field"])
    expect(result.observations.some((observation) => observation.url?.includes("password=") === true)).toBe(
      false,
    )
    expect(prompts.length).toBeGreaterThan(4)
    expect(prompts.some((request) => leaks(JSON.stringify(request)))).toBe(false)
    expect(leaks(JSON.stringify(result))).toBe(false)
    const stored = await rig.runtime.runPromise(Store.use((store) => store.listRecords(result.runId)))
    expect(leaks(JSON.stringify(stored))).toBe(false)
  }, 60_000)

  it("masks a secret typed into a plain text field in the failure screenshot", async () => {
    const directory = temporaryDirectory("sextant-mask-")
    const { events } = await withModel(
      `${rig.site.url}/hostile/plain-field`,
      [
        { name: "fill", args: { target: "#code", value: "<secret:password>" } },
        { name: "click", args: { target: "#no-such-button" } },
      ],
      { traceDirectory: directory },
    )
    const shot = events.flatMap((event) =>
      event.type === "step-end" && event.screenshot !== undefined ? [event.screenshot] : [],
    )[0]
    expect(shot).toBeDefined()
    const failure = readFileSync(shot as string)
    const [shown, masked] = await rig.runtime.runPromise(
      BrowserDriver.use((driver) =>
        Effect.gen(function* () {
          // The run's end left the page for about:blank: the field is typed again, without a run.
          yield* driver.navigate(`${rig.site.url}/hostile/plain-field`)
          yield* driver.act({ selector: "#code" }, "input", PASSWORD)
          expect(yield* driver.evaluate("return document.querySelector('#code').value")).toBe(PASSWORD)
          const shown = yield* driver.screenshot()
          yield* driver.evaluate(
            "document.querySelector('#code').style.setProperty('-webkit-text-security', 'disc')",
          )
          const masked = yield* driver.screenshot()
          return [Buffer.from(shown), Buffer.from(masked)] as const
        }),
      ),
    )
    expect(failure.equals(masked)).toBe(true)
    expect(failure.equals(shown)).toBe(false)
  }, 60_000)

  it("masks a secret typed into a plain text field in a screenshot the model asks for", async () => {
    const { result } = await withModel(`${rig.site.url}/hostile/plain-field`, [
      { name: "fill", args: { target: "#code", value: "<secret:password>" } },
      { name: "screenshot", args: {} },
    ])
    const taken = result.observations.find((observation) => observation.tool === "screenshot")
    const base64 = (taken?.data as { base64?: string } | undefined)?.base64
    expect(base64).toBeDefined()
    const [shown, masked] = await rig.runtime.runPromise(
      BrowserDriver.use((driver) =>
        Effect.gen(function* () {
          // The run's end left the page for about:blank: the field is typed again, without a run.
          yield* driver.navigate(`${rig.site.url}/hostile/plain-field`)
          yield* driver.act({ selector: "#code" }, "input", PASSWORD)
          expect(yield* driver.evaluate("return document.querySelector('#code').value")).toBe(PASSWORD)
          const shown = yield* driver.screenshot()
          yield* driver.evaluate(
            "document.querySelector('#code').style.setProperty('-webkit-text-security', 'disc')",
          )
          const masked = yield* driver.screenshot()
          return [Buffer.from(shown).toString("base64"), Buffer.from(masked).toString("base64")] as const
        }),
      ),
    )
    expect(base64).toBe(masked)
    expect(base64).not.toBe(shown)
  }, 60_000)
})
