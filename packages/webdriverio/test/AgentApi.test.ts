import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchPageAgent, type PageAgent } from "../src/index.ts"

type Actions = ReadonlyArray<{ readonly ref: string; readonly role: string; readonly name: string }>

const refOf = (actions: Actions, role: string, name: string): string => {
  const found = actions.find((action) => action.role === role && action.name === name)
  if (found === undefined) {
    throw new Error(
      `no ${role} "${name}" in ${actions.map((a) => `${a.ref} ${a.role} "${a.name}"`).join(", ")}`,
    )
  }
  return found.ref
}

const looked = async (agent: PageAgent) => {
  const result = await agent.look()
  if (!("tree" in result)) throw new Error(`look failed: ${result.error}`)
  return result
}

const alice = FIXTURE_USERS[0]!
let site: FixtureSite
let agent: PageAgent

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
  agent = await launchPageAgent()
})

afterAll(async () => {
  await agent?.close()
  await site?.close()
})

describe("the agent API in headless Chromium", () => {
  it("logs in with the refs look gave for Email, Password and Sign in", async () => {
    const went = await agent.go(`${site.url}/login`)
    expect(went).toMatchObject({
      ok: true,
      url: `${site.url}/login`,
      title: expect.stringContaining("Sign in"),
    })
    const page = await looked(agent)
    const email = refOf(page.actions, "textbox", "Email")
    const password = refOf(page.actions, "textbox", "Password")
    const signIn = refOf(page.actions, "button", "Sign in")
    expect(page.tree).toContain(`textbox "Email" [ref=${email}]`)

    expect(await agent.act(email, "input", alice.email)).toMatchObject({ ok: true })
    expect(await agent.act(password, "input", alice.password)).toMatchObject({ ok: true })
    const submitted = await agent.act(signIn, "click")
    expect(submitted).toMatchObject({ ok: true, changed: true })
    if (!submitted.ok) return
    expect(submitted.signals).toContain("NavigationOccurred")
    expect(submitted.hint).toContain("/dashboard")

    const dashboard = await looked(agent)
    expect(dashboard.url).toBe(`${site.url}/dashboard`)
    expect(dashboard.tree).toContain(`Welcome, ${alice.name}`)
  })

  it("reports ErrorAppeared after a bad password and never shows a typed password", async () => {
    await agent.go(`${site.url}/logout`)
    const page = await looked(agent)
    const secret = "not-the-password-8731"
    await agent.act(refOf(page.actions, "textbox", "Email"), "input", alice.email)
    const typed = await agent.act(refOf(page.actions, "textbox", "Password"), "input", secret)
    const afterTyping = await looked(agent)
    const failed = await agent.act(refOf(page.actions, "button", "Sign in"), "click")
    expect(failed).toMatchObject({ ok: true })
    if (!failed.ok) return
    expect(failed.signals).toContain("ErrorAppeared")
    expect(failed.hint).toContain("Invalid email or password")
    const afterError = await looked(agent)
    expect(afterError.tree).toContain("Invalid email or password")
    for (const seen of [typed, afterTyping, failed, afterError])
      expect(JSON.stringify(seen)).not.toContain(secret)
  })

  it("waits for debounced suggestions and reports ResultsAppeared after a search", async () => {
    await agent.go(`${site.url}/search`)
    const page = await looked(agent)
    const typed = await agent.act(refOf(page.actions, "combobox", "Search products"), "input", "oak")
    // The suggestions come from a debounced fetch; the act waits for them.
    expect(
      typed.ok && typed.actions.some((action) => action.role === "option" && action.name === "Oak Sextant"),
    ).toBe(true)
    const searched = await agent.act(refOf(page.actions, "button", "Search"), "click")
    expect(searched).toMatchObject({ ok: true })
    if (!searched.ok) return
    expect(searched.signals).toContain("ResultsAppeared")
    expect((await looked(agent)).url).toContain("q=oak")
  })

  it("keeps refs across two looks", async () => {
    await agent.go(`${site.url}/forms/contact`)
    const first = await looked(agent)
    const second = await looked(agent)
    expect(second.actions).toEqual(first.actions)
    expect(second.tree).toEqual(first.tree)
  })

  it("keeps the re-rendering live region actionable by its old ref", async () => {
    await agent.go(`${site.url}/dynamic`)
    const page = await looked(agent)
    const increment = refOf(page.actions, "button", "Increment")
    const count = async () =>
      (
        (await agent.eval("return document.getElementById('live-counter').textContent")) as {
          result?: string
        }
      ).result
    expect(await count()).toBe("Clicked 0 times")
    for (const expected of [1, 2]) {
      // The region is rebuilt from brand-new nodes about every second.
      await new Promise((resolve) => setTimeout(resolve, 1_300))
      const clicked = await agent.act(increment, "click")
      expect(clicked).toMatchObject({ ok: true })
      expect(await count()).toBe(`Clicked ${expected} times`)
    }
  })

  it("leaves hidden elements out until they show", async () => {
    await agent.go(`${site.url}/dynamic`)
    const closed = await looked(agent)
    expect(closed.actions.some((action) => action.name === "Close")).toBe(false)
    const opened = await agent.act(refOf(closed.actions, "button", "Open dialog"), "click")
    expect(opened.ok).toBe(true)
    if (!opened.ok) return
    expect(opened.actions.some((action) => action.role === "button" && action.name === "Close")).toBe(true)
  })

  it("gives refs to iframe and shadow-root elements and types into them", async () => {
    await agent.go(`${site.url}/frames`)
    const page = await looked(agent)
    await agent.act(refOf(page.actions, "textbox", "Your name"), "input", "Zed")
    const greeted = await agent.act(refOf(page.actions, "button", "Greet"), "click")
    expect(greeted).toMatchObject({ ok: true })
    await agent.act(refOf(page.actions, "textbox", "Shadow input"), "input", "Shh")
    await agent.act(refOf(page.actions, "button", "Echo"), "click")
    const after = await looked(agent)
    expect(after.tree).toContain("Hello, Zed!")
    expect(after.tree).toContain("Shadow says: Shh")
  })

  it("answers a stale ref with the refresh advice", async () => {
    await agent.go(`${site.url}/login`)
    const stale = await agent.act("e9999", "click")
    expect(stale).toEqual({
      ok: false,
      error: "ref e9999 is stale: call look() to refresh",
      reason: "StaleRef",
      retryable: true,
    })
  })

  it("refuses to go to a word that is not a URL, naming the url, and stays on the page", async () => {
    await agent.go(`${site.url}/login`)
    const went = await agent.go("dashboard")
    expect(went).toEqual({
      ok: false,
      error:
        'cannot open "dashboard": it is not an absolute URL: give the scheme and host, e.g. http://127.0.0.1:4000/login',
      reason: "InvalidUrl",
      retryable: false,
    })
    expect((await looked(agent)).url).toBe(`${site.url}/login`)
  })

  it("waits for a JavaScript condition and a ref, evaluates scripts and goes back", async () => {
    await agent.go(`${site.url}/login`)
    await agent.go(`${site.url}/dynamic`)
    const waited = await agent.wait("document.getElementById('delayed') !== null", 5_000)
    expect(waited).toMatchObject({ ok: true })
    const page = await looked(agent)
    expect(page.tree).toContain("Delayed content loaded")
    expect(await agent.wait(refOf(page.actions, "button", "Open dialog"), 2_000)).toMatchObject({ ok: true })
    expect(await agent.eval("document.title")).toMatchObject({ ok: true, result: page.title })
    expect(await agent.eval("return 6 * 7")).toMatchObject({ ok: true, result: 42 })
    const thrown = await agent.eval("throw new Error('boom')")
    expect(thrown).toMatchObject({ ok: false, reason: "ScriptError" })
    expect(await agent.back()).toMatchObject({ ok: true, url: `${site.url}/login` })
  })
})
