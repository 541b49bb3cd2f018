import type { TraceRecord } from "@sextant/executor"
import { describe, expect, it } from "vitest"
import { runToTestSuite, type TestStep } from "../src/index.ts"

/**
 * A run that signed in, exported as a test: the test must fail when the sign-in fails (a wrong password
 * answered with the form again), not pass on an end URL every page has.
 */

const BASE = "http://127.0.0.1:9"

/** A recorded "log in" that typed the password and ended on `endedOn`, its loggedIn check held. */
const signInRun = (endedOn: string, passwordName = "Password"): ReadonlyArray<TraceRecord> => {
  const at = "2026-01-01T00:00:00.000Z"
  const start = `${BASE}/login`
  return [
    { type: "run-start", taskId: "t", goal: "log in", mode: "agent", resumed: false },
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
          value: "ann@example.com",
          urlBefore: start,
          url: start,
        },
        {
          kind: "act",
          op: "input",
          element: { role: "textbox", name: passwordName, selector: "#password" },
          value: "<secret:password>",
          urlBefore: start,
          url: start,
        },
        {
          kind: "act",
          op: "click",
          element: { role: "button", name: "Sign in", selector: "#login-btn" },
          urlBefore: start,
          url: endedOn,
        },
      ],
    },
    { type: "verified", parts: [{ part: "log in", check: { type: "loggedIn" }, held: true }] },
    { type: "run-end", status: "COMPLETED", endReason: "completed", metrics: {} },
  ].map((record) => ({ ...record, runId: "r", at })) as unknown as ReadonlyArray<TraceRecord>
}

const asserted = (steps: ReadonlyArray<TestStep>) =>
  steps.filter((step) => step.type === "Assert" || step.type === "Wait")

describe("a sign-in run exported as a test", () => {
  it("waits for the password field it typed into to be gone, and asserts a root end URL whole, not as a URL that contains /", () => {
    const { suite } = runToTestSuite(signInRun(`${BASE}/`), { secrets: ["password"] })
    expect(asserted(suite.tests[0]!.steps)).toEqual([
      { type: "Assert", assertion: { type: "UrlEquals", url: "/" } },
      { type: "Wait", selector: "#password", state: "hidden" },
    ])
  })

  it("keeps a deeper end URL as a URL that contains its path", () => {
    const { suite } = runToTestSuite(signInRun(`${BASE}/dashboard`), { secrets: ["password"] })
    expect(asserted(suite.tests[0]!.steps)).toContainEqual({
      type: "Assert",
      assertion: { type: "UrlContains", text: "/dashboard" },
    })
  })

  it("finds the password field by its name when the password was typed as text", () => {
    const { suite } = runToTestSuite(signInRun(`${BASE}/`))
    expect(asserted(suite.tests[0]!.steps)).toContainEqual({
      type: "Wait",
      selector: "#password",
      state: "hidden",
    })
  })

  it("says so when it typed into no field it can watch", () => {
    const { suite, notes } = runToTestSuite(signInRun(`${BASE}/home`, "Secret word"))
    expect(asserted(suite.tests[0]!.steps).some((step) => step.type === "Wait")).toBe(false)
    expect(notes.join("\n")).toContain(
      'the run verified "log in" on the page, but typed into no password field',
    )
  })
})
