import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * Pop-ups and forms in steps end to end: the rule step policy through `runAgent`, in headless Chromium,
 * on the fixture site's log-in pop-up (a Log in button in the page's header opens a modal with its own
 * Log in) and its four-step sign-up wizard (Next refuses an empty required field). The page's own oracle
 * judges each run, and the status Sextant reports must agree with it: a clause the page cannot carry out
 * ends FAILED, with nothing sent.
 */

const { runOnGallery } = useGallery()

describe("rule agent in a log-in pop-up", () => {
  it("opens the pop-up, types both credentials, ticks the box said with them and sends with the pop-up's own Log in", async () => {
    const { status, verdict, result } = await runOnGallery(
      "Log in as reader7, password Fog&Tea!, then keep me signed in",
      "login-popup",
      { loggedIn: "reader7", loginPassword: "Fog&Tea!", keepSignedIn: true },
    )
    expect(verdict.unmet, result.summary.summary).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("opens the log-in window by its button, not the site's Sign in link, and types into it (Chinese)", async () => {
    const { status, verdict, result } = await runOnGallery(
      "打开登录窗口，在密码框里输入 qq-2026",
      "login-popup",
      {
        loginPassword: "qq-2026",
        loggedIn: null,
      },
    )
    expect(verdict.unmet, result.summary.summary).toEqual([])
    expect(status).toBe("COMPLETED")
    expect(result.observations.some((observation) => observation.tool === "navigate")).toBe(false)
  }, 60_000)

  it("is FAILED, and logs nobody in, when the words said with the log-in name no box of its form", async () => {
    const { status, verdict, result } = await runOnGallery(
      "Log in as ghost with password p1 and keep my cart",
      "login-popup",
      {
        loggedIn: null,
      },
    )
    expect(verdict.unmet, result.summary.summary).toEqual([])
    expect(status).toBe("FAILED")
  }, 60_000)
})

describe("rule agent in a form in steps", () => {
  it("fills the first step, goes on with Next, and fills the field of the second step", async () => {
    const { status, verdict, result } = await runOnGallery(
      "Company name: Acme Ltd. Then type Ada Byron into Full name",
      "wizard",
      { company: "Acme Ltd", contactName: "Ada Byron", step: 2, submitted: false },
    )
    expect(verdict.unmet, result.summary.summary).toEqual([])
    expect(status).toBe("COMPLETED")
  }, 60_000)

  it("is FAILED, with the later field empty, when the step before refuses to go on (its required field is empty)", async () => {
    const { status, verdict, result } = await runOnGallery("Type Ada Byron into Full name", "wizard", {
      contactName: "",
      step: 1,
      submitted: false,
    })
    expect(verdict.unmet, result.summary.summary).toEqual([])
    expect(status).toBe("FAILED")
  }, 60_000)
})
