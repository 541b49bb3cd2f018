import { describe, expect, it } from "vitest"
import { elementsFromOutline } from "../../src/rules/Outline.ts"
import { decideStep, readProgress, summarizeRun } from "../../src/rules/RuleStepPolicy.ts"

const LOGIN = `- header:
  - nav "Main":
    - link "Home" [ref=e1] -> /
    - link "Products" [ref=e2] -> /products
- main:
  - h1 "Sign in"
  - form "Sign in":
    - textbox "Email" [ref=e3] [required]
    - textbox "Password" [ref=e4] [required]
    - button "Sign in" [ref=e5]`

const DASHBOARD = `- main:
  - h1 "Welcome, Alice"
  - nav "Dashboard":
    - link "Browse products" [ref=e6] -> /products
    - link "Search the shop" [ref=e7] -> /search`

const SEARCH = (value: string) => `- header:
  - nav "Main":
    - link "Home" [ref=e1] -> /
- main:
  - search "Product search":
    - searchbox "Search products" [ref=e8]${value === "" ? "" : `: ${value}`}
    - button "Search" [ref=e9]
  - region "Search results":
    - link "View Brass Lantern" [ref=e10] -> /products/5
    - link "View Oak Lantern" [ref=e11] -> /products/17`

describe("elementsFromOutline", () => {
  it("reads refs, roles, names, states, values and options", () => {
    const elements = elementsFromOutline(`- textbox "Email" [ref=e1] [required]: alice@example.com
- checkbox "Subscribe" [ref=e2] [checked]
- button "Details" [ref=e3] [collapsed]
- combobox "Topic" [ref=e4]: Sales [options: Choose a topic|Sales|Support]
- link "Docs" [ref=e5] -> /docs
- h2 "Not an element"`)
    expect(elements.map((element) => element.ref)).toEqual(["e1", "e2", "e3", "e4", "e5"])
    expect(elements[0]).toMatchObject({
      role: "textbox",
      name: "Email",
      value: "alice@example.com",
      required: true,
    })
    expect(elements[1]).toMatchObject({ checked: true })
    expect(elements[2]).toMatchObject({ expanded: false })
    expect(elements[3]).toMatchObject({ value: "Sales", options: ["Choose a topic", "Sales", "Support"] })
    expect(elements[4]).toMatchObject({ attributes: { href: "/docs" } })
  })
})

