import { describeGoalCheck, type GoalPart, SignInUnfinished } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { type PageFacts, type PartStep, verifyParts } from "../src/Goals.ts"

const facts = (heading: string, url = "http://site.test/tabs"): PageFacts => ({
  url,
  title: "Gallery",
  heading,
  passwordVisible: false,
  errors: [],
  noResults: false,
  hasNext: false,
  texts: {},
  counts: {},
})

const open: GoalPart = { kind: "open", description: 'open "Shipping" tab', check: { type: "pageChanged" } }

const click = (overrides: Partial<PartStep>): PartStep => ({
  part: 0,
  tool: "click",
  ok: true,
  data: { ok: true, changed: true, signals: [] },
  signals: [],
  urlBefore: "http://site.test/tabs",
  urlAfter: "http://site.test/tabs",
  facts: facts("Settings"),
  ...overrides,
})

const judged = (steps: ReadonlyArray<PartStep>) =>
  verifyParts([open], { steps, records: [], finalPage: facts("Settings") })

describe("open part (pageChanged)", () => {
  it("open holds when the click showed new content on the same page (a tab panel, a menu, a dialog)", () => {
    expect(judged([click({})])).toEqual([])
  })

  it("open holds when the click moved to an anchor of the same page", () => {
    expect(
      judged([
        click({ data: { changed: false }, urlAfter: "http://site.test/tabs#docs", signals: ["NoOp"] }),
      ]),
    ).toEqual([])
  })

  it("open does not hold when the click changed nothing", () => {
    const unmet = judged([
      click({ data: { ok: true, changed: false, signals: ["NoOp"] }, signals: ["NoOp"] }),
    ])
    expect(unmet).toHaveLength(1)
    expect(unmet[0]?.evidence).toContain("the page stayed at")
  })

  const element = (name: string, role = "tab") => ({
    ref: "e1",
    role,
    name,
    tag: "button",
    attributes: {},
    visible: true,
    selectors: [],
    frame: [],
  })

  it("open holds when the item clicked is the one named", () => {
    expect(judged([click({ actedElement: element("Shipping") })])).toEqual([])
    const wrapped = verifyParts(
      [{ kind: "open", description: 'open "Returns页面"', check: { type: "pageChanged" } }],
      {
        steps: [click({ actedElement: element("Returns", "link") })],
        records: [],
        finalPage: facts("Returns"),
      },
    )
    expect(wrapped).toEqual([])
  })

  it("open holds when the name asked adds only a kind word (folder, window) or spells the item with a hyphen", () => {
    const open = (description: string, acted: string) =>
      verifyParts([{ kind: "open", description, check: { type: "pageChanged" } }], {
        steps: [click({ actedElement: element(acted, "link"), urlAfter: "http://site.test/next" })],
        records: [],
        finalPage: facts("Next", "http://site.test/next"),
      })
    expect(open('open "Invoices folder"', "📁 Invoices")).toEqual([])
    expect(open('open "sign-up window"', "Sign up")).toEqual([])
    // A kind word does not make any item the one asked for.
    expect(open('open "Invoices folder"', "📁 Receipts")[0]?.evidence).toContain(
      'the last item opened was "📁 Receipts", not "Invoices folder"',
    )
  })

  it("open does not hold when the click changed the page but acted on another item (a shorter name, a neighbour)", () => {
    const unmet = judged([
      click({ actedElement: element("Ship") }),
      click({ actedElement: element("Billing") }),
    ])
    expect(unmet).toHaveLength(1)
    expect(unmet[0]?.evidence).toContain('the last item opened was "Billing", not "Shipping"')
    const moved = verifyParts(
      [
        {
          kind: "open",
          description: 'open "Order history" in "Account" menuitem',
          check: { type: "pageChanged" },
        },
      ],
      {
        steps: [click({ actedElement: element("Order", "link"), urlAfter: "http://site.test/orders" })],
        records: [],
        finalPage: facts("Orders", "http://site.test/orders"),
      },
    )
    expect(moved[0]?.evidence).toContain('the last item opened was "Order", not "Order history"')
  })

  it("open of a dialog holds only when a dialog is shown, not when the click went to another page", () => {
    const dialog: GoalPart = {
      kind: "open",
      description: 'open "Sign up" dialog',
      check: { type: "pageChanged" },
    }
    const judge = (steps: ReadonlyArray<PartStep>) =>
      verifyParts([dialog], { steps, records: [], finalPage: facts("Shop") }).map((unmet) => unmet.evidence)
    const shown = { ...facts("Shop"), dialogShown: true }
    expect(judge([click({ facts: shown })])).toEqual([])
    // A link to a page of its own moved the browser, which opened no dialog.
    const away = click({
      urlAfter: "http://site.test/register",
      facts: { ...facts("Register", "http://site.test/register"), dialogShown: false },
    })
    expect(judge([away])).toEqual([
      "no dialog is shown on http://site.test/register (the click went to another page from http://site.test/tabs)",
    ])
  })

  it("open of an item a click only selects holds only when something shows it opened", () => {
    const file: GoalPart = { kind: "open", description: 'open "budget.xlsx"', check: { type: "pageChanged" } }
    const judge = (steps: ReadonlyArray<PartStep>) =>
      verifyParts([file], { steps, records: [], finalPage: facts("Files") }).map((unmet) => unmet.evidence)
    const item = (role: string, expanded?: boolean) => ({
      ref: "e9",
      role,
      name: "budget.xlsx",
      tag: "li",
      attributes: {},
      visible: true,
      selectors: [],
      frame: [],
      ...(expanded === undefined ? {} : { expanded }),
    })
    const files = facts("Files")
    // The click selected the file in its tree: the page changed, but no view of the file is shown.
    expect(judge([click({ facts: files, actedElement: item("treeitem") })])).toEqual([
      'treeitem "budget.xlsx" was only selected on http://site.test/tabs: nothing shows it opened (the URL and the heading stayed)',
    ])
    expect(judge([click({ facts: files, actedElement: item("option") })])).toHaveLength(1)
    // A heading that now names it, or a page of its own, shows it opened.
    const folder = click({ facts: files, actedElement: { ...item("treeitem", false), name: "Finance" } })
    expect(judge([folder, click({ facts: facts("budget.xlsx"), actedElement: item("treeitem") })])).toEqual(
      [],
    )
    expect(
      judge([
        click({ facts: files, urlAfter: "http://site.test/files/budget", actedElement: item("treeitem") }),
      ]),
    ).toEqual([])
    // A folder (an item with an expanded state) opens in place.
    expect(judge([click({ facts: files, actedElement: item("treeitem", false) })])).toEqual([])
  })

  it("open does not hold when the click failed", () => {
    expect(judged([click({ ok: false, message: "no element" })])).toHaveLength(1)
  })
})

