import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import {
  type AttackerOrigin,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { defaultChromeArgs } from "@sextant/webdriverio"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { remote } from "webdriverio"
import { type AgentRunResult, type BrowserOptions, createAgent, type TraceRecord } from "../src/index.ts"

/**
 * A browser the caller brings (`createAgent({ browser: { from: browser } })`) types a secret only where
 * its requests can be guarded. The page is the fixture site's login whose POST answers 307 to the
 * attacker origin, so the browser would send the password there in the redirected body: with the
 * request guard armed that hop is failed in the browser; without it, only a refusal to type keeps the
 * password off the attacker origin. Real headless Chromium under WebdriverIO's own ChromeDriver.
 */

const PASSWORD = "brought-browser-pass-61"
const EMAIL = "alice@example.com"
const BROWSER_TEST_MS = 90_000

let site: FixtureSite
let attacker: AttackerOrigin

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  attacker = await startAttackerOrigin()
})
afterAll(async () => {
  await attacker?.close()
  await site?.close()
})

/**
 * A WebdriverIO session the user opened: WebDriver BiDi (WebdriverIO's default), whose requests Sextant
 * cannot guard, or WebDriver Classic on this machine, whose tabs' DevTools sockets it can reach.
 */
const userBrowser = (protocol: "bidi" | "classic") =>
  remote({
    logLevel: "silent",
    capabilities: {
      browserName: "chrome",
      "goog:chromeOptions": { binary: "/usr/bin/chromium", args: [...defaultChromeArgs] },
      "wdio:chromedriverOptions": { binary: "/usr/bin/chromedriver" },
      ...(protocol === "classic" ? { "wdio:enforceWebDriverClassic": true } : {}),
    },
  })

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** A ChromeDriver on this machine, as a user starts one to `connect` to; ended with the test. */
const startChromedriver = async (): Promise<{ readonly port: number; readonly process: ChildProcess }> => {
  const port = await freePort()
  const child = spawn("/usr/bin/chromedriver", [`--port=${port}`], { stdio: "ignore" })
  for (let tries = 0; tries < 100; tries++) {
    const ready = await fetch(`http://127.0.0.1:${port}/status`)
      .then(async (response) => ((await response.json()) as { value?: { ready?: boolean } }).value?.ready)
      .catch(() => false)
    if (ready === true) return { port, process: child }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill()
  throw new Error(`ChromeDriver did not answer on port ${port}`)
}

const counts = async (): Promise<Record<string, number>> =>
  (await (await fetch(`${site.url}/hostile/counts`)).json()) as Record<string, number>

/** Signs in on the redirecting login page in `browser`; what the run answered, saw and let through. */
const signIn = async (
  source: "bidi" | "classic" | "connect",
  options: { readonly allowUnguardedSecrets?: boolean },
) => {
  const browser = source === "connect" ? undefined : await userBrowser(source)
  const chromedriver = source === "connect" ? await startChromedriver() : undefined
  const from: BrowserOptions =
    browser !== undefined
      ? { from: browser }
      : {
          connect: {
            port: chromedriver?.port ?? 0,
            bidi: false,
            capabilities: {
              browserName: "chrome",
              "goog:chromeOptions": { binary: "/usr/bin/chromium", args: [...defaultChromeArgs] },
            },
          },
        }
  const start = `${site.url}/hostile/redirect-post?to=${encodeURIComponent(attacker.url)}`
  const sentBefore = attacker.requests.length
  const countsBefore = await counts()
  const events: Array<TraceRecord> = []
  const agent = createAgent({
    browser: from,
    store: "memory",
    traceDirectory: false,
    screenshots: "never",
    ...options,
  })
  let result: AgentRunResult
  try {
    result = await agent.run(
      {
        goal: "sign in",
        startUrl: start,
        inputs: { email: EMAIL, password: PASSWORD },
        secretInputs: ["password"],
        constraints: { allowFormSubmission: true },
      },
      {
        onEvent: (event) => events.push(event),
        plan: {
          steps: [
            { index: 0, tool: "navigate", args: { url: start } },
            { index: 1, tool: "fill", args: { target: "#email", value: EMAIL } },
            { index: 2, tool: "fill", args: { target: "#password", value: "<secret:password>" } },
            { index: 3, tool: "click", args: { target: "#login-btn" } },
          ],
        },
      },
    )
    // A late redirect hop or beacon still counts.
    await new Promise((resolve) => setTimeout(resolve, 300))
  } finally {
    await agent.close()
    await browser?.deleteSession().catch(() => undefined)
    chromedriver?.process.kill()
  }
  const after = await counts()
  const sent = attacker.requests
    .slice(sentBefore)
    .map((request) => `${request.method} ${request.url} ${request.body}`)
  return {
    result,
    guardrails: events.flatMap((event) => (event.type === "guardrail" ? [event] : [])),
    // The site's page counts each keystroke in its password field: the password was typed when it grew.
    passwordKeystrokes: (after.keystroke ?? 0) - (countsBefore.keystroke ?? 0),
    sent,
  }
}

describe("createAgent({ browser: { from } }): a secret is typed only where requests are guarded", () => {
  it(
    "refuses to type the secret into a BiDi session whose requests cannot be guarded, naming the opt-out, and the attacker gets nothing",
    async () => {
      const { result, guardrails, passwordKeystrokes, sent } = await signIn("bidi", {})
      expect(sent.filter((line) => line.includes(PASSWORD))).toEqual([])
      expect(passwordKeystrokes).toBe(0)
      expect(result.status).toBe("FAILED")
      const refusal = guardrails.find((event) => event.rule === "secret-unguarded")
      expect(refusal?.message).toContain("cannot be guarded")
      expect(refusal?.message).toContain("nothing was typed")
      expect(refusal?.message).toContain("allow it with allowUnguardedSecrets: true")
    },
    BROWSER_TEST_MS,
  )

  it(
    "types it with allowUnguardedSecrets: true, and then nothing stops the redirect from carrying it to the attacker",
    async () => {
      const { guardrails, passwordKeystrokes, sent } = await signIn("bidi", { allowUnguardedSecrets: true })
      expect(guardrails.some((event) => event.rule === "secret-unguarded")).toBe(false)
      expect(passwordKeystrokes).toBeGreaterThan(0)
      // What the default refusal keeps from the attacker origin.
      expect(sent.some((line) => line.startsWith("POST /collect") && line.includes(PASSWORD))).toBe(true)
    },
    BROWSER_TEST_MS,
  )

  it(
    "types it into a Classic session on this machine with the request guard armed, which fails the redirect to the attacker",
    async () => {
      const { result, guardrails, passwordKeystrokes, sent } = await signIn("classic", {})
      expect(guardrails.filter((event) => event.rule === "secret-unguarded")).toEqual([])
      expect(passwordKeystrokes).toBeGreaterThan(0)
      const blocked = guardrails.find((event) => event.rule === "secret-origin")
      expect(blocked?.message).toContain(
        `POST request to ${attacker.url} (a redirect from ${site.url}) carried <secret:password> in its body`,
      )
      expect(result.status).toBe("FAILED")
      expect(sent.filter((line) => line.includes(PASSWORD))).toEqual([])
    },
    BROWSER_TEST_MS,
  )
})

describe("createAgent({ browser: { connect } }): a secret is typed only where requests are guarded", () => {
  it(
    "types it into a Classic session of a ChromeDriver on this machine with the request guard armed, which fails the redirect to the attacker",
    async () => {
      const { result, guardrails, passwordKeystrokes, sent } = await signIn("connect", {})
      expect(guardrails.filter((event) => event.rule === "secret-unguarded")).toEqual([])
      expect(passwordKeystrokes).toBeGreaterThan(0)
      const blocked = guardrails.find((event) => event.rule === "secret-origin")
      expect(blocked?.message).toContain(
        `POST request to ${attacker.url} (a redirect from ${site.url}) carried <secret:password> in its body`,
      )
      expect(result.status).toBe("FAILED")
      expect(sent.filter((line) => line.includes(PASSWORD))).toEqual([])
    },
    BROWSER_TEST_MS,
  )
})