describe("decideStep", () => {
  const goal =
    "log in as alice@example.com with password wonderland, then search for lantern, then open the first result"

  it("logs in with one login call when the login tool is registered, and counts it as submitted", () => {
    const decision = decideStep({ goal, url: "/login", outline: LOGIN, history: [] }, { loginTool: true })
    expect(decision.toolCalls).toEqual([
      { name: "login", args: { username: "alice@example.com", password: "wonderland" } },
    ])
    expect(readProgress(decision.history).parts).toEqual(new Set(["submitted"]))
  })

  it("works through a multi-step goal one action per turn, tracking progress in its history lines", () => {
    const history: Array<string> = []
    const turn = (url: string, outline: string) => {
      const decision = decideStep({ goal, url, outline, history })
      history.push(...decision.history)
      return decision
    }
    expect(turn("/login", LOGIN).toolCalls).toEqual([
      { name: "fill", args: { target: "e3", value: "alice@example.com" } },
    ])
    const filled = LOGIN.replace(
      '[required]\n    - textbox "Password"',
      '[required]: alice@example.com\n    - textbox "Password"',
    )
    expect(turn("/login", filled).toolCalls).toEqual([
      { name: "fill", args: { target: "e4", value: "wonderland" } },
    ])
    // The password never shows in the outline; the history says it was typed.
    expect(turn("/login", filled).toolCalls).toEqual([{ name: "click", args: { target: "e5" } }])
    // Submitted, not yet done: the next page must show the login form gone.
    expect(readProgress(history)).toEqual({ done: 0, parts: new Set(["username", "password", "submitted"]) })
    // The dashboard has no search box: follow its link to the search page, as a person would.
    const detour = turn("/dashboard", DASHBOARD)
    expect(detour.toolCalls).toEqual([{ name: "click", args: { target: "e7" } }])
    expect(detour.history.join("\n")).toContain("signed in: the login form is gone")
    expect(detour.history.join("\n")).toContain("to find a search box")
    expect(readProgress(history).done).toBe(1)
    expect(turn("/search", SEARCH("")).toolCalls).toEqual([
      { name: "fill", args: { target: "e8", value: "lantern" } },
    ])
    expect(turn("/search", SEARCH("lantern")).toolCalls).toEqual([{ name: "click", args: { target: "e9" } }])
    const last = turn("/search?q=lantern", SEARCH("lantern"))
    expect(last.toolCalls).toEqual([{ name: "click", args: { target: "e10" } }])
    // Done is said on the turn after the last call, once it ran without failing.
    expect(last.taskComplete).toBe(false)
    history.push('7. click({"target":"e10"}) -> ok: navigation detected')
    const after = turn("/products/5", '- main:\n  - h1 "Brass Lantern"')
    expect(after.toolCalls).toEqual([])
    expect(after.taskComplete).toBe(true)
    expect(summarizeRun({ goal, history })).toMatchObject({ taskComplete: true, nextSuggestions: [] })
  })

  it("does not count a step whose tool call failed or was refused: it is decided again", () => {
    const outline = `- button "Delete" [ref=e1]`
    const history: Array<string> = []
    const first = decideStep({ goal: "click Delete", url: "/", outline, history })
    history.push(...first.history, '1. click({"target":"e1"}) -> failed: guardrail stopped the step')
    expect(readProgress(history).done).toBe(0)
    const again = decideStep({ goal: "click Delete", url: "/", outline, history })
    expect(again.toolCalls).toEqual([{ name: "click", args: { target: "e1" } }])
    expect(again.taskComplete).toBe(false)
  })

  it("does not go on after a login whose form is still shown once submitted", () => {
    const history = [
      "rule-policy: done 0/3 parts username,password,submitted | next: log in as alice@example.com",
    ]
    const decision = decideStep({ goal, url: "/login", outline: LOGIN, history })
    expect(decision.toolCalls).toEqual([])
    expect(decision.taskComplete).toBe(false)
    expect(decision.history.join("\n")).toContain("login form is still shown after submitting it")
    expect(readProgress([...history, ...decision.history]).done).toBe(0)
  })

  it("types the placeholders of a goal the executor redacted, whole, for the tool to fill in", () => {
    const redacted = "log in as alice@example.com with password <secret:password>"
    const filled = LOGIN.replace(
      '[required]\n    - textbox "Password"',
      '[required]: alice@example.com\n    - textbox "Password"',
    )
    const history = decideStep({ goal: redacted, url: "/login", outline: LOGIN, history: [] }).history
    expect(decideStep({ goal: redacted, url: "/login", outline: filled, history }).toolCalls).toEqual([
      { name: "fill", args: { target: "e4", value: "<secret:password>" } },
    ])
  })

  it("logs in with the task's inputs when the goal names no credentials, the goal's own words first", () => {
    const inputs = { email: "alice@example.com", password: "<secret:password>" }
    const first = decideStep({ goal: "log in", url: "/login", outline: LOGIN, history: [], inputs })
    expect(first.toolCalls).toEqual([{ name: "fill", args: { target: "e3", value: "alice@example.com" } }])
    const filled = LOGIN.replace(
      '[required]\n    - textbox "Password"',
      '[required]: alice@example.com\n    - textbox "Password"',
    )
    const second = decideStep({
      goal: "log in",
      url: "/login",
      outline: filled,
      history: first.history,
      inputs,
    })
    expect(second.toolCalls).toEqual([{ name: "fill", args: { target: "e4", value: "<secret:password>" } }])
    expect(
      decideStep(
        {
          goal: "log in",
          url: "/login",
          outline: LOGIN,
          history: [],
          inputs: { username: "bob", password: 1234 },
        },
        { loginTool: true },
      ).toolCalls,
    ).toEqual([{ name: "login", args: { username: "bob", password: "1234" } }])
    expect(
      decideStep({ goal: "log in as carol@example.com", url: "/login", outline: LOGIN, history: [], inputs })
        .toolCalls,
    ).toEqual([{ name: "fill", args: { target: "e3", value: "carol@example.com" } }])
  })

  it("reads progress only from its newest line, so a short history window is enough", () => {
    const history = [
      "navigate ok",
      "rule-policy: done 1/3 | next: search",
      "fill e8 ok",
      "rule-policy: done 1/3 parts query | next: search",
    ]
    expect(readProgress(history)).toEqual({ done: 1, parts: new Set(["query"]) })
    expect(
      decideStep({ goal, url: "/search", outline: SEARCH("lantern"), history: history.slice(-1) }).toolCalls,
    ).toEqual([{ name: "click", args: { target: "e9" } }])
  })

  it("waits, saying why, when the page does not offer the next clause yet", () => {
    const decision = decideStep({
      goal: "search for lantern",
      url: "/",
      outline: '- h1 "Loading"',
      history: [],
    })
    expect(decision.toolCalls).toEqual([])
    expect(decision.taskComplete).toBe(false)
    expect(decision.history.join("\n")).toContain("no search box")
  })

  it("waits once for a named element that is not on the page yet, then clicks it when it shows", () => {
    const before = '- h1 "Report"\n- button "Start" [ref=e1]'
    const first = decideStep({ goal: "Click Load results", url: "/late", outline: before, history: [] })
    // "results" is also a role word: the wait is for the words of the name ("Load").
    expect(first.toolCalls).toEqual([{ name: "waitFor", args: { text: "Load", timeoutMs: 2500 } }])
    expect(first.taskComplete).toBe(false)
    const waited = [...first.history, '1. waitFor({"text":"Load","timeoutMs":2500}) -> ok']
    const after = `${before}\n- button "Load results" [ref=e2]`
    const second = decideStep({ goal: "Click Load results", url: "/late", outline: after, history: waited })
    expect(second.toolCalls).toEqual([{ name: "click", args: { target: "e2" } }])
    // The wait is asked for once: when it ends and the element is still missing, the policy gives up as before.
    const again = decideStep({ goal: "Click Load results", url: "/late", outline: before, history: waited })
    expect(again.toolCalls).toEqual([])
    // "Wait for X and click it" is one click on X.
    const pair = decideStep({
      goal: "Wait for Load results and click it",
      url: "/late",
      outline: after,
      history: [],
    })
    expect(pair.toolCalls).toEqual([{ name: "click", args: { target: "e2" } }])
    // Turned off, the policy waits a turn with no action.
    const off = decideStep(
      { goal: "Click Load results", url: "/late", outline: before, history: [] },
      { waitForMissingMs: 0 },
    )
    expect(off.toolCalls).toEqual([])
  })

  it("skips clauses that already hold on the page", () => {
    const outline = `- checkbox "Subscribe" [ref=e1] [checked]\n- button "Send message" [ref=e2]`
    const decision = decideStep({
      goal: "勾选 Subscribe 然后点击 Send message",
      url: "/forms/contact",
      outline,
      history: [],
    })
    expect(decision.toolCalls).toEqual([{ name: "click", args: { target: "e2" } }])
    expect(readProgress(decision.history).done).toBe(2)
  })

  it("navigates to the absolute address the navigate tool takes: a path against the page, a bare host over https", () => {
    const go = (goal: string) =>
      decideStep({ goal, url: "http://127.0.0.1:4000/login?next=1", outline: "", history: [] }).toolCalls
    expect(go("go to /products")).toEqual([
      { name: "navigate", args: { url: "http://127.0.0.1:4000/products" } },
    ])
    expect(go("打开 example.com/shop")).toEqual([
      { name: "navigate", args: { url: "https://example.com/shop" } },
    ])
    expect(go("visit http://127.0.0.1:4000/search")).toEqual([
      { name: "navigate", args: { url: "http://127.0.0.1:4000/search" } },
    ])
  })

  it("closes with the reason when the goal cannot be read", () => {
    const decision = decideStep({ goal: "今天天气很好", url: "/", outline: "", history: [] })
    expect(decision).toMatchObject({ method: "close", toolCalls: [], taskComplete: false })
    expect(decision.history[0]).toContain('cannot understand "今天天气很好"')
  })

  it("summarizes what is left when the run stops early", () => {
    const summary = summarizeRun({ goal, history: ["rule-policy: done 1/3 | next: search"] })
    expect(summary.taskComplete).toBe(false)
    expect(summary.nextSuggestions).toEqual([
      'still to do: search for "lantern"',
      "still to do: open #1 result",
    ])
  })
})

