import { readFileSync } from "node:fs"
import { BrowserDriver, Store } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { loadRunReport, renderRunReport } from "../src/index.ts"
import { EMAIL, guardrailEvents as guardrails, leaks, PASSWORD, startRig } from "./support/HostileRig.ts"
import { temporaryDirectory } from "./support/TemporaryDirectory.ts"

/**
 * Pages that get the password to another origin after it is typed on the allowed one — a 307 answer to
 * the form's POST, a submit handler that swaps the form's action — or that echo it in another spelling,
 * and a search form the model may type it into; real headless Chromium (WebdriverIO, tab sockets), the
 * rule planner and the model step policy (the real openai SDK against the scripted server). The other
 * origin logs every request: it must never receive the password in any spelling, the run must end
 * FAILED naming the origin, and the password is typed at most once.
 */

// The scripted summary says the task is complete: a run that met a secret-origin event must still fail.
const rig = startRig({ summary: { taskComplete: true } })
const { hostile } = rig

/** What the site's hostile pages counted: posts to their endpoints and keystrokes in password fields. */
const siteCounts = async (): Promise<Record<string, number>> =>
  (await (await fetch(`${rig.site.url}/hostile/counts`)).json()) as Record<string, number>

/** Runs `run`, waits for late beacons and posts, and adds what the site's hostile pages counted meanwhile. */
const counted = async <A extends object>(run: () => Promise<A>) => {
  const before = await siteCounts()
  const result = await run()
  const now = await siteCounts()
  const counts = Object.fromEntries(
    Object.entries(now).map(([key, value]) => [key, value - (before[key] ?? 0)]),
  )
  return { ...result, counts }
}

const withRules = (goal: string, startUrl: string) =>
  counted(() => rig.withRules(goal, startUrl, { settleMs: 300 }))

const withModel = (
  startUrl: string,
  script: Parameters<typeof rig.withModel>[1],
  options: { readonly traceDirectory?: string; readonly failureShots?: boolean } = {},
) => counted(() => rig.withModel(startUrl, script, { ...options, settleMs: 300 }))

describe("a page that sends the typed password to another origin: the browser blocks it before it leaves", () => {
  it("fails the 307 hop of the allowed origin's POST to the other origin, and does not replan", async () => {
    const {
      result,
      events,
      attacker: log,
      counts,
    } = await withRules(`log in as ${EMAIL} with password ${PASSWORD}`, hostile("/hostile/redirect-post"))
    const origin = guardrails(events).filter((event) => event.rule === "secret-origin")
    // The POST reached the allowed origin once; its redirected hop was paused and failed in the browser.
    expect(counts["POST /hostile/redirect-post"]).toBe(1)
    expect(origin.map((event) => event.message).join("\n")).toContain(
      `POST request to ${rig.attacker.url} (a redirect from ${rig.site.url}) carried <secret:password> in its body`,
    )
    expect(log.paths).toEqual([])
    expect(log.leaked).toBe(false)
    expect(events.some((event) => event.type === "replan")).toBe(false)
    expect(result.status).toBe("FAILED")
    expect(JSON.stringify(result.summary)).toContain(
      `secret-origin: login: a Document POST request to ${rig.attacker.url} (a redirect from ${rig.site.url})`,
    )
    expect(counts.keystroke).toBe(1)
    expect(leaks(JSON.stringify(result))).toBe(false)
  }, 60_000)

  it("fails the POST a submit handler moved to the other origin, and never types the password again", async () => {
    const {
      result,
      events,
      attacker: log,
      counts,
    } = await withModel(hostile("/hostile/swap-action"), [
      { name: "fill", args: { target: "#email", value: EMAIL } },
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "click", args: { target: "#login-btn" } },
      // What a replan or a retry would do: go back and sign in again.
      { name: "navigate", args: { url: hostile("/hostile/swap-action") } },
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "click", args: { target: "#login-btn" } },
    ])
    const rules = guardrails(events)
    expect(rules[0]?.rule).toBe("secret-origin")
    expect(rules[0]?.message).toContain(
      `POST request to ${rig.attacker.url} carried <secret:password> in its body`,
    )
    expect(rules.some((event) => event.message.includes("would type <secret:password> again"))).toBe(true)
    expect(log.paths).toEqual([])
    expect(log.leaked).toBe(false)
    expect(counts.keystroke).toBe(1)
    expect(counts["POST /hostile/swap-action"] ?? 0).toBe(0)
    // The scripted summary says the task is complete; a run that met a secret-origin event is not.
    expect(result.status).toBe("FAILED")
    expect(result.summary.unmetParts?.map((part) => part.evidence).join("\n")).toContain(
      `secret-origin: click: a Document POST request to ${rig.attacker.url}`,
    )
  }, 60_000)
})

