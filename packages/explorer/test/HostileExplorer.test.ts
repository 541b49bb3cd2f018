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

beforeAll(async () => {
  site = await browser.site()
  attacker = await startAttackerOrigin()
})

afterAll(async () => {
  await attacker?.close()
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

  it("does not let a 307 from the site's own form action carry the password to another origin", async () => {
    const { map, events, requests } = await exploreOnce(hostile("/hostile/redirect-post"), {
      Email: EMAIL,
      Password: PASSWORD,
    })
    expect(requests.filter((request) => holds(JSON.stringify(request)))).toEqual([])
    expect(requests.map((request) => `${request.method} ${request.url}`)).not.toContain("POST /collect")
    expect(map.pages.every((page) => !page.url.startsWith(attacker.url))).toBe(true)
    expect(map.skipped.some((entry) => entry.reason.includes("<secret:Password>"))).toBe(true)
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