describe("decideStep stops when the newest action did not take on the page", () => {
  const FORM = (value: string, checked: boolean) => `- main:
  - textbox "Check-in" [ref=e3]${value === "" ? "" : `: ${value}`}
  - checkbox "Newsletter" [ref=e4]${checked ? " [checked]" : ""}
  - button "Book" [ref=e5]`

  it("stops, not done, when the field it typed into shows nothing", () => {
    const decision = decideStep({
      goal: "type 2024-05-14 into Check-in",
      url: "/book",
      outline: FORM("", false),
      history: [
        '1. fill({"target":"e3","value":"2024-05-14"}) -> ok',
        "rule-policy: done 1/1 | next: nothing",
      ],
    })
    expect(decision.taskComplete).toBe(false)
    expect(decision.method).toBe("close")
    expect(decision.history.at(-1)).toContain('shows nothing after typing "2024-05-14"')
  })

  it("goes on when the field shows the value, also as the page reformats it", () => {
    for (const shown of ["2024-05-14", "05/14/2024"]) {
      const decision = decideStep({
        goal: "type 2024-05-14 into Check-in",
        url: "/book",
        outline: FORM(shown, false),
        history: [
          '1. fill({"target":"e3","value":"2024-05-14"}) -> ok',
          "rule-policy: done 1/1 | next: nothing",
        ],
      })
      expect(decision.method).toBeUndefined()
      expect(decision.taskComplete).toBe(true)
    }
  })

  it("goes on when a date typed with a month name shows as the same day", () => {
    const decision = decideStep({
      goal: "Set Check-in to June 3, 2024",
      url: "/book",
      outline: FORM("2024-06-03", false),
      history: [
        '1. fill({"target":"e3","value":"June 3, 2024"}) -> ok',
        "rule-policy: done 1/1 | next: nothing",
      ],
    })
    expect(decision.method).toBeUndefined()
    expect(decision.taskComplete).toBe(true)
  })

  it("stops when a checked box is still unchecked", () => {
    const decision = decideStep({
      goal: "check Newsletter",
      url: "/book",
      outline: FORM("", false),
      history: ['1. check({"target":"e4"}) -> ok', "rule-policy: done 1/1 | next: nothing"],
    })
    expect(decision.method).toBe("close")
    expect(decision.taskComplete).toBe(false)
    expect(summarizeRun({ goal: "check Newsletter", history: [], url: "/book" }).taskComplete).toBe(false)
  })
})

