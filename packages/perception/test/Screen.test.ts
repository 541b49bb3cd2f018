import { readFileSync } from "node:fs"
import { join } from "node:path"
import { PageSnapshot } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { canonicalState, diffScreens, screenOf } from "../src/index.ts"
import { checkFlowSignals } from "./support/FlowChecks.ts"
import type { RecordedFlows } from "./support/Flows.ts"
import { refOf } from "./support/Look.ts"

const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "flows.json"), "utf8"),
) as Record<string, unknown>
const flows = Object.fromEntries(
  Object.entries(recorded).map(([name, snapshot]) => [name, PageSnapshot.parse(snapshot)]),
) as unknown as RecordedFlows

describe("screen semantics on recorded snapshots", () => {
  it("reads the login form with its fields and submit control", () => {
    const screen = screenOf(flows.login)
    expect(screen.forms).toHaveLength(1)
    const form = screen.forms[0]!
    expect(form.name).toBe("Sign in")
    expect(form.fields).toContain(refOf(flows.login, "textbox", "Email"))
    expect(form.fields).toContain(refOf(flows.login, "textbox", "Password"))
    expect(form.submit).toBe(refOf(flows.login, "button", "Sign in"))
  })

  it("gives the same canonical state to equal screens and another one to a filled form", () => {
    const copy = PageSnapshot.parse(JSON.parse(JSON.stringify(flows.login)))
    expect(canonicalState(copy)).toBe(canonicalState(flows.login))
    expect(canonicalState(flows.loginEmailFilled)).not.toBe(canonicalState(flows.login))
    expect(canonicalState(flows.loginFilled)).toContain("value=<secret>")
    expect(canonicalState(flows.loginFilled)).not.toContain("not-the-password")
  })

  it("sorts outputs into regions: the login error is an alert, search hits are results", () => {
    expect(
      flows.loginFailed.outputs.filter((output) => output.region === "alert").map((output) => output.text),
    ).toEqual(["Invalid email or password"])
    const results = flows.searchResults.outputs.find(
      (output) => output.region === "results" && output.count !== undefined,
    )
    expect(results).toMatchObject({ text: "Search results", count: 12 })
  })

  it("yields the signals of the login and search flows", () => {
    checkFlowSignals(flows)
  })

  it("reports a field that became invalid as an error when no alert text appeared", () => {
    const before = flows.loginFilled
    const passwordRef = refOf(before, "textbox", "Password")
    const after = PageSnapshot.parse({
      ...before,
      elements: { ...before.elements, [passwordRef]: { ...before.elements[passwordRef]!, invalid: true } },
    })
    const diff = diffScreens(before, after)
    expect(diff.signals).toEqual(["ErrorAppeared"])
    expect(diff.errors).toEqual(["Password is invalid"])
  })

  it("counts a toggle button that became pressed as a change, not a no-op", () => {
    const before = flows.login
    const signIn = refOf(before, "button", "Sign in")
    const pressed = (state: boolean) =>
      PageSnapshot.parse({
        ...before,
        elements: { ...before.elements, [signIn]: { ...before.elements[signIn]!, pressed: state } },
      })
    const diff = diffScreens(pressed(false), pressed(true))
    expect(diff.changed).toBe(true)
    expect(diff.signals).not.toContain("NoOp")
  })

  it("reports no FormSubmitted when a link is followed away from a filled form, and one when its submit is clicked", () => {
    const before = flows.loginFilled
    const away = PageSnapshot.parse({ ...flows.search, url: "http://127.0.0.1:4000/search" })
    const link = diffScreens(before, away, { ref: refOf(before, "link", "Search"), op: "click" })
    expect(link.signals).toContain("NavigationOccurred")
    expect(link.signals).not.toContain("FormSubmitted")
    const submit = diffScreens(before, flows.dashboard, {
      ref: refOf(before, "button", "Sign in"),
      op: "click",
    })
    expect(submit.signals).toContain("FormSubmitted")
  })

  it("counts a hash route as navigation and an in-page anchor as none", () => {
    const at = (url: string) => PageSnapshot.parse({ ...flows.dashboard, url })
    expect(
      diffScreens(at("http://127.0.0.1:4000/app#/inbox"), at("http://127.0.0.1:4000/app#/settings")).signals,
    ).toContain("NavigationOccurred")
    expect(
      diffScreens(at("http://127.0.0.1:4000/help"), at("http://127.0.0.1:4000/help#faq")).signals,
    ).toEqual(["NoOp"])
  })
})
