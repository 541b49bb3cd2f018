// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env.NAME}` as plain text is what these tests feed the exporters
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TraceRecord } from "@sextant/executor"
import { afterAll, describe, expect, it } from "vitest"
import {
  type ApiExchange,
  type AppMap,
  exportApiTests,
  exportWdioScript,
  type FieldValue,
  formatTestSuite,
  generateTests,
  type Locator,
  parseTestSuite,
  runToTestSuite,
  type TestSuite,
} from "../src/index.ts"
import {
  expectedWdioCalls,
  type FakeResponse,
  type GeneratedRun,
  runGenerated,
  syntaxErrors,
} from "./support/GeneratedCode.ts"

// Every payload, if it ever became code, writes this file.
const markerDirectory = mkdtempSync(join(tmpdir(), "sextant-hostile-exports-"))
const MARKER = join(markerDirectory, "MARKER")
afterAll(() => rmSync(markerDirectory, { recursive: true, force: true }))

const write = `process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(MARKER)},"x")`
const writeSingle = `process.getBuiltinModule('node:fs').writeFileSync('${MARKER}','x')`

/** Texts a page, a run or traffic can hold: every way out of a literal or a comment, and invisible tricks. */
const HOSTILE: ReadonlyArray<string> = [
  `\u2028${write}//`,
  `\u2029${write}//`,
  `\u0085${write}//`,
  `\n${write}//`,
  `\r${write}//`,
  `\r\n${write}//`,
  `*/${write}/*`,
  `/*`,
  `// ${write}`,
  `\`;${write};\``,
  `\${${write}}`,
  "${env.HOME}",
  "user ${env.FOO} and ${process.env.FOO}",
  "${env.SHOP_PASSWORD}",
  `</script><script>${write}</script>`,
  `"+${write}+"`,
  `'+${writeSingle}+'`,
  `\\"+${write}//`,
  `\\u2028${write}`,
  `nul\u0000byte and \u0007 bell and \u001b[31m escape`,
  `rtl \u202e${write}\u202c \u2066isolate\u2069 \u200e\u200f \ufeffbom`,
  `lone \ud800 high and \udc00 low, pair 😀`,
  "<secret:other>",
]

const BASE = "http://127.0.0.1:9"
const ENVIRONMENT = {
  HOME: "/home/leaked-home-value",
  FOO: "leaked-foo-value",
  SHOP_PASSWORD: "marked-shop-password",
  SEXTANT_SECRET_PASSWORD: "marked-secret-password",
  SEXTANT_SECRET_OTHER: "leaked-other-secret",
  API_COOKIE: "session=cookie-value",
}
const LEAKED = /leaked-/

/** Characters that must never stand raw in generated source: line terminators, controls, bidi and format marks, lone surrogates. */
const AMBIGUOUS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

// A URL holds no lone surrogate: the browser would have replaced it before the run saw it.
const encode = (text: string): string => encodeURIComponent(text.toWellFormed())

const locator = (index: number, kind: string, text: string): Locator => ({
  role: `${kind}${text}`,
  name: `${kind} ${text}`,
  selector: `#${kind}-${index} ${text}`,
})

/** Checks a generated file parses, reads unambiguously, ran with exit 0 and wrote no marker. */
const expectSafeRun = (source: string, fileName: string, run: GeneratedRun): void => {
  expect(existsSync(MARKER)).toBe(false)
  expect(syntaxErrors(source, fileName)).toEqual([])
  expect(source).not.toMatch(AMBIGUOUS)
  expect(run.output).toBe("")
  expect(run.code).toBe(0)
  expect(run.calls.filter((call) => call[0] === "error")).toEqual([])
  // `${env.HOME}`, `${env.FOO}` and `<secret:other>` in the texts are data: none of them is read.
  expect(run.envReads.filter((name) => ["HOME", "FOO", "SEXTANT_SECRET_OTHER"].includes(name))).toEqual([])
  expect(JSON.stringify(run.calls)).not.toMatch(LEAKED)
}

