import { FIXTURE_USERS } from "@sextant/fixture-site"
import { Reply } from "@sextant/testing"
import { describe, expect, it } from "vitest"
import { EMAIL, startRig, taskFor } from "./support/HostileRig.ts"

/**
 * Sign-ins that are not over when the password is accepted: the site asks for a one-time code next, or
 * says in a plain paragraph that the account is locked. The password field is gone and no alert is
 * shown in either, which is all "logged in" used to ask of the page: a "log in" run ended COMPLETED
 * while the site was still waiting for the code. The rule planner and the model step policy (the real
 * openai SDK on the scripted server), in real headless Chromium on the fixture site.
 */

// The model's summary claims the sign-in done, as a model that saw `loggedIn: true` would.
const rig = startRig({ attacker: true, summary: { taskComplete: true, summary: "Logged in." } })
const alice = FIXTURE_USERS.find((user) => user.email === EMAIL) as (typeof FIXTURE_USERS)[number]

const logIn = (path: string) =>
  rig.withRules("log in", `${rig.site.url}${path}`, { password: alice.password })

/** How often the site was sent a sign-in post at `path` so far (the fixture site counts them). */
const signInPosts = async (path: string): Promise<number> => {
  const counts = (await (await fetch(`${rig.site.url}/hostile/counts`)).json()) as Record<string, number>
  return counts[`POST ${path}`] ?? 0
}

describe('"log in" on a site whose sign-in has a further step', () => {
  it("is COMPLETED where the right password leads to the signed-in page", async () => {
    const { result } = await logIn("/login")
    expect(result.status).toBe("COMPLETED")
    expect(result.summary.unmetParts ?? []).toEqual([])
  }, 60_000)

  it("ends FAILED when the site asks for a one-time code next, naming the code field, having sent the password once", async () => {
    const before = await signInPosts("/login/two-step")
    const { result } = await logIn("/login/two-step")
    // The login step answers what the page still asks, and is neither retried nor planned again: either
    // would send the password a second time.
    const logins = result.observations.filter((observation) => observation.tool === "login")
    expect(logins.map((observation) => observation.ok)).toEqual([false])
    expect(await signInPosts("/login/two-step")).toBe(before + 1)
    expect(result.status).toBe("FAILED")
    expect(result.summary.taskComplete).toBe(false)
    const unmet = result.summary.unmetParts ?? []
    expect(unmet).toHaveLength(1)
    expect(unmet[0]?.evidence).toContain("one-time code")
    expect(unmet[0]?.evidence).toContain("Verification code")
  }, 60_000)

  it("ends FAILED when the site says the account is locked in a plain paragraph, quoting it, having sent the password once", async () => {
    const before = await signInPosts("/login/locked")
    const { result } = await logIn("/login/locked")
    expect(await signInPosts("/login/locked")).toBe(before + 1)
    expect(result.status).toBe("FAILED")
    const unmet = result.summary.unmetParts ?? []
    expect(unmet).toHaveLength(1)
    expect(unmet[0]?.evidence).toContain(
      'says "This account is locked after too many failed sign-in attempts."',
    )
    // Only the page's sentence: not the header and menu words the page's text runs into it.
    for (const word of ["Sextant Shop", "Products", "Dashboard", "Cart"])
      expect(unmet[0]?.evidence).not.toContain(word)
  }, 60_000)
})

describe('"log in" on a site whose sign-in breaks', () => {
  it("ends FAILED when the sign-in is answered with a 500 error page, naming the status", async () => {
    const before = await signInPosts("/login/broken")
    const { result } = await logIn("/login/broken")
    expect(await signInPosts("/login/broken")).toBe(before + 1)
    expect(result.status).toBe("FAILED")
    expect(result.summary.taskComplete).toBe(false)
    const unmet = result.summary.unmetParts ?? []
    expect(unmet).toHaveLength(1)
    expect(unmet[0]?.evidence).toContain("the sign-in was answered with HTTP 500")
    expect(unmet[0]?.evidence).toContain('(the page shows "Internal Server Error")')
  }, 60_000)
})

describe('a model that says "log in" is done once the password form is gone', () => {
  it("ends FAILED on the one-time code page, its login call answering the code field, sending the password once", async () => {
    const before = await signInPosts("/login/two-step")
    // One login call, then "done".
    rig.script((turn) =>
      Reply.json(
        turn === 0
          ? { tool_calls: [{ name: "login", args: { username: EMAIL, password: "<secret:password>" } }] }
          : { tool_calls: [], taskComplete: true },
      ),
    )
    const result = await rig.runModel(taskFor("log in", `${rig.site.url}/login/two-step`, alice.password), {
      screenshots: "never",
    })
    const logins = result.observations.filter((observation) => observation.tool === "login")
    expect(logins.map((observation) => observation.ok)).toEqual([false])
    expect(logins[0]?.message).toContain("asks for a one-time code")
    expect(await signInPosts("/login/two-step")).toBe(before + 1)
    expect(result.status).toBe("FAILED")
    expect(result.summary.taskComplete).toBe(false)
    const unmet = result.summary.unmetParts ?? []
    expect(unmet).toHaveLength(1)
    expect(unmet[0]?.evidence).toContain("asks for a one-time code")
  }, 60_000)
})