describe("search part (searched)", () => {
  const search: GoalPart = {
    kind: "search",
    description: 'search for "brass"',
    check: { type: "searched", query: "brass" },
  }
  const page = (url: string, overrides: Partial<PageFacts> = {}): PageFacts => ({
    ...facts("Products", url),
    texts: { brass: true },
    ...overrides,
  })
  const step = (tool: string, signals: ReadonlyArray<string>, after: PageFacts): PartStep => ({
    part: undefined,
    tool,
    ok: true,
    data: { ok: true, changed: true, signals },
    signals,
    urlBefore: "http://site.test/products",
    urlAfter: after.url,
    facts: after,
  })
  const judge = (steps: ReadonlyArray<PartStep>) =>
    verifyParts([search], { steps, records: [], finalPage: steps.at(-1)?.facts ?? page("about:blank") })

  it("does not hold when the page only shows the word and new items appeared (no field, no URL names it)", () => {
    const unmet = judge([step("click", ["ResultsAppeared"], page("http://site.test/products?page=2"))])
    expect(unmet.map((part) => part.evidence)).toEqual([
      'no search for "brass" happened: no search field on http://site.test/products?page=2 holds it and the URL does not name it',
    ])
  })

  it("does not hold when the term is typed into the search field but nothing was sent", () => {
    const typed = page("http://site.test/search", { searchValues: ["brass"] })
    expect(judge([step("fill", [], typed)]).map((part) => part.evidence)).toEqual([
      'no search for "brass" was sent: nothing was submitted and no results appeared on http://site.test/search',
    ])
  })

  it("holds when the search field holds the term and the form was submitted", () => {
    const sent = page("http://site.test/search", { searchValues: ["Brass"] })
    expect(judge([step("click", ["FormSubmitted"], sent)])).toEqual([])
  })

  it("holds when the URL's query names the term (a search results URL), even with + for spaces", () => {
    const part = { ...search, check: { type: "searched" as const, query: "brass lamp" } }
    const results = page("http://site.test/search?q=Brass+lamp")
    expect(
      verifyParts([part], { steps: [step("press", [], results)], records: [], finalPage: results }),
    ).toEqual([])
  })

  it("holds when the run went through a results URL with the term and then opened a result", () => {
    const results = step("click", ["FormSubmitted"], page("http://site.test/search?q=brass"))
    const opened = step("click", ["NavigationOccurred"], page("http://site.test/products/7"))
    // Steps of a model policy name no part and carry no page facts, only where they landed.
    const bare = (from: PartStep): PartStep => ({ ...from, facts: undefined })
    expect(
      verifyParts([search], {
        steps: [bare(results), bare(opened)],
        records: [],
        finalPage: page("http://site.test/products/7"),
      }),
    ).toEqual([])
  })

  it("reads a URL with a malformed escape instead of failing", () => {
    const odd = page("http://site.test/search?q=%E0%A4%A")
    expect(judge([step("press", [], odd)])).toHaveLength(1)
  })
})

