import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { beforeAll, describe, expect, it } from "vitest"
import {
  type AppMap,
  explore,
  formatConsoleReport,
  formatHealReport,
  formatJunitXml,
  formatTestSuite,
  generateTests,
  healSuite,
  parseTestSuite,
  runSuite,
  secretVariables,
  TestSpecError,
  type TestSuite,
  writeHealPatch,
} from "../src/index.ts"
import { useBrowser } from "./support/Browser.ts"

const browser = useBrowser()
const env = { SHOP_PASSWORD: "wonderland" }
let map: AppMap
let suite: TestSuite

beforeAll(async () => {
  const site = await browser.site()
  map = await browser.run(
    explore(`${site.url}/`, {
      maxDepth: 1,
      deny: ["/large", "/dynamic", "/flaky", "/frames", "/injection"],
      submitForms: true,
      values: { Email: "alice@example.com", Password: env.SHOP_PASSWORD, "Search products": "brass" },
    }),
  )
  suite = generateTests(map, { name: "fixture shop", secrets: { Password: "SHOP_PASSWORD" } })
})

describe("generateTests", () => {
  it("writes a smoke test per page and a suggested-values and a required-empty test per submitted form, each named after what it asserts", () => {
    expect(suite.tests.map((test) => test.name)).toEqual([
      'Other page / shows "Home"',
      'Listing page /products shows "Products, page 1"',
      'Search page /search shows "Search"',
      'search form "Product search" on /search filled with the suggested values stays on /search and shows "Brass Sextant"',
      'Search page /search?q=brass shows "Search: brass"',
      'Form page /forms/contact shows "Contact us"',
      'contact form "Contact" on /forms/contact filled with the suggested values stays on /forms/contact and shows "Thank you, Ada Lovelace"',
      'contact form "Contact" on /forms/contact with the required field "Name" left empty stays on /forms/contact, shows "Please enter your name" and keeps the form to fill',
      'Login page /login shows "Sign in"',
      'login form "Sign in" on /login filled with the suggested values goes to /dashboard and shows "Welcome, Alice"',
      'login form "Sign in" on /login with the required field "Email" left empty stays on /login and keeps the form to fill',
      'Dashboard page /dashboard shows "Dashboard"',
      'Detail page /products/1 shows "Brass Sextant"',
    ])
    const login = suite.tests.find((test) => test.name.startsWith('login form "Sign in" on /login filled'))
    expect(login?.steps).toContainEqual(
      expect.objectContaining({
        type: "FillAndSubmit",
        fields: expect.arrayContaining([expect.objectContaining({ variable: "SHOP_PASSWORD" })]),
      }),
    )
    // What the explorer saw after signing in is what the test expects.
    expect(login?.steps).toContainEqual({
      type: "Assert",
      assertion: { type: "UrlContains", text: "/dashboard" },
    })
    expect(login?.steps).toContainEqual({
      type: "Assert",
      assertion: { type: "TextPresent", text: "Welcome, Alice" },
    })
  })

  it("never writes a password into a test: the field the explorer filled with a secret reads the variable secretVariables names, and none without it", () => {
    const named = generateTests(map, { name: "fixture shop", secrets: secretVariables(map) })
    const plain = generateTests(map, { name: "fixture shop" })
    for (const suite of [named, plain]) expect(JSON.stringify(suite)).not.toContain(env.SHOP_PASSWORD)
    const login = (suite: typeof plain) =>
      suite.tests.find((test) => test.name.startsWith('login form "Sign in" on /login filled'))?.steps
    expect(login(named)).toContainEqual(
      expect.objectContaining({
        type: "FillAndSubmit",
        fields: expect.arrayContaining([
          expect.objectContaining({ fieldType: "password", variable: "SEXTANT_SECRET_PASSWORD" }),
          expect.objectContaining({ fieldType: "email", value: "alice@example.com" }),
        ]),
      }),
    )
    // Without names the page's words pick no variable: the placeholder is text, never the environment.
    expect(JSON.stringify(login(plain))).not.toContain("variable")
  })

  it("round-trips a suite through YAML and JSON, and names the bad field of a broken file", () => {
    expect(parseTestSuite(formatTestSuite(suite, "yaml"), "yaml")).toEqual(suite)
    expect(parseTestSuite(formatTestSuite(suite, "json"), "json")).toEqual(suite)
    const broken = formatTestSuite(suite, "yaml").replace("type: TitleContains", "type: TitleHas")
    expect(() => parseTestSuite(broken, "yaml")).toThrow(TestSpecError)
    expect(() => parseTestSuite(broken, "yaml")).toThrow(/tests\.0\.steps\.1\.assertion\.type/)
    expect(() => parseTestSuite("tests: [", "yaml")).toThrow("the test file is not valid YAML")
  })
})

