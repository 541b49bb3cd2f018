import { assert, describe, it } from "@effect/vitest"
import { type AgentError, decodeAgentTask, ToolEffects } from "@sextant/core"
import { Effect } from "effect"
import { makeGuardrails, makeRedactor } from "../src/index.ts"

const ORIGIN = "http://127.0.0.1:4000"
const task = (constraints: Record<string, unknown> = {}) =>
  Effect.runSync(decodeAgentTask({ goal: "browse", startUrl: `${ORIGIN}/`, constraints }))

const ruleOf = (error: AgentError | undefined): string | undefined =>
  error === undefined
    ? undefined
    : error.reason._tag === "GuardrailViolation"
      ? error.reason.rule
      : error.reason._tag

const effects = (input: Record<string, boolean>) => ToolEffects.parse(input)
const navigateIntent = (url: string) => ({
  tool: "navigate",
  effects: effects({ navigates: true }),
  args: { url },
  currentUrl: `${ORIGIN}/`,
})
const verdictRule = (verdict: ReturnType<ReturnType<typeof makeGuardrails>["check"]>) =>
  "violation" in verdict ? ruleOf(verdict.violation) : undefined

describe("URL guardrails", () => {
  it.each([
    ["javascript:alert(1)"],
    ["JavaScript:void(0)"],
    ["file:///etc/passwd"],
    ["data:text/html,<script>alert(1)</script>"],
  ])("refuses %s by scheme", (url) => {
    assert.strictEqual(ruleOf(makeGuardrails(task()).checkUrl(url)), "url-scheme")
    assert.strictEqual(verdictRule(makeGuardrails(task()).check(navigateIntent(url))), "url-scheme")
  })

  it("allows http(s) on the start origin, relative URLs and about:blank", () => {
    const guardrails = makeGuardrails(task())
    assert.isUndefined(guardrails.checkUrl(`${ORIGIN}/products`))
    assert.isUndefined(guardrails.checkUrl("/products?page=2", `${ORIGIN}/`))
    assert.isUndefined(guardrails.checkUrl("about:blank"))
  })

  it("refuses an origin off the allowed list, and defaults the list to the start origin", () => {
    assert.strictEqual(
      ruleOf(makeGuardrails(task()).checkUrl("http://evil.example/steal")),
      "allowed-origins",
    )
    const listed = makeGuardrails(task({ allowedOrigins: [ORIGIN, "https://docs.example"] }))
    assert.isUndefined(listed.checkUrl("https://docs.example/a"))
    assert.strictEqual(ruleOf(listed.checkUrl("https://other.example/")), "allowed-origins")
    assert.isUndefined(
      makeGuardrails(task(), { restrictToStartOrigin: false }).checkUrl("https://other.example/"),
    )
  })

  it("checks the URLs session tools load: URL lists and the pages a query names", () => {
    const guardrails = makeGuardrails(task())
    const reads = (args: Record<string, unknown>) => ({
      tool: "sessionTool",
      effects: effects({ reads: true }),
      args,
      currentUrl: `${ORIGIN}/`,
    })
    const query = (url: string) =>
      `SELECT dom_text(html, 'h2') AS name FROM load_and_select('${url}', '.card')`
    assert.isUndefined(verdictRule(guardrails.check(reads({ query: query(`${ORIGIN}/products`) }))))
    assert.strictEqual(
      verdictRule(guardrails.check(reads({ query: query("http://evil.example/?c=1") }))),
      "allowed-origins",
    )
    assert.strictEqual(
      verdictRule(guardrails.check(reads({ urls: [`${ORIGIN}/a`, "file:///etc/passwd"] }))),
      "url-scheme",
    )
    assert.strictEqual(
      verdictRule(guardrails.check(reads({ startUrls: ["http://evil.example/"] }))),
      "allowed-origins",
    )
    assert.isUndefined(verdictRule(guardrails.check(reads({ startUrls: ["/products?page=2"] }))))
  })

  it.each([
    ["http:127.0.0.1:9/steal", "url-scheme"],
    ["HTTP:127.0.0.1:9/steal", "url-scheme"],
    ["http:\\\\evil.example\\steal", "allowed-origins"],
    ["http:/\\evil.example/steal", "allowed-origins"],
    ["javascript:fetch('http://evil.example')", "url-scheme"],
  ])("refuses the sql tool's row source %s, read with the browser's URL parser (%s)", (url, rule) => {
    const guardrails = makeGuardrails(task())
    const query = `SELECT text FROM load_and_select('${url.replaceAll("'", "''")}', 'p')`
    assert.strictEqual(
      verdictRule(
        guardrails.check({
          tool: "sql",
          effects: effects({ reads: true }),
          args: { query },
          currentUrl: `${ORIGIN}/`,
        }),
      ),
      rule,
    )
  })

  it("refuses a URL that means one page alone and another on the current page", () => {
    const guardrails = makeGuardrails(task({ allowedOrigins: [ORIGIN, "http://127.0.0.1:9"] }))
    assert.strictEqual(ruleOf(guardrails.checkUrl("http:127.0.0.1:9/x", `${ORIGIN}/a/`)), "url-scheme")
    assert.match(
      guardrails.checkUrl("http:127.0.0.1:9/x", `${ORIGIN}/a/`)?.message ?? "",
      /means http:\/\/127\.0\.0\.1:9\/x on its own/,
    )
    assert.isUndefined(guardrails.checkUrl("http://127.0.0.1:9/x", `${ORIGIN}/a/`))
  })

  it("refuses blocked URL patterns, the defaults and the task's own", () => {
    const guardrails = makeGuardrails(task({ blockedUrlPatterns: ["/admin"] }))
    assert.strictEqual(ruleOf(guardrails.checkUrl(`${ORIGIN}/logout`)), "blocked-pattern")
    assert.strictEqual(ruleOf(guardrails.checkUrl(`${ORIGIN}/account/delete`)), "blocked-pattern")
    assert.strictEqual(ruleOf(guardrails.checkUrl(`${ORIGIN}/admin/users`)), "blocked-pattern")
    assert.isUndefined(guardrails.checkUrl(`${ORIGIN}/products`))
  })
})

