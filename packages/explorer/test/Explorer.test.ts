import { describe, expect, it } from "vitest"
import {
  type AppMap,
  appMapToJson,
  appMapToMermaid,
  type ExploreEvent,
  explore,
  type FormModel,
  parseAppMap,
} from "../src/index.ts"
import { useBrowser } from "./support/Browser.ts"

const browser = useBrowser()

/** Every page the fixture's home links to, one click away: the explorer must find each of them. */
const PAGES_AT_DEPTH_1 = [
  "/",
  "/products",
  "/search",
  "/forms/contact",
  "/login",
  "/products/1",
  "/dynamic",
  "/frames",
  "/flaky",
  "/injection",
  "/large",
]

const pathOf = (url: string) => {
  const parsed = new URL(url)
  return parsed.pathname + parsed.search
}

const pageAt = (map: AppMap, path: string) => {
  const page = map.pages.find((candidate) => pathOf(candidate.url) === path)
  if (page === undefined)
    throw new Error(`no page at ${path}; found ${map.pages.map((p) => pathOf(p.url)).join(", ")}`)
  return page
}

const fieldsOf = (form: FormModel | undefined) =>
  form?.fields.map((field) => ({ label: field.label, fieldType: field.fieldType, required: field.required }))

describe("explore on the fixture site", () => {
  for (const seed of [0, 3, 7]) {
    it(`finds every page one click from / with the login, contact and search forms typed (seed ${seed})`, async () => {
      const site = await browser.site({ seed })
      const events: Array<ExploreEvent> = []
      const map = await browser.run(
        explore(`${site.url}/`, { maxDepth: 1, onEvent: (event) => events.push(event) }),
      )
      expect(map.pages.map((page) => pathOf(page.url)).sort()).toEqual([...PAGES_AT_DEPTH_1].sort())
      // /dashboard without a session redirects to /login: the same page, found under two URLs.
      expect(pageAt(map, "/login").aliases).toContain(`${site.url}/dashboard`)

      const login = pageAt(map, "/login").model
      expect(login.category).toBe("Login")
      expect(login.forms.map((form) => form.purpose)).toEqual(["login"])
      expect(fieldsOf(login.forms[0])).toEqual([
        { label: "Email", fieldType: "email", required: true },
        { label: "Password", fieldType: "password", required: true },
      ])
      expect(login.forms[0]?.submitLabel).toBe("Sign in")

      const search = pageAt(map, "/search").model
      expect(search.category).toBe("Search")
      expect(search.forms.map((form) => form.purpose)).toEqual(["search"])
      expect(fieldsOf(search.forms[0])).toEqual([
        { label: "Search products", fieldType: "search", required: false },
      ])

      const contact = pageAt(map, "/forms/contact").model
      expect(contact.category).toBe("Form")
      expect(contact.forms.map((form) => form.purpose)).toEqual(["contact"])
      // Seeds shuffle the contact form's fields: compare them by label.
      const byLabel = (fields: ReturnType<typeof fieldsOf>) =>
        [...(fields ?? [])].sort((a, b) => a.label.localeCompare(b.label))
      expect(byLabel(fieldsOf(contact.forms[0]))).toEqual(
        byLabel([
          { label: "Name", fieldType: "text", required: true },
          { label: "Email", fieldType: "email", required: true },
          { label: "Phone", fieldType: "tel", required: false },
          { label: "Topic", fieldType: "select", required: true },
          { label: "Preferred contact", fieldType: "radio", required: true },
          { label: "Subscribe to the newsletter", fieldType: "checkbox", required: false },
          { label: "Message", fieldType: "textarea", required: true },
          { label: "Preferred date", fieldType: "date", required: false },
          { label: "Attachment", fieldType: "file", required: false },
        ]),
      )
      const topic = contact.forms[0]?.fields.find((field) => field.label === "Topic")
      expect(["Support", "Sales", "Feedback"]).toContain(topic?.suggestedValue)

      expect(pageAt(map, "/products").model.category).toBe("Listing")
      expect(pageAt(map, "/products/1").model.category).toBe("Detail")

      // The injected link to another origin is never loaded.
      expect(map.pages.some((page) => !page.url.startsWith(site.url))).toBe(false)
      // Each page found was announced, and the home page links to each of the others.
      const found = events.filter((event) => event.type === "page-found")
      expect(found).toHaveLength(map.pages.length)
      const home = pageAt(map, "/").id
      const linked = new Set(
        map.transitions.filter((transition) => transition.from === home).map((t) => t.to),
      )
      expect(linked.size).toBe(map.pages.length - 1)
      expect(events.at(-1)).toEqual({
        type: "explore-end",
        pages: map.pages.length,
        transitions: map.transitions.length,
        visits: 12,
      })
    })
  }

  it("keeps within maxPages and lists what it left, and never loads a denied URL", async () => {
    const site = await browser.site()
    const map = await browser.run(explore(`${site.url}/`, { maxPages: 3, deny: ["/search"] }))
    expect(map.pages).toHaveLength(3)
    expect(map.skipped).toContainEqual({
      url: `${site.url}/search`,
      reason: 'matches the deny pattern "/search"',
    })
    expect(map.skipped.filter((skip) => skip.reason === "maxPages (3) reached").length).toBeGreaterThan(0)
    expect(map.pages.some((page) => pathOf(page.url) === "/search")).toBe(false)
  })

  it("merges pages with the same semantic fingerprint and loads at most maxPerPattern URLs of a pattern", async () => {
    const site = await browser.site()
    const map = await browser.run(
      explore(`${site.url}/products`, { maxDepth: 1, maxPerPattern: 2, allow: ["/products"] }),
    )
    // Product pages 2 and 3 of the listing are the listing again; product 1 and 2 are one detail page.
    expect(map.pages.map((page) => `${pathOf(page.url)} ${page.model.category}`)).toEqual([
      "/products Listing",
      "/products/1 Detail",
    ])
    expect(pageAt(map, "/products/1").aliases).toEqual([`${site.url}/products/2`])
    expect(map.skipped).toContainEqual({
      url: `${site.url}/products/3`,
      reason: "maxPerPattern (2) reached for /products/:n",
    })
  })

  it("submits each form with suggested values and with a required field empty, and records what appeared", async () => {
    const site = await browser.site()
    const map = await browser.run(explore(`${site.url}/forms/contact`, { maxDepth: 0, submitForms: true }))
    const outcomes = pageAt(map, "/forms/contact").formOutcomes.Contact ?? []
    expect(outcomes.map((outcome) => outcome.variant)).toEqual(["valid", "missing-required"])
    expect(outcomes[0]?.appeared).toContain("Thank you, Ada Lovelace")
    expect(outcomes[1]?.emptyField).toBe("Name")
    expect(outcomes[1]?.appeared).toEqual(["Please enter your name"])
    expect(outcomes[1]?.signals).toContain("ErrorAppeared")
  })

  it("saves the map as JSON that reads back the same, and renders it as a Mermaid flowchart", async () => {
    const site = await browser.site()
    const map = await browser.run(explore(`${site.url}/`, { maxDepth: 1, maxPages: 4 }))
    expect(parseAppMap(appMapToJson(map))).toEqual(map)
    const mermaid = appMapToMermaid(map)
    expect(mermaid.split("\n")[0]).toBe("flowchart LR")
    for (const page of map.pages) expect(mermaid).toContain(`  ${page.id}["`)
    expect(mermaid).toContain(`p0 -->|"Products"| p1`)
    expect(() => parseAppMap('{"version": 2}')).toThrow("the app map's field version is invalid")
  })
})