describe("decideStep chooses a typed day in the field's calendar when typing did not take (pickDateTool)", () => {
  const FORM = (value: string) => `- main:
  - textbox "Check-in" [ref=e3]${value === "" ? "" : `: ${value}`}
  - button "Choose check-in date" [ref=e4]`
  const typedHistory = [
    '1/1 type "2024-06-14" into check-in date: type into Check-in',
    "rule-policy: done 1/1 | next: nothing, the goal is done",
    '1. fill({"target":"e3","value":"2024-06-14"}) -> ok',
  ]
  const goal = "Pick June 14, 2024 as the check-in date"

  it("asks for pickDate on the same field, for the part the fill worked on", () => {
    const decision = decideStep(
      { goal, url: "/book", outline: FORM(""), history: typedHistory },
      { pickDateTool: true },
    )
    expect(decision.method).toBeUndefined()
    expect(decision.taskComplete).toBe(false)
    expect(decision.toolCalls).toEqual([{ name: "pickDate", args: { target: "e3", date: "2024-06-14" } }])
    expect(decision.part).toBe(0)
  })

  it("is done once the field shows the day, and stops when it does not or the pick failed", () => {
    const picked = [...typedHistory, "rule-policy: done 1/1 | next: choose 2024-06-14 in the calendar"]
    const shown = decideStep(
      {
        goal,
        url: "/book",
        outline: FORM("2024-06-14"),
        history: [...picked, '2. pickDate({"target":"e3","date":"2024-06-14"}) -> ok: picked'],
      },
      { pickDateTool: true },
    )
    expect(shown.taskComplete).toBe(true)
    const empty = decideStep(
      {
        goal,
        url: "/book",
        outline: FORM(""),
        history: [...picked, '2. pickDate({"target":"e3","date":"2024-06-14"}) -> ok: picked'],
      },
      { pickDateTool: true },
    )
    expect(empty.method).toBe("close")
    expect(empty.history.at(-1)).toContain("shows nothing after choosing 2024-06-14 in its calendar")
    const failed = decideStep(
      {
        goal,
        url: "/book",
        outline: FORM(""),
        history: [...picked, '2. pickDate({"target":"e3","date":"2024-06-14"}) -> failed: no grid of days'],
      },
      { pickDateTool: true },
    )
    expect(failed.method).toBe("close")
    expect(failed.taskComplete).toBe(false)
    expect(failed.history.at(-1)).toContain("could not be chosen in the calendar: no grid of days")
  })

  it("does not ask for pickDate for a value that is no day, nor when the tool is not registered", () => {
    const notDay = decideStep(
      {
        goal: "type Alice into Check-in",
        url: "/book",
        outline: FORM(""),
        history: ['1. fill({"target":"e3","value":"Alice"}) -> ok', "rule-policy: done 1/1 | next: nothing"],
      },
      { pickDateTool: true },
    )
    expect(notDay.method).toBe("close")
    const noTool = decideStep({ goal, url: "/book", outline: FORM(""), history: typedHistory })
    expect(noTool.method).toBe("close")
    expect(noTool.toolCalls).toEqual([])
  })
})