describe("runSuite", () => {
  it("passes every generated test against the site it was generated from", async () => {
    const result = await browser.run(runSuite(suite, { env }))
    console.log(formatConsoleReport(result))
    expect(result.tests.filter((test) => !test.passed).map((test) => test.error?.message)).toEqual([])
    expect(result.passed).toBe(suite.tests.length)
    expect(result.tests.flatMap((test) => test.assertions).every((assertion) => assertion.passed)).toBe(true)
  })

  it("passes the suite generated on seed 0 on a re-seeded site (seed 7, every id renamed) by role and name, and says where it fell back", async () => {
    const renamed = await browser.site({ seed: 7 })
    const result = await browser.run(runSuite(suite, { env, baseUrl: renamed.url }))
    const report = formatConsoleReport(result)
    console.log(report)
    expect(result.tests.filter((test) => !test.passed).map((test) => test.error?.message)).toEqual([])
    const search = result.tests.find((test) => test.name === 'Search page /search shows "Search"')
    expect(search?.fallbacks).toEqual([
      {
        step: 4,
        role: "button",
        name: "Search",
        from: "#search-btn",
        to: expect.stringMatching(/^#search-btn-\w+$/),
      },
    ])
    const login = result.tests.find((test) => test.name.startsWith('login form "Sign in" on /login filled'))
    expect(login?.fallbacks.map((fallback) => fallback.from)).toEqual(["#email", "#password", "#login-btn"])
    expect(report).toMatch(
      /fell back at step 5: button "Search" — #search-btn matches nothing, found by role and name as #search-btn-\w+/,
    )
    expect(report).toContain(`${suite.tests.length} passed, 0 failed`)
    expect(report).toContain(
      "found elements by role and name: sextant heal writes their new selectors into the spec",
    )
    // On the site the suite came from, nothing falls back.
    const plain = await browser.run(runSuite(suite, { env }))
    expect(plain.tests.flatMap((test) => test.fallbacks)).toEqual([])
  })

  it("with fallback off, stops at the first selector that matches nothing, naming it", async () => {
    const renamed = await browser.site({ seed: 7 })
    const search = suite.tests.filter((test) => test.name === 'Search page /search shows "Search"')
    const result = await browser.run(
      runSuite({ ...suite, tests: search }, { env, baseUrl: renamed.url, fallback: false }),
    )
    expect(result.tests[0]?.error).toMatchObject({ kind: "locator", step: 4 })
    expect(result.tests[0]?.error?.message).toBe(
      `step 5 (ElementVisible button "Search"): the selector #search-btn of button "Search" matches nothing on ${renamed.url}/search`,
    )
  })

  it("fails the test whose asserted text changed, with what was expected and what the page shows", async () => {
    const drifted = await browser.site({ drift: ["contact-heading"] })
    const result = await browser.run(runSuite(suite, { env, baseUrl: drifted.url }))
    const report = formatConsoleReport(result)
    console.log(report)
    expect(result.tests.filter((test) => !test.passed).map((test) => test.name)).toEqual([
      'Form page /forms/contact shows "Contact us"',
    ])
    const failed = result.tests.find((test) => !test.passed)
    expect(failed?.error).toMatchObject({ kind: "assertion", step: 3 })
    expect(failed?.error?.message).toMatch(
      /^step 4 \(Assert\): expected the page to show "Contact us"; it shows: "Get in touch Name Email /,
    )
    expect(failed?.assertions.at(-1)).toMatchObject({ passed: false, expected: "Contact us" })
    expect(report).toContain(`✗ Form page /forms/contact shows "Contact us"`)
    expect(report).toContain(`${suite.tests.length - 1} passed, 1 failed`)

    const xml = formatJunitXml(result)
    expect(XMLValidator.validate(xml)).toBe(true)
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml)
    const cases = parsed.testsuites.testsuite.testcase as Array<Record<string, unknown>>
    expect(cases).toHaveLength(suite.tests.length)
    const failure = cases.find((testCase) => testCase.failure !== undefined)?.failure as Record<
      string,
      string
    >
    expect(failure["@_type"]).toBe("assertion")
    expect(failure["@_message"]).toContain('expected the page to show "Contact us"')
  })

  it("stops a test whose secret is not in the environment, naming the variable", async () => {
    const login = suite.tests.filter((test) => test.name.startsWith('login form "Sign in" on /login filled'))
    const result = await browser.run(runSuite({ ...suite, tests: login }, { env: {} }))
    expect(result.tests[0]?.error).toMatchObject({ kind: "input" })
    expect(result.tests[0]?.error?.message).toContain(
      "needs the environment variable SHOP_PASSWORD, which is not set: set it before running the test",
    )
  })
})