/** A suite that puts every hostile text into every string a WebdriverIO export takes from a spec. */
const hostileSuite = (): TestSuite => ({
  version: 1,
  name: `suite ${HOSTILE.join(" ")}`,
  baseUrl: BASE,
  tests: HOSTILE.map((text, index) => {
    const field = (fieldType: FieldValue["fieldType"]): FieldValue => ({
      target: locator(index, fieldType, text),
      fieldType,
      value: text,
    })
    return {
      name: `test ${index} ${text}`,
      startUrl: `/start/${text}`,
      steps: [
        { type: "Navigate", url: `/next?q=${text}` },
        { type: "Click", target: locator(index, "button", text) },
        { type: "Hover", target: locator(index, "menu", text) },
        { type: "Press", key: `Shift+${text}`, target: locator(index, "textbox", text) },
        { type: "Press", key: text },
        {
          type: "FillForm",
          fields: [
            field("text"),
            field("textarea"),
            field("select"),
            field("radio"),
            field("checkbox"),
            field("file"),
            { target: locator(index, "password", text), fieldType: "password", variable: "SHOP_PASSWORD" },
          ],
        },
        { type: "FillAndSubmit", fields: [field("email")], submit: locator(index, "submit", text) },
        { type: "Wait", ms: 1, text, selector: text, state: "hidden" },
        { type: "Wait", selector: text, state: "present" },
        { type: "Wait", selector: text },
        { type: "Assert", assertion: { type: "UrlContains", text } },
        { type: "Assert", assertion: { type: "UrlEquals", url: `/end/${text}` } },
        { type: "Assert", assertion: { type: "TitleContains", text } },
        { type: "Assert", assertion: { type: "TextPresent", text } },
        { type: "Assert", assertion: { type: "TextAbsent", text } },
        { type: "Assert", assertion: { type: "ElementText", target: locator(index, "status", text), text } },
        { type: "Assert", assertion: { type: "ElementVisible", target: locator(index, "heading", text) } },
        { type: "Assert", assertion: { type: "ElementCount", selector: text, count: 2 } },
      ],
    }
  }),
})

/** A map whose every page title, label, option, outcome text and locator is hostile. */
const hostileMap = (): AppMap => ({
  version: 1,
  startUrl: `${BASE}/`,
  createdAt: "2026-01-01T00:00:00.000Z",
  transitions: [],
  skipped: [],
  pages: HOSTILE.map((text, index) => {
    const url = `${BASE}/page-${index}/${encode(text)}`
    const formName = `form ${text}`
    return {
      id: `p${index}`,
      fingerprint: `f${index}`,
      url,
      aliases: [],
      depth: 0,
      model: {
        url,
        title: text,
        purpose: text,
        category: "Login",
        analyzer: "rules",
        outputs: [text],
        navigationTargets: [],
        suggestedAssertions: [
          { type: "TitleContains", text },
          { type: "TextPresent", text },
          { type: "ElementVisible", locator: locator(index, "heading", text) },
        ],
        forms: [
          {
            purpose: "login",
            name: formName,
            submit: locator(index, "button", text),
            fields: [
              {
                label: "Password",
                fieldType: "password",
                required: true,
                suggestedValue: text,
                locator: locator(index, "password", text),
              },
              {
                label: `label ${text}`,
                fieldType: "text",
                required: true,
                suggestedValue: text,
                locator: locator(index, "textbox", text),
              },
              {
                label: `choice ${text}`,
                fieldType: "select",
                required: false,
                suggestedValue: text,
                options: [text, "${env.HOME}"],
                locator: locator(index, "combobox", text),
              },
              {
                label: `note ${text}`,
                fieldType: "textarea",
                required: false,
                suggestedValue: text,
                locator: locator(index, "note", text),
              },
            ],
          },
        ],
      },
      formOutcomes: {
        [formName]: [
          { variant: "valid", url: `${url}/done`, appeared: [text], signals: [] },
          {
            variant: "missing-required",
            emptyField: `label ${text}`,
            url,
            appeared: [text],
            signals: [],
          },
        ],
      },
    }
  }),
})