describe("decideStep reads a list named at the start of the option", () => {
  const LISTS = `- main:
  - listbox "Time zone" [ref=e52] [options: UTC+00:00 London|UTC+05:45 Kathmandu|UTC+09:00 Tokyo]
    - option "UTC+00:00 London" [ref=e12]
    - option "UTC+05:45 Kathmandu" [ref=e13]
    - option "UTC+09:00 Tokyo" [ref=e14]
  - listbox "Home airport" [ref=e53] [options: Oslo (OSL)|Tokyo (HND)]
    - option "Oslo (OSL)" [ref=e15]
    - option "Tokyo (HND)" [ref=e16]`

  it("'choose the time zone Kathmandu' picks Kathmandu in the Time zone list", () => {
    const decision = decideStep({
      goal: "Choose the time zone Kathmandu",
      url: "/lists",
      outline: LISTS,
      history: [],
    })
    expect(decision.toolCalls[0]).toEqual({ name: "click", args: { target: "e13" } })
  })

  it("'choose the home airport Tokyo' picks Tokyo in that list, not the Tokyo time zone", () => {
    const decision = decideStep({
      goal: "Choose the home airport Tokyo",
      url: "/lists",
      outline: LISTS,
      history: [],
    })
    expect(decision.toolCalls[0]).toEqual({ name: "click", args: { target: "e16" } })
  })
})
