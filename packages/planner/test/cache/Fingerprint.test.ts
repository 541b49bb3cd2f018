import type { PageElement, PageSnapshot } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { pageFingerprint, urlPattern } from "../../src/cache/Fingerprint.ts"

describe("urlPattern", () => {
  it("drops the origin, the fragment and query values, keeping sorted parameter names", () => {
    expect(urlPattern("http://127.0.0.1:4100/search?q=lantern&page=2#top")).toBe("/search?page&q")
    expect(urlPattern("http://127.0.0.1:5200/login")).toBe("/login")
  })

  it("turns id-like path segments into :id", () => {
    expect(urlPattern("http://h/products/17")).toBe("/products/:id")
    expect(urlPattern("http://h/orders/3f2a9c1d7e")).toBe("/orders/:id")
    expect(urlPattern("http://h/u/123e4567-e89b-12d3-a456-426614174000/edit")).toBe("/u/:id/edit")
    expect(urlPattern("http://h/forms/contact")).toBe("/forms/contact")
  })
})

const element = (ref: string, role: string, name: string, extra: Partial<PageElement> = {}): PageElement => ({
  ref,
  role,
  name,
  tag: "input",
  attributes: {},
  visible: true,
  selectors: [`#${ref}-id`],
  frame: [],
  region: "main",
  ...extra,
})

const page = (url: string, elements: ReadonlyArray<PageElement>, formName = "Sign in") =>
  ({
    url,
    elements: Object.fromEntries(elements.map((entry) => [entry.ref, entry])),
    forms: [
      {
        key: "form",
        name: formName,
        fields: elements.filter((entry) => entry.form !== undefined).map((entry) => entry.ref),
      },
    ],
    outputs: [{ key: "h", region: "main", text: "Sign in" }],
  }) satisfies Pick<PageSnapshot, "url" | "elements" | "forms" | "outputs">

const login = [
  element("e1", "textbox", "Email", { form: "form" }),
  element("e2", "textbox", "Password", { form: "form" }),
  element("e3", "button", "Sign in", { form: "form" }),
  element("e4", "link", "Home", { region: "nav" }),
]

describe("pageFingerprint", () => {
  it("ignores ids, selectors, refs, order, values and the origin", () => {
    const first = pageFingerprint(page("http://127.0.0.1:4000/login", login))
    const shuffled = [...login].reverse().map((entry, index) => ({
      ...entry,
      ref: `e${index + 10}`,
      selectors: [`#x-${index}`],
      value: "typed",
    }))
    const again = pageFingerprint(page("http://127.0.0.1:4999/login", shuffled))
    expect(again.value).toBe(first.value)
    expect(first.value).toMatch(/^\/login#[0-9a-f]{12}$/)
  })

  it("changes with another form, another control or another URL pattern", () => {
    const base = pageFingerprint(page("http://h/login", login)).value
    expect(pageFingerprint(page("http://h/login", login, "Register")).value).not.toBe(base)
    expect(
      pageFingerprint(page("http://h/login", [...login, element("e9", "checkbox", "Remember me")])).value,
    ).not.toBe(base)
    expect(pageFingerprint(page("http://h/signin", login)).value).not.toBe(base)
  })

  it("does not count how many elements share a role and region", () => {
    const cards = (count: number) =>
      Array.from({ length: count }, (_, index) =>
        element(`c${index}`, "link", `View item ${index}`, { region: "results" }),
      )
    expect(pageFingerprint(page("http://h/search?q=a", cards(3))).value).toBe(
      pageFingerprint(page("http://h/search?q=b", cards(7))).value,
    )
  })
})