describe("healSuite", () => {
  it("re-grounds locators whose ids were renamed (seed 7) by role and name, and the patched suite passes", async () => {
    const renamed = await browser.site({ seed: 7 })
    // A sign-in, a contact form, a search page and the page behind the sign-in: each kind of locator.
    const chosen =
      /^(login form "Sign in" on \/login filled|contact form "Contact" on \/forms\/contact filled|Search page \/search shows|Dashboard page)/
    const subset = { ...suite, tests: suite.tests.filter((test) => chosen.test(test.name)) }
    expect(subset.tests).toHaveLength(4)
    const before = await browser.run(runSuite(subset, { env, baseUrl: renamed.url, fallback: false }))
    console.log(formatConsoleReport(before))
    expect(before.tests.filter((test) => !test.passed).every((test) => test.error?.kind === "locator")).toBe(
      true,
    )
    expect(before.failed).toBe(4)

    const healing = await browser.run(healSuite(subset, { env, baseUrl: renamed.url }))
    console.log(formatHealReport(healing))
    expect(healing.regressions).toEqual([])
    expect(
      healing.outcomes
        .map((outcome) => outcome.status)
        .filter((status) => status !== "passed" && status !== "healed"),
    ).toEqual([])
    expect(healing.patches).toContainEqual(
      expect.objectContaining({
        role: "textbox",
        name: "Email",
        from: "#email",
        to: expect.stringMatching(/^#email-[a-z0-9]+$/),
      }),
    )
    expect(healing.patches).toContainEqual(
      expect.objectContaining({ role: "button", name: "Send message", from: "#contact-submit" }),
    )
    const after = await browser.run(runSuite(healing.healed, { env, baseUrl: renamed.url }))
    expect(after.failed).toBe(0)

    const directory = mkdtempSync(join(tmpdir(), "sextant-heal-"))
    try {
      const [healedPath, reportPath] = await Effect.runPromise(
        writeHealPatch(join(directory, "shop.tests.yaml"), healing),
      )
      expect(healedPath).toBe(join(directory, "shop.tests.healed.yaml"))
      const patched = readFileSync(healedPath, "utf8")
      expect(parseTestSuite(patched, "yaml")).toEqual(healing.healed)
      expect(readFileSync(reportPath, "utf8")).toContain('textbox "Email": #email → #email-')
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })

  it("reports a changed asserted value as a regression and does not heal it, even with ids renamed", async () => {
    const changed = await browser.site({ seed: 7, drift: ["contact-heading"] })
    const contact = suite.tests.filter((test) => test.name === 'Form page /forms/contact shows "Contact us"')
    const healing = await browser.run(healSuite({ ...suite, tests: contact }, { env, baseUrl: changed.url }))
    console.log(formatHealReport(healing))
    expect(healing.outcomes.map((outcome) => outcome.status)).toEqual(["regression"])
    expect(healing.regressions[0]).toMatchObject({
      failure: {
        kind: "assertion",
        message: expect.stringContaining('expected the page to show "Contact us"'),
      },
    })
    expect(healing.healed.tests).toEqual(contact)
    expect(formatHealReport(healing)).toContain("REGRESSION, not healed")
  })
})
