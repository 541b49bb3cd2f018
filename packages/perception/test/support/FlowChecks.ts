import { expect } from "vitest"
import { describeChange, diffScreens } from "../../src/index.ts"
import type { RecordedFlows } from "./Flows.ts"
import { refOf } from "./Look.ts"

/** The signals and hints every recording of the fixture-site flows must give. */
export const checkFlowSignals = (flows: RecordedFlows): void => {
  const email = refOf(flows.login, "textbox", "Email")
  const password = refOf(flows.login, "textbox", "Password")
  const signIn = refOf(flows.login, "button", "Sign in")

  expect(diffScreens(undefined, flows.login).signals).toEqual(["ScreenLoaded"])
  expect(diffScreens(flows.login, flows.loginEmailFilled).signals).toEqual([])
  expect(describeChange(flows.login, flows.loginEmailFilled, { ref: email, op: "input" })).toBe(
    `${email} filled, consider ${password} next`,
  )
  expect(describeChange(flows.loginEmailFilled, flows.loginFilled, { ref: password, op: "input" })).toBe(
    `${password} filled, consider ${signIn} next`,
  )

  const failed = diffScreens(flows.loginFilled, flows.loginFailed, { ref: signIn, op: "click" })
  expect(failed.signals).toContain("ErrorAppeared")
  expect(failed.signals).toContain("FormSubmitted")
  expect(failed.signals).not.toContain("NavigationOccurred")
  expect(describeChange(flows.loginFilled, flows.loginFailed, { ref: signIn, op: "click" })).toBe(
    "error appeared: Invalid email or password",
  )

  const signedIn = diffScreens(flows.loginFailed, flows.dashboard, { ref: signIn, op: "click" })
  expect(signedIn.signals).toEqual(["NavigationOccurred", "ScreenLoaded", "FormSubmitted"])
  expect(describeChange(flows.loginFailed, flows.dashboard)).toBe("navigation detected: /dashboard")

  const searched = diffScreens(flows.searchTyped, flows.searchResults)
  expect(searched.signals).toContain("ResultsAppeared")
  expect(searched.signals).toContain("NavigationOccurred")
  expect(searched.results).toBe(12)
  expect(describeChange(flows.searchTyped, flows.searchResults)).toBe(
    "navigation detected: /search?q=brass; results appeared: 12 items",
  )
  expect(diffScreens(flows.searchResults, flows.searchNoResults).signals).not.toContain("ResultsAppeared")

  expect(diffScreens(flows.login, flows.login).signals).toEqual(["NoOp"])
  expect(describeChange(flows.login, flows.login, { ref: signIn, op: "click" })).toBe("no visible change")
}