describe("step guardrails", () => {
  const snapshot = {
    url: `${ORIGIN}/account`,
    title: "Account",
    tree: "",
    elements: {
      e1: {
        ref: "e1",
        role: "link",
        name: "Log out",
        tag: "a",
        attributes: { href: "/logout" },
        visible: true,
        selectors: ["#logout"],
        frame: [],
      },
      e2: {
        ref: "e2",
        role: "button",
        name: "Save",
        tag: "button",
        attributes: { type: "submit" },
        visible: true,
        selectors: ["#save"],
        frame: [],
      },
      e3: {
        ref: "e3",
        role: "link",
        name: "Partner",
        tag: "a",
        attributes: { href: "http://evil.example/" },
        visible: true,
        selectors: ["#partner"],
        frame: [],
      },
    },
    actions: [],
    forms: [{ key: "f", name: "profile", fields: [], submit: "e2" }],
    outputs: [],
    stats: { nodes: 0, elements: 3, lines: 0, chars: 0, truncated: false },
  }
  const clickIntent = (target: string) => ({
    tool: "click",
    effects: effects({ clicks: true }),
    args: { target },
    currentUrl: `${ORIGIN}/account`,
    snapshot,
  })

  it("refuses clicking an element whose name or selector is a blocked action", () => {
    const guardrails = makeGuardrails(task())
    assert.strictEqual(verdictRule(guardrails.check(clickIntent("e1"))), "blocked-pattern")
    assert.strictEqual(verdictRule(guardrails.check(clickIntent("button.delete-account"))), "blocked-pattern")
  })

  it("refuses a link that leaves the allowed origins before clicking it", () => {
    assert.strictEqual(verdictRule(makeGuardrails(task()).check(clickIntent("e3"))), "allowed-origins")
  })

  it("refuses a submission without allowFormSubmission, by declared effect or by clicking a submit button", () => {
    const guardrails = makeGuardrails(task())
    assert.strictEqual(verdictRule(guardrails.check(clickIntent("e2"))), "form-submission")
    const declared = {
      tool: "login",
      effects: effects({ submits: true }),
      args: {},
      currentUrl: `${ORIGIN}/`,
    }
    assert.strictEqual(verdictRule(guardrails.check(declared)), "form-submission")
    assert.isUndefined(verdictRule(makeGuardrails(task({ allowFormSubmission: true })).check(declared)))
  })

  it("enforces the navigation, click and submission quotas from the declared effects", () => {
    const guardrails = makeGuardrails(
      task({ allowFormSubmission: true, quotas: { navigations: 2, clicks: 1, submissions: 1 } }),
    )
    const run = (intent: Parameters<typeof guardrails.check>[0]) => {
      const verdict = guardrails.check(intent)
      if ("charge" in verdict) guardrails.commit(verdict.charge)
      return verdictRule(verdict)
    }
    assert.isUndefined(run(navigateIntent(`${ORIGIN}/a`)))
    assert.isUndefined(run(navigateIntent(`${ORIGIN}/b`)))
    assert.strictEqual(run(navigateIntent(`${ORIGIN}/c`)), "quota.navigations")
    const click = {
      tool: "click",
      effects: effects({ clicks: true }),
      args: { target: "#x" },
      currentUrl: `${ORIGIN}/`,
    }
    assert.isUndefined(run(click))
    assert.strictEqual(run(click), "quota.clicks")
    const submit = { tool: "send", effects: effects({ submits: true }), args: {}, currentUrl: `${ORIGIN}/` }
    assert.isUndefined(run(submit))
    assert.strictEqual(run(submit), "quota.submissions")
    assert.deepStrictEqual(guardrails.counts(), { navigations: 2, clicks: 1, submissions: 1 })
  })

  it("reports a NavigationLoop when the same URL is reached n times", () => {
    const guardrails = makeGuardrails(task(), { navigationLoopLimit: 3 })
    assert.isUndefined(guardrails.landed(`${ORIGIN}/a`))
    assert.isUndefined(guardrails.landed(`${ORIGIN}/b`))
    assert.isUndefined(guardrails.landed(`${ORIGIN}/a`))
    assert.strictEqual(ruleOf(guardrails.landed(`${ORIGIN}/a`)), "NavigationLoop")
    guardrails.resetVisits()
    assert.isUndefined(guardrails.landed(`${ORIGIN}/a`))
  })
})