/** A recorded run that typed, chose, pressed, clicked and waited for hostile texts. */
const hostileTrace = (): Array<TraceRecord> => {
  const at = "2026-01-01T00:00:00.000Z"
  const start = `${BASE}/start`
  const act = (op: string, element: Record<string, unknown>, value: unknown, url = start) => ({
    kind: "act",
    op,
    element,
    value,
    urlBefore: start,
    url,
  })
  const records = [
    { type: "run-start", taskId: "t", goal: `goal ${HOSTILE.join(" ")}`, mode: "agent", resumed: false },
    {
      type: "recorded",
      step: 1,
      exchanges: [],
      actions: [
        { kind: "navigate", via: "navigate", url: start },
        ...HOSTILE.flatMap((text, index) => [
          act("input", { role: "textbox", name: text, selector: `#in-${index} ${text}` }, text),
          act("select", { role: "combobox", name: text, selector: `#sel-${index} ${text}` }, [text]),
          act("press", { selector: ":focus" }, text),
          act("press", { role: "textbox", name: text, selector: `#key-${index} ${text}` }, `Control+${text}`),
          act("hover", { role: "menu", name: text, selector: `#menu-${index} ${text}` }, undefined),
          { kind: "wait", condition: { text } },
          { kind: "wait", condition: { selector: text, state: "hidden" } },
        ]),
        act("input", { role: "textbox", name: "Password", selector: "#password" }, "<secret:password>"),
        act("input", { role: "textbox", name: "Other", selector: "#other" }, "<secret:other>"),
        act(
          "click",
          { role: "button", name: HOSTILE[0], selector: `#go ${HOSTILE[0]}` },
          undefined,
          `${BASE}/next`,
        ),
      ],
    },
    {
      type: "verified",
      parts: HOSTILE.map((text) => ({ part: text, check: { type: "textPresent", text }, held: true })),
    },
    { type: "run-end", status: "COMPLETED", endReason: "completed", metrics: {} },
  ]
  return records.map((record) => ({ ...record, runId: "run-hostile", at })) as unknown as Array<TraceRecord>
}

const fieldsOf = (suite: TestSuite): Array<FieldValue> =>
  suite.tests.flatMap((test) =>
    test.steps.flatMap((step) =>
      step.type === "FillForm" || step.type === "FillAndSubmit" ? step.fields : [],
    ),
  )

const WDIO_ENV = new Set(["BASE_URL", "SEXTANT_CHROME", "SEXTANT_CHROMEDRIVER"])

