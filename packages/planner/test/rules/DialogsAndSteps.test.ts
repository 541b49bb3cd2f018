import { decodeAgentTask, type PageElement } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Command } from "../../src/rules/Command.ts"
import { parseCommands } from "../../src/rules/Grammar.ts"
import type { Ancestry } from "../../src/rules/Grounding.ts"
import { planWithRules } from "../../src/rules/RulePlanner.ts"
import { type CommandDecision, decideCommand } from "../../src/rules/TextToAction.ts"

/**
 * Pop-up log-ins and forms in steps, read and grounded without a browser: the words a log-in carries with
 * it (a box of its form, a password's last character), the button of an open dialog, the Next button of a
 * form whose later step holds the field named, and what must never be clicked on the way.
 */

let counter = 0
const element = (role: string, name: string, extra: Partial<PageElement> = {}): PageElement => {
  counter += 1
  return {
    ref: `e${counter}`,
    role,
    name,
    tag: role === "link" ? "a" : role === "button" ? "button" : role === "checkbox" ? "input" : "input",
    attributes: {},
    visible: true,
    selectors: [],
    frame: [],
    box: { x: 100, y: 100 + counter * 30, width: 120, height: 24 },
    ...extra,
  }
}

const commands = (text: string): ReadonlyArray<Command> => {
  const parsed = parseCommands(text)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.commands
}

const decide = (
  command: Command,
  elements: ReadonlyArray<PageElement>,
  ancestry?: Ancestry,
  done: ReadonlySet<string> = new Set(),
): CommandDecision => decideCommand(command, { elements, ancestry }, { done })

const clicked = (decision: CommandDecision): string | undefined =>
  decision.type === "action" ? decision.action.locator : undefined

describe("a log-in said with a box of its form", () => {
  it("carries the box into the log-in, so it is ticked before the form is sent, in English and Chinese", () => {
    expect(commands("Sign in as reader7 with password Fog&Tea!, and keep me logged in")).toEqual([
      {
        kind: "login",
        username: "reader7",
        password: "Fog&Tea!",
        options: [{ raw: "me logged in", text: "me logged in" }],
      },
    ])
    expect(commands("登录：账号 wang，密码 qq-88，保持登录状态")).toEqual([
      {
        kind: "login",
        username: "wang",
        password: "qq-88",
        options: [{ raw: "登录状态", text: "登录状态" }],
      },
    ])
  })

  it("keeps every character of a password, but not the full stop that ends the sentence", () => {
    expect(commands("log in as bob with password pa$$word?")).toEqual([
      { kind: "login", username: "bob", password: "pa$$word?" },
    ])
    expect(commands("Log in as mira.k with password Lantern-42.")).toEqual([
      { kind: "login", username: "mira.k", password: "Lantern-42" },
    ])
  })

  const name = element("textbox", "", { attributes: { placeholder: "Email or username" } })
  const password = element("textbox", "Password", { attributes: { type: "password" } })
  const keep = element("checkbox", "Keep me signed in", { checked: false })
  const opener = element("button", "Log in")
  const send = element("button", "Log in")
  const inDialog: Ancestry = new Map(
    [name, password, keep, send].map((each) => [each.ref, [{ role: "dialog", name: "Welcome back" }]]),
  )
  const page = [opener, name, password, keep, send]

  it("ticks the box after typing, then sends with the dialog's own Log in, not the page's", () => {
    const [login] = commands("Sign in as reader7 with password Fog&Tea!, and keep me signed in")
    const typedBoth = new Set(["username", "password"])
    expect(clicked(decide(login!, page, inDialog, typedBoth))).toBe(keep.ref)
    const ticked = new Set([...typedBoth, "option-0"])
    expect(clicked(decide(login!, page, inDialog, ticked))).toBe(send.ref)
  })

  it("refuses, sending nothing, when the form has no box of the words said with the log-in", () => {
    const [login] = commands("Log in as ghost with password p1 and keep my cart")
    const decision = decide(login!, page, inDialog, new Set(["username", "password"]))
    expect(decision.type).toBe("complete")
    expect(decision.type === "complete" && decision.satisfied).toBe(false)
  })

  it("is no one-shot plan: the plan's login step would send the form before the box is ticked", () => {
    const error = Effect.runSync(
      Effect.flip(
        planWithRules(
          Effect.runSync(
            decodeAgentTask({
              goal: "log in as ann with password x9 and keep me signed in",
              startUrl: "http://127.0.0.1:4000/",
            }),
          ),
        ),
      ),
    )
    expect(error.reason._tag).toBe("CannotPlan")
    expect(String(error.message)).toContain("me signed in")
  })
})

describe("opening a pop-up", () => {
  it("presses the page's button that opens it, not a link of the same words that leaves the page", () => {
    const signIn = element("link", "Sign in", { attributes: { href: "/login" } })
    const logIn = element("button", "Log in")
    const [open] = commands("打开登录窗口，在密码框里输入 qq-2026")
    expect(open).toEqual({ kind: "open", target: { raw: "登录窗口", text: "登录", role: "dialog" } })
    expect(clicked(decide(open!, [signIn, logIn]))).toBe(logIn.ref)
  })

  it("does not press any button for a pop-up it has no name of", () => {
    const [open] = commands("Open the pop-up and click OK")
    expect(decide(open!, [element("button", "Delete account"), element("button", "Log in")]).type).toBe(
      "complete",
    )
  })
})

describe("a form in steps", () => {
  const company = element("textbox", "Company name", { value: "Acme Ltd" })
  const next = element("button", "Next")
  const contactLink = element("link", "Contact", { attributes: { href: "/forms/contact" } })
  const inForm: Ancestry = new Map([company, next].map((each) => [each.ref, [{ role: "form", name: "" }]]))

  it("goes on with Next to the step that holds a field the page does not show yet, never to the Contact link", () => {
    const [, email] = commands("Company name: Acme Ltd. The contact email is team@acme.io")
    expect(email).toEqual({
      kind: "type",
      value: "team@acme.io",
      field: { raw: "contact email", text: "contact email", role: "textbox" },
    })
    const decision = decide(email!, [contactLink, company, next], inForm)
    expect(clicked(decision)).toBe(next.ref)
    expect(decision.type === "action" && decision.final).toBe(false)
  })

  it("never presses a commit control to look further, nor a Next outside a form", () => {
    const [email] = commands("The contact email is team@acme.io")
    const submit = element("button", "Submit application")
    const outside = element("button", "Next")
    const withSubmit: Ancestry = new Map([[submit.ref, [{ role: "form", name: "" }]]])
    expect(decide(email!, [contactLink, company, submit, outside], withSubmit).type).toBe("complete")
  })

  it("reads the Chinese names of a sign-up wizard's fields", () => {
    const employees = element("combobox", "Employees", {
      tag: "select",
      options: ["Choose…", "1–9", "10–49"],
      value: "Choose…",
    })
    const name = element("textbox", "Company name", { value: "" })
    const [typed, chosen] = commands("公司名称填 Acme，员工人数选 1–9")
    expect(clicked(decide(typed!, [contactLink, name, employees]))).toBe(name.ref)
    const decision = decide(chosen!, [contactLink, name, employees])
    expect(decision.type === "action" && decision.action.locator).toBe(employees.ref)
  })
})