describe("action parts (actionsSucceeded) are judged by what the page shows", () => {
  const part = (kind: GoalPart["kind"], description: string): GoalPart => ({
    kind,
    description,
    check: { type: "actionsSucceeded" },
  })
  const unmetOf = (goal: GoalPart, steps: ReadonlyArray<PartStep>) =>
    verifyParts([goal], { steps, records: [], finalPage: facts("Settings") }).map((unmet) => unmet.evidence)
  const noOp = { data: { ok: true, changed: false, signals: ["NoOp"] }, signals: ["NoOp"] }

  it("is not done when the page shows no change (NoOp), a plain press of a named button included", () => {
    expect(unmetOf(part("click", 'expand "Shipping details"'), [click(noOp)])).toEqual([
      "click changed nothing on http://site.test/tabs (no visible change)",
    ])
    expect(unmetOf(part("click", 'close "Cookie banner"'), [click(noOp)])).toHaveLength(1)
    // A press the page does not show cannot be told from a press that did nothing.
    expect(unmetOf(part("click", 'click "Archive"'), [click(noOp)])).toEqual([
      "click changed nothing on http://site.test/tabs (no visible change)",
    ])
    // A tool that reports nothing about the page shows nothing either.
    const silent = click({ tool: "clickTextMatches", data: { clicked: 1 } })
    expect(unmetOf(part("click", 'click "Add to cart"'), [silent])).toHaveLength(1)
    expect(unmetOf(part("click", 'expand "Shipping details"'), [silent])).toHaveLength(1)
  })

  it("reads the outcome of a tool that acts through another (clickTextMatches' result)", () => {
    const through = (changed: boolean) =>
      click({ tool: "clickTextMatches", data: { clicked: [], matches: 1, result: { changed, signals: [] } } })
    expect(unmetOf(part("click", 'click "Add to cart"'), [through(true)])).toEqual([])
    expect(unmetOf(part("click", 'click "Add to cart"'), [through(false)])).toEqual([
      "clickTextMatches changed nothing on http://site.test/tabs (no visible change)",
    ])
  })

  it("is done when the action changed the page, or moved it", () => {
    expect(unmetOf(part("click", 'click "Expand all"'), [click({})])).toEqual([])
    expect(
      unmetOf(part("back", "go back"), [
        click({
          tool: "back",
          data: { url: "http://site.test/", title: "Home" },
          urlBefore: "http://site.test/x",
        }),
      ]),
    ).toEqual([])
  })

  it("a goal part whose only check is that its actions succeeded ends FAILED when nothing shows them", () => {
    expect(unmetOf(part("other", "drag"), [click({ tool: "drag", data: { done: true } })])).toEqual([
      "drag reported no change on http://site.test/tabs, and the page did not move",
    ])
  })

  it("counts a copy done only when the copied words were put somewhere after it", () => {
    const copy = part("other", 'copy "coupon code"')
    const selected = click({ tool: "selectText", value: "SPRING-25", ...noOp })
    const typed = (value: string) => click({ part: 1, tool: "fill", value })
    // Selected and left on the clipboard: the page shows nothing of it.
    expect(unmetOf(copy, [selected])).toEqual([
      'the copied text "SPRING-25" was not put anywhere on the page after it was selected',
    ])
    expect(unmetOf(copy, [selected, typed("WINTER-10")])).toHaveLength(1)
    // Pasted into a field by a later step (of another part): the copy is seen there.
    expect(unmetOf(copy, [selected, typed("spring-25")])).toEqual([])
    // Typed before the copy is no evidence of it.
    expect(unmetOf(copy, [typed("SPRING-25"), selected])).toHaveLength(1)
  })

  it("counts a menu path done only when its last item was reached", () => {
    const item = (name: string) => ({
      ref: name,
      role: "menuitem",
      name,
      tag: "div",
      attributes: {},
      visible: true,
      selectors: [],
      frame: [],
    })
    const path = part("click", "click File > Export")
    // Only "File" was clicked: the menu opened, but Export was never reached.
    expect(unmetOf(path, [click({ acted: "File", actedElement: item("File") })])).toEqual([
      'the menu path File > Export stopped before "Export": the last item clicked was "File"',
    ])
    expect(
      unmetOf(path, [
        click({ acted: "File", actedElement: item("File") }),
        click({ acted: "Export", actedElement: item("Export") }),
      ]),
    ).toEqual([])
  })

  it("holds a navigation when the page it opened is shown", () => {
    const go = click({ tool: "navigate", data: { url: "http://site.test/tabs", title: "Tabs" } })
    expect(
      unmetOf(part("navigate", "go to http://site.test/tabs"), [{ ...go, urlBefore: "about:blank" }]),
    ).toEqual([])
    expect(
      unmetOf(part("navigate", "go to http://site.test/tabs"), [
        { ...go, urlBefore: "about:blank", urlAfter: "about:blank" },
      ]),
    ).toEqual(["navigate left the browser on about:blank"])
  })
})