describe("exportWdioScript with hostile texts", () => {
  it("runs each payload alone as data: in the suite's and the test's name, a locator and a typed value, no marker is written", async () => {
    for (const [index, text] of HOSTILE.entries()) {
      const suite: TestSuite = {
        version: 1,
        name: text,
        baseUrl: BASE,
        tests: [
          {
            name: `page "${text}"`,
            startUrl: "/",
            steps: [
              { type: "Click", target: locator(index, "button", text) },
              {
                type: "FillForm",
                fields: [{ target: locator(index, "textbox", text), fieldType: "text", value: text }],
              },
            ],
          },
        ],
      }
      const source = exportWdioScript(suite, { timeoutMs: 10 })
      const run = await runGenerated(source, `payload-${index}.wdio.ts`, { ...ENVIRONMENT, BASE_URL: BASE })
      expectSafeRun(source, `payload-${index}.wdio.ts`, run)
      expect(run.calls).toEqual(expectedWdioCalls(suite, BASE, ENVIRONMENT))
    }
  }, 120_000)

  it("writes every text of a spec as data: the script parses, runs only its steps with the texts intact, and reads only marked variables", async () => {
    const suite = hostileSuite()
    const source = exportWdioScript(suite, { baseUrl: BASE, timeoutMs: 10 })
    const run = await runGenerated(source, "hostile-spec.wdio.ts", { ...ENVIRONMENT, BASE_URL: BASE })
    expectSafeRun(source, "hostile-spec.wdio.ts", run)
    expect(run.calls).toEqual(expectedWdioCalls(suite, BASE, ENVIRONMENT))
    expect([...new Set(run.envReads)].sort()).toEqual([
      "BASE_URL",
      "SEXTANT_CHROME",
      "SEXTANT_CHROMEDRIVER",
      "SHOP_PASSWORD",
    ])
  }, 60_000)

  it("turns no page text into an environment read when tests are generated from a hostile app map", async () => {
    const suite = generateTests(hostileMap(), {
      name: HOSTILE.join(" "),
      secrets: { Password: "SHOP_PASSWORD" },
    })
    const fields = fieldsOf(suite)
    // Only the field the user named is a variable; every suggested value is the page's text, as it was.
    expect(fields.filter((field) => field.variable !== undefined).map((field) => field.target.name)).toEqual(
      fields.filter((field) => field.fieldType === "password").map((field) => field.target.name),
    )
    expect(new Set(fields.flatMap((field) => (field.value === undefined ? [] : [field.value])))).toEqual(
      new Set(HOSTILE),
    )
    expect(suite.tests.map((test) => test.name).join("\n")).toContain(HOSTILE[0])
    expect(parseTestSuite(formatTestSuite(suite, "json"), "json")).toEqual(suite)
    expect(parseTestSuite(formatTestSuite(suite, "yaml"), "yaml")).toEqual(suite)

    const source = exportWdioScript(suite, { timeoutMs: 10 })
    const run = await runGenerated(source, "hostile-map.wdio.ts", { ...ENVIRONMENT, BASE_URL: BASE })
    expectSafeRun(source, "hostile-map.wdio.ts", run)
    expect(run.calls).toEqual(expectedWdioCalls(suite, BASE, ENVIRONMENT))
    // The page's "${env.SHOP_PASSWORD}" was typed as text; the password was read for the password fields only.
    expect(run.calls).toContainEqual(["setValue", "${env.SHOP_PASSWORD}"])
    expect(run.calls).toContainEqual(["setValue", "${env.HOME}"])
    expect(new Set(run.envReads)).toEqual(new Set([...WDIO_ENV, "SHOP_PASSWORD"]))
  }, 60_000)

  it("replays a hostile recorded run with the typed values, options and keys as text, and reads only the run's marked secret", async () => {
    const { suite } = runToTestSuite(hostileTrace(), { secrets: ["password"] })
    const fields = fieldsOf(suite)
    expect(fields.filter((field) => field.variable !== undefined)).toEqual([
      {
        target: { role: "textbox", name: "Password", selector: "#password" },
        fieldType: "text",
        variable: "SEXTANT_SECRET_PASSWORD",
      },
    ])
    expect(fields.find((field) => field.target.selector === "#other")?.value).toBe("<secret:other>")
    expect(parseTestSuite(formatTestSuite(suite, "yaml"), "yaml")).toEqual(suite)

    const source = exportWdioScript(suite, { timeoutMs: 10 })
    const run = await runGenerated(source, "hostile-run.wdio.ts", { ...ENVIRONMENT, BASE_URL: BASE })
    expectSafeRun(source, "hostile-run.wdio.ts", run)
    expect(run.calls).toEqual(expectedWdioCalls(suite, BASE, ENVIRONMENT))
    for (const text of HOSTILE) {
      expect(run.calls).toContainEqual(["setValue", text])
      expect(run.calls).toContainEqual(["selectByVisibleText", text])
      expect(run.calls).toContainEqual(["keys", text.split("+")])
    }
    expect(run.calls).toContainEqual(["setValue", "marked-secret-password"])
    expect(new Set(run.envReads)).toEqual(new Set([...WDIO_ENV, "SEXTANT_SECRET_PASSWORD"]))
  }, 60_000)
})