describe("makeRedactor", () => {
  it("hides secret values (also URL-encoded) and reveals placeholders only for tools", () => {
    const redactor = makeRedactor({
      inputs: { password: "p@ss word", user: "ada" },
      secretInputs: ["password"],
    })
    assert.strictEqual(
      redactor.text("typed p@ss word and p%40ss%20word"),
      "typed <secret:password> and <secret:password>",
    )
    assert.deepStrictEqual(redactor.value({ args: ["p@ss word"], user: "ada" }), {
      args: ["<secret:password>"],
      user: "ada",
    })
    assert.deepStrictEqual(redactor.reveal({ value: "<secret:password>", who: "{{inputs.user}}" }), {
      value: "p@ss word",
      who: "ada",
    })
  })
})

describe("guardrails: a goal that names a blocked action asks for it", () => {
  const ORIGIN_PAGE = `${ORIGIN}/account`
  const withGoal = (goal: string, constraints: Record<string, unknown> = {}) =>
    Effect.runSync(decodeAgentTask({ goal, startUrl: `${ORIGIN}/`, constraints }))
  const click = (name: string) => ({
    tool: "click",
    effects: effects({ clicks: true }),
    args: { target: "e1" },
    currentUrl: ORIGIN_PAGE,
    snapshot: {
      url: ORIGIN_PAGE,
      title: "Account",
      tree: "",
      elements: {
        e1: {
          ref: "e1",
          role: "button",
          name,
          tag: "button",
          attributes: {},
          visible: true,
          selectors: ["#e1"],
          frame: [],
        },
      },
      actions: [],
      forms: [],
      outputs: [],
      stats: { nodes: 0, elements: 1, lines: 0, chars: 0, truncated: false },
    },
  })

  it("lifts a default blocked pattern that the goal itself names, and keeps the others", () => {
    const guardrails = makeGuardrails(withGoal("Click Delete"))
    assert.strictEqual(verdictRule(guardrails.check(click("Delete"))), undefined)
    assert.strictEqual(verdictRule(guardrails.check(click("Sign out"))), "blocked-pattern")
    assert.strictEqual(
      verdictRule(makeGuardrails(withGoal("Hover over Account and click Sign out")).check(click("Sign out"))),
      undefined,
    )
  })

  it("keeps the task's own blocked patterns even when the goal names them", () => {
    const guardrails = makeGuardrails(
      withGoal("Click Delete", { blockedUrlPatterns: [String.raw`\bdelete\b`] }),
    )
    assert.strictEqual(verdictRule(guardrails.check(click("Delete"))), "blocked-pattern")
  })

  it("still refuses a blocked action the goal does not name", () => {
    assert.strictEqual(
      verdictRule(makeGuardrails(withGoal("Click Save")).check(click("Delete"))),
      "blocked-pattern",
    )
  })
})
