import { describe, expect, it } from "vitest"
import { type PageModules, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

/** `goalFacts().signInUnfinished` of the open page, and how long the call took in the page. */
const signIn = () =>
  harness.browser.execute(() => {
    const { goals } = (globalThis as unknown as { __page: PageModules }).__page
    const started = performance.now()
    const facts = goals.goalFacts({ texts: [], selectors: [] })
    return { said: facts.signInUnfinished, ms: performance.now() - started }
  })

describe("goalFacts: what says a sign-in is not over", () => {
  it("names a shown one-time code field, by its autocomplete or by its name", async () => {
    await harness.open(
      `<h1>Verify it's you</h1><label for="c">Verification code</label><input id="c" autocomplete="one-time-code">`,
    )
    expect((await signIn()).said).toBe('one-time code field "Verification code"')
    await harness.open(`<input name="login_otp" aria-label="Code from the app">`)
    expect((await signIn()).said).toBe('one-time code field "Code from the app"')
    await harness.open(`<input name="mfaCode">`)
    expect((await signIn()).said).toBe('one-time code field "mfaCode"')
  })

  it("says nothing of a signed-in page, a hidden code field or a search box", async () => {
    await harness.open(
      `<h1>Welcome, Alice</h1><form role="search"><input type="search" name="q" aria-label="Search"></form>
<input type="hidden" name="otp" value="1"><input autocomplete="one-time-code" style="display:none">
<p>Two-factor authentication is on.</p>`,
    )
    expect((await signIn()).said).toBe("")
  })

  it("quotes the sentence that says the account is locked, and only that one", async () => {
    await harness.open(
      `<h1>Sign in</h1><p>Welcome back. This account is locked after too many failed sign-in attempts. Contact support.</p>`,
    )
    expect((await signIn()).said).toBe("This account is locked after too many failed sign-in attempts.")
  })

  it("quotes the locked sentence from its own block, without the words of a nav bar above it", async () => {
    // The page's text as a whole has no sentence end between the menu and the message: split on . ! ?
    // alone, the "sentence" began with "Shop Home Products Help Sign in".
    await harness.open(
      `<header><a href="/">Shop</a><nav><ul><li><a href="/">Home</a></li><li><a href="/p">Products</a></li>
<li><a href="/h">Help</a></li></ul></nav><span>Sign in</span></header>
<main><div class="notice">Your account is <strong>locked</strong><br>Call us to unlock it</div></main>`,
    )
    const { said } = await signIn()
    expect(said).toBe("Your account is locked")
    for (const word of ["Shop", "Home", "Products", "Help", "Sign in", "Call us"])
      expect(said).not.toContain(word)
  })

  it("reads the locked sentence inside an open shadow root, and not a hidden one", async () => {
    await harness.open(
      `<p style="display:none">This account is locked.</p><div id="host"></div>
<script>document.getElementById("host").attachShadow({ mode: "open" }).innerHTML =
  "<nav>Home Products</nav><p>Too many failed sign-in attempts. Try again later.</p>"</script>`,
    )
    expect((await signIn()).said).toBe("Too many failed sign-in attempts.")
  })

  it("reads the locked sentence when its words are split across inline elements", async () => {
    await harness.open(`<nav>Home Products</nav><p><b>Too</b> many failed sign-in attempts. Try later.</p>`)
    expect((await signIn()).said).toBe("Too many failed sign-in attempts.")
    await harness.open(`<nav>Home</nav><p>Too <em>many</em> failed log-in attempts.</p>`)
    expect((await signIn()).said).toBe("Too many failed log-in attempts.")
  })

  it("reads a page of 300,000 characters without a sentence end in linear time", async () => {
    await harness.open(`<p id="long"></p>`)
    await harness.browser.execute(() => {
      const long = document.getElementById("long") as HTMLElement
      long.textContent = "the doors were locked and nobody came in ".repeat(7_500)
    })
    const { said, ms } = await signIn()
    expect(said).toBe("")
    // A pattern that scans to the sentence's end from every position took minutes here.
    expect(ms).toBeLessThan(1_000)
  })
})