describe("exportApiTests with hostile traffic", () => {
  it("writes every text of the traffic as data: the tests parse, send exactly the observed requests and accept the observed bodies", async () => {
    const exchanges: Array<ApiExchange> = HOSTILE.map((text, index) => ({
      method: index === 1 ? `post${text}` : "POST",
      url: `${BASE}/api/${index}/${encode(text)}?q=${encode(text)}`,
      requestBody: JSON.stringify({ q: text, password: "<secret:password>", home: "${env.HOME}" }),
      requestContentType: `application/json; ${text}`,
      status: 200,
      responseContentType: "application/json",
      responseBody: JSON.stringify({
        [text]: text,
        items: [{ [text]: index, name: text }],
        nested: { [text]: [text] },
      }),
    }))
    exchanges.push({
      method: "GET",
      url: `${BASE}/api/secret/%3Csecret%3Apassword%3E`,
      status: 201,
      responseContentType: "application/json",
      responseBody: '{"__proto__": {"polluted": true}, "constructor": "x", "${env.HOME}": 1}',
    })
    const source = exportApiTests(exchanges, { name: `API ${HOSTILE.join(" ")}`, secrets: ["password"] })
    const answers: Array<FakeResponse> = exchanges.map((exchange) => ({
      method: exchange.method.toUpperCase(),
      url: new URL(exchange.url.replace("%3Csecret%3Apassword%3E", "marked-secret-password")).href,
      status: exchange.status,
      body: exchange.responseBody ?? "null",
    }))
    const run = await runGenerated(
      source,
      "hostile.api.test.ts",
      { ...ENVIRONMENT, API_BASE_URL: BASE },
      answers,
    )
    expectSafeRun(source, "hostile.api.test.ts", run)

    const fetched = run.calls.filter((call) => call[0] === "fetch")
    expect(fetched).toEqual(
      exchanges.map((exchange, index) => [
        "fetch",
        answers[index]?.url,
        exchange.method.toUpperCase(),
        {
          accept: "application/json",
          ...(exchange.requestBody === undefined ? {} : { "content-type": exchange.requestContentType }),
          cookie: ENVIRONMENT.API_COOKIE,
        },
        exchange.requestBody?.replace("<secret:password>", "marked-secret-password") ?? null,
      ]),
    )
    // Each status and each observed body's shape held: the keys and texts arrived intact.
    const verdicts = run.calls.filter((call) => call[0] === "expect")
    expect(verdicts).toHaveLength(exchanges.length * 2)
    expect(verdicts.filter((call) => call[1] !== true)).toEqual([])
    expect(run.calls.filter((call) => call[0] === "it")).toHaveLength(exchanges.length)
    expect(run.calls[0]).toEqual(["describe", `API ${HOSTILE.join(" ")}`])
    expect(new Set(run.envReads)).toEqual(new Set(["API_BASE_URL", "API_COOKIE", "SEXTANT_SECRET_PASSWORD"]))
  }, 60_000)
})

describe("a test spec's fields", () => {
  const spec = (field: string) => `name: s
tests:
  - name: t
    startUrl: /
    steps:
      - type: FillForm
        fields:
          - target: { role: textbox, name: Note, selector: "#note" }
            fieldType: text
${field}`

  it("reads `${env.NAME}` in a value as text and only `variable` as an environment read", () => {
    const literal = parseTestSuite(spec("            value: ${env.HOME}"), "yaml")
    expect(fieldsOf(literal).map((field) => [field.value, field.variable])).toEqual([
      ["${env.HOME}", undefined],
    ])
    expect(exportWdioScript(literal)).not.toContain('secret("HOME")')
    const marked = parseTestSuite(spec("            variable: NOTE_TEXT"), "yaml")
    expect(exportWdioScript(marked)).toContain('setValue(secret("NOTE_TEXT"))')
  })

  it("refuses a field with both a value and a variable, or a variable that is not an environment name", () => {
    expect(() =>
      parseTestSuite(spec("            value: x\n            variable: NOTE_TEXT"), "yaml"),
    ).toThrow(/tests\.0\.steps\.0\.fields\.0: give a field either value/)
    expect(() => parseTestSuite(spec('            variable: "A; rm -rf /"'), "yaml")).toThrow(
      /fields\.0\.variable: name an environment variable/,
    )
  })
})