describe("extract part (records)", () => {
  const extract = (fields: ReadonlyArray<string>): GoalPart => ({
    kind: "extract",
    description: "extract the products",
    check: { type: "records", fields: [...fields], min: 1 },
  })
  const extracted = (records: ReadonlyArray<unknown>): PartStep => ({
    part: 0,
    tool: "extractList",
    ok: true,
    data: { records },
    signals: [],
    urlBefore: "http://site.test/products",
    urlAfter: "http://site.test/products",
    facts: facts("Products", "http://site.test/products"),
  })
  const evidenceOf = (part: GoalPart, records: ReadonlyArray<unknown>) =>
    verifyParts([part], {
      steps: [extracted(records)],
      records,
      finalPage: facts("Products", "http://site.test/products"),
    }).map((unmet) => unmet.evidence)

  it("a part naming no fields does not hold on records that hold nothing", () => {
    expect(evidenceOf(extract([]), [{}])).toEqual(["1 of 1 records hold no non-empty value"])
    expect(
      evidenceOf(extract([]), [{ name: "Lamp" }, { name: " ", tags: [], spec: {}, price: null }]),
    ).toEqual(["1 of 2 records hold no non-empty value"])
  })

  it("a part naming no fields holds on records that each hold a value", () => {
    expect(evidenceOf(extract([]), [{ name: "Lamp" }, { price: 0 }])).toEqual([])
  })

  it("a part naming fields still needs each of them in each record", () => {
    expect(evidenceOf(extract(["name", "price"]), [{ name: "Lamp", price: 12 }, { name: "Desk" }])).toEqual([
      "'price' is missing or empty in 1 of 2 records",
    ])
  })

  it("says in words that each record must hold a value", () => {
    expect(describeGoalCheck({ type: "records", fields: [], min: 1 })).toBe(
      "at least 1 record, each holding a non-empty value",
    )
  })
})

describe("logged-in part on a sign-in that is not over", () => {
  const login: GoalPart = { kind: "login", description: "log in", check: { type: "loggedIn" } }
  const afterLogin = (signInUnfinished: string): PartStep =>
    click({
      tool: "login",
      data: { loggedIn: true },
      urlAfter: "http://site.test/login",
      facts: { ...facts("Sign in", "http://site.test/login"), signInUnfinished },
    })

  it("says what the page shows in the words of the login tool's SignInUnfinished, for a code and a lock", () => {
    for (const asks of ['one-time code field "Verification code"', "This account is locked."]) {
      const unmet = verifyParts([login], {
        steps: [afterLogin(asks)],
        records: [],
        finalPage: facts("Sign in", "http://site.test/login"),
      })
      const error = new SignInUnfinished({ asks, url: "http://site.test/login" })
      expect(unmet.map((part) => part.evidence)).toEqual([error.finding])
      expect(error.message).toContain(error.finding)
    }
  })
})