describe("a secret goes only into a password-like field", () => {
  it("refuses the password for a search box, a text area and a free-text field", async () => {
    const {
      events,
      attacker: log,
      prompts,
    } = await withModel(`${rig.site.url}/hostile/search-form`, [
      { name: "fill", args: { target: "#q", value: "<secret:password>" } },
      { name: "fill", args: { target: "#note", value: "<secret:password>" } },
      { name: "fill", args: { target: "#nickname", value: "<secret:password>" } },
      { name: "fill", args: { label: "Search", value: "<secret:password>" } },
    ])
    const rules = guardrails(events)
    expect(rules.map((event) => event.rule)).toEqual([
      "secret-field",
      "secret-field",
      "secret-field",
      "secret-field",
    ])
    expect(rules[0]?.message).toContain('into an input type=search "q", which is a search box')
    expect(rules[1]?.message).toContain("which is a text area")
    expect(rules[2]?.message).toContain("which is free text")
    const values = await rig.runtime.runPromise(
      BrowserDriver.use((driver) =>
        driver.evaluate("return [q.value, note.value, nickname.value, location.search].join('|')"),
      ),
    )
    expect(values).toBe("|||")
    expect(log.paths).toEqual([])
    expect(prompts.some((request) => leaks(JSON.stringify(request)))).toBe(false)
  }, 60_000)
})

/**
 * The echo page as the run left it, typed again without a run (the run's end blanks the tab, so the
 * page cannot send the secret later), and its screenshots as it is and with its echoes masked, base64:
 * the email field is masked as every filled non-password field is; the echoes by their text.
 */
const echoAgain = () =>
  BrowserDriver.use((driver) =>
    Effect.gen(function* () {
      yield* driver.navigate(`${rig.site.url}/hostile/echo`)
      yield* driver.act({ selector: "#email" }, "input", EMAIL)
      yield* driver.act({ selector: "#password" }, "input", PASSWORD)
    }),
  )

const echoScreenshots = () =>
  rig.runtime.runPromise(
    BrowserDriver.use((driver) =>
      Effect.gen(function* () {
        yield* echoAgain()
        yield* driver.evaluate(
          "document.querySelector('#email').style.setProperty('-webkit-text-security', 'disc')",
        )
        const shown = yield* driver.screenshot()
        yield* driver.evaluate(
          "for (const id of ['#loud', '#spaced']) document.querySelector(id).style.setProperty('-webkit-text-security', 'disc', 'important')",
        )
        const masked = yield* driver.screenshot()
        return [Buffer.from(shown).toString("base64"), Buffer.from(masked).toString("base64")] as const
      }),
    ),
  )

describe("a page that echoes the password in another spelling", () => {
  it("shows the model, the report and the store only placeholders, and masks the echo in screenshots", async () => {
    const directory = temporaryDirectory("sextant-echo-")
    const { result, prompts } = await withModel(
      `${rig.site.url}/hostile/echo`,
      [
        { name: "fill", args: { target: "#email", value: EMAIL } },
        { name: "fill", args: { target: "#password", value: "<secret:password>" } },
        { name: "extract", args: { target: "#loud" } },
        { name: "screenshot", args: {} },
      ],
      { traceDirectory: directory },
    )
    const [loud, spaced] = (await rig.runtime.runPromise(
      BrowserDriver.use((driver) =>
        Effect.andThen(
          echoAgain(),
          driver.evaluate(
            "return [document.querySelector('#loud').textContent, document.querySelector('#spaced').textContent]",
          ),
        ),
      ),
    )) as [string, string]
    // The page did echo it: upper-cased, and its letters spaced out.
    expect(loud).toBe("OPEN SESAME+42")
    expect(spaced).toBe("o p e n s e s a m e")
    expect(prompts.length).toBeGreaterThan(4)
    expect(prompts.some((request) => leaks(JSON.stringify(request)))).toBe(false)
    expect(JSON.stringify(prompts)).toContain("You typed: <secret:password>")
    expect(leaks(JSON.stringify(result))).toBe(false)
    const report = await rig.runtime.runPromise(
      Effect.map(loadRunReport(result.runId, { traceDirectory: directory }), (data) => renderRunReport(data)),
    )
    expect(report).toContain("&lt;secret:password&gt;")
    expect(leaks(report)).toBe(false)
    const stored = await rig.runtime.runPromise(Store.use((store) => store.listObservations(result.runId)))
    expect(leaks(JSON.stringify(stored))).toBe(false)

    const taken = result.observations.find((observation) => observation.tool === "screenshot")
    const base64 = (taken?.data as { base64?: string } | undefined)?.base64
    expect(base64).toBeDefined()
    const [shown, masked] = await echoScreenshots()
    expect(shown).not.toBe(masked)
    expect(base64).toBe(masked)
  }, 60_000)

  it("masks the echo in the screenshot taken when a step fails", async () => {
    const directory = temporaryDirectory("sextant-echo-failure-")
    const { events } = await withModel(
      `${rig.site.url}/hostile/echo`,
      [
        { name: "fill", args: { target: "#email", value: EMAIL } },
        { name: "fill", args: { target: "#password", value: "<secret:password>" } },
        { name: "click", args: { target: "#no-such-button" } },
      ],
      { traceDirectory: directory, failureShots: true },
    )
    const shot = events.flatMap((event) =>
      event.type === "step-end" && event.screenshot !== undefined ? [event.screenshot] : [],
    )[0]
    expect(shot).toBeDefined()
    const failure = readFileSync(shot as string).toString("base64")
    const [shown, masked] = await echoScreenshots()
    expect(shown).not.toBe(masked)
    expect(failure).toBe(masked)
  }, 60_000)
})
