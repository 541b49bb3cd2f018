import type { PageElement } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Command } from "../../src/rules/Command.ts"
import { parseCommands } from "../../src/rules/Grammar.ts"
import { groundTarget } from "../../src/rules/Grounding.ts"
import { copiedText } from "../../src/rules/grounding/Decide.ts"
import { type CommandDecision, decideCommand, ruleTextToAction } from "../../src/rules/TextToAction.ts"

let counter = 0
const element = (role: string, name: string, extra: Partial<PageElement> = {}): PageElement => {
  counter += 1
  return {
    ref: `e${counter}`,
    role,
    name,
    tag:
      role === "link"
        ? "a"
        : role === "button"
          ? "button"
          : role === "textbox" || role === "searchbox"
            ? "input"
            : "div",
    attributes: {},
    visible: true,
    selectors: [],
    frame: [],
    box: { x: 100, y: 100 + counter * 30, width: 120, height: 24 },
    ...extra,
  }
}

const command = (text: string): Command => {
  const parsed = parseCommands(text)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.commands[0]!
}

const decide = (text: string, elements: ReadonlyArray<PageElement>, outline?: string): CommandDecision =>
  decideCommand(command(text), {
    elements,
    ancestry:
      outline === undefined
        ? undefined
        : new Map(
            outline.split(";").map((entry) => {
              const [ref, chain] = entry.split("=")
              return [
                ref!,
                chain!.split(">").map((part) => {
                  const [role, name] = part.split(":")
                  return { role: role!, name: name ?? "" }
                }),
              ] as const
            }),
          ),
  })

const actionOf = (decision: CommandDecision) => {
  if (decision.type !== "action") throw new Error(`expected an action, got: ${decision.summary}`)
  return decision.action
}

const argument = (decision: CommandDecision, name: string) =>
  actionOf(decision).arguments.find((entry) => entry.name === name)?.value

describe("grounding", () => {
  const email = element("textbox", "Email", { attributes: { type: "email" } })
  const password = element("textbox", "Password", { tag: "input", attributes: { type: "password" } })
  const signIn = element("button", "Sign in", { attributes: { type: "submit" } })
  const signInLink = element("link", "Sign in")
  const page = [email, password, signInLink, signIn]

  it("types into a textbox, never a button of the same name", () => {
    const decision = decide("type alice@example.com into Email", [element("button", "Email"), ...page])
    expect(actionOf(decision)).toMatchObject({ locator: email.ref, method: "input" })
    expect(argument(decision, "value")).toBe("alice@example.com")
  })

  it("clicks the element whose role the phrase names", () => {
    expect(actionOf(decide("click the Sign in button", page)).locator).toBe(signIn.ref)
    expect(actionOf(decide("click the Sign in link", page)).locator).toBe(signInLink.ref)
  })

  it("breaks a tie by document order", () => {
    const first = element("button", "Save")
    const second = element("button", "Save", { box: first.box })
    const ranked = groundTarget({ raw: "Save", text: "Save" }, [first, second], { intent: "click" })
    expect(ranked.map((candidate) => candidate.element.ref)).toEqual([first.ref, second.ref])
  })

  it("between equal matches, prefers a stronger selector, then one nearer the top", () => {
    const byPath = element("button", "Save", { selectors: ["form > button:nth-of-type(2)"] })
    const byId = element("button", "Save", {
      selectors: ["#save", "form > button:nth-of-type(1)"],
      box: byPath.box,
    })
    const ranked = groundTarget({ raw: "Save", text: "Save" }, [byPath, byId], { intent: "click" })
    expect(ranked.map((candidate) => candidate.element.ref)).toEqual([byId.ref, byPath.ref])
    const lower = element("button", "Apply", { box: { x: 100, y: 700, width: 120, height: 24 } })
    const upper = element("button", "Apply", { box: { x: 100, y: 80, width: 120, height: 24 } })
    expect(actionOf(decide("click Apply", [lower, upper])).locator).toBe(upper.ref)
  })

  it("prefers an exact name over a partial one and ignores case and spacing", () => {
    const partial = element("button", "Save draft")
    const exact = element("button", "save")
    expect(actionOf(decide("click SAVE", [partial, exact])).locator).toBe(exact.ref)
    const spaced = element("button", "Log out")
    expect(actionOf(decide("click logout", [spaced])).locator).toBe(spaced.ref)
  })

  it("finds a field by its placeholder or aria-label", () => {
    const search = element("textbox", "", { attributes: { placeholder: "Search products" } })
    const name = element("textbox", "", { attributes: { "aria-label": "Full name" } })
    expect(actionOf(decide("type lamp into Search products", [name, search])).locator).toBe(search.ref)
    expect(actionOf(decide('enter "Ada" in Full name', [search, name])).locator).toBe(name.ref)
  })

  it("prefers an element in the viewport to one below the fold, and an enabled one to a disabled one", () => {
    const below = element("button", "Save", { visible: false })
    const disabled = element("button", "Save", { disabled: true })
    const ready = element("button", "Save")
    expect(actionOf(decide("click Save", [below, disabled, ready])).locator).toBe(ready.ref)
    expect(actionOf(decide("click Save", [below, disabled])).locator).toBe(below.ref)
    const belowNext = element("link", "Next", { visible: false })
    const next = element("link", "Next")
    expect(actionOf(decide("click Next", [belowNext, next])).locator).toBe(next.ref)
  })

  it("counts ordinals among the elements of the role in document order, off-screen ones too", () => {
    const links = [
      element("link", "Home"),
      element("link", "Products", { visible: false }),
      element("link", "Search"),
      element("link", "Contact"),
    ]
    expect(actionOf(decide("click the second link", links)).locator).toBe(links[1]!.ref)
    expect(actionOf(decide("click the last link", links)).locator).toBe(links[3]!.ref)
    expect(actionOf(decide("点击第一个链接", links)).locator).toBe(links[0]!.ref)
    const tabs = [element("tab", "Overview"), element("tab", "Specs"), element("tab", "Reviews")]
    expect(actionOf(decide("click Tab #3", tabs)).locator).toBe(tabs[2]!.ref)
  })

  it("reads 'the first result' as the first content link, not the navigation", () => {
    const home = element("link", "Home")
    const view = element("link", "View Brass Lantern")
    const next = element("link", "Next")
    const decision = decide(
      "open the first result",
      [home, view, next],
      `${home.ref}=nav:Main;${view.ref}=main:>region:Search results;${next.ref}=main:`,
    )
    expect(actionOf(decision).locator).toBe(view.ref)
  })

  it("matches Chinese names", () => {
    const login = element("button", "登录")
    const register = element("button", "注册")
    expect(actionOf(decide("点击登录按钮", [register, login])).locator).toBe(login.ref)
  })

  it("finds an unnamed control by the words guessed for it, as by a name", () => {
    const search = element("button", "", { guess: { from: "id", words: "search" } })
    const decision = decide("click search", [element("button", "Save"), search])
    expect(actionOf(decision).locator).toBe(search.ref)
    const [best] = groundTarget({ raw: "search", text: "search" }, [element("link", "Home"), search], {
      intent: "click",
    })
    expect(best?.element.ref).toBe(search.ref)
  })

  it("honours a container: OK in the dialog", () => {
    const pageOk = element("button", "OK")
    const dialogOk = element("button", "OK")
    const decision = decide(
      "click OK in the dialog",
      [pageOk, dialogOk],
      `${pageOk.ref}=main:;${dialogOk.ref}=dialog:Confirm your choice`,
    )
    expect(actionOf(decision).locator).toBe(dialogOk.ref)
  })
})

describe("widgets", () => {
  it("opens a collapsed section when the target is not on the page, then clicks it once it shows", () => {
    const faq = element("button", "Shipping", { expanded: false })
    // A closed section's content is not in the element list at all.
    const hiddenLink = element("link", "Return policy")
    const first = decide("click Return policy", [faq])
    expect(first).toMatchObject({
      type: "action",
      final: false,
      action: { locator: faq.ref, method: "click" },
    })
    expect(decide("click Return policy", [{ ...faq, expanded: true }, hiddenLink])).toMatchObject({
      final: true,
      action: { locator: hiddenLink.ref },
    })
  })

  it("never presses a collapsed commit control (Submit, Buy, Delete, 提交 …) while looking for something", () => {
    const commits = [
      "Submit",
      "Buy now",
      "Send",
      "Delete",
      "Pay",
      "Place order",
      "Checkout",
      "Check out",
      "Confirm",
      "Remove",
      "提交",
      "立即购买",
      "发送",
      "删除",
      "支付",
      "下单",
      "确认",
    ].map((name) => element("button", name, { expanded: false }))
    const commitTab = element("tab", "Confirm & pay", { selected: false })
    // With nothing but commit controls to open, the search ends without pressing any of them.
    for (const text of ["click Return policy", "click Shipping options", "select Express"]) {
      const decision = decide(text, [...commits, commitTab])
      expect(decision.type, text).toBe("complete")
    }
    // A harmless collapsed section is still opened, even when commit controls come before it.
    const more = element("button", "More options", { expanded: false })
    expect(decide("click Return policy", [...commits, more])).toMatchObject({
      type: "action",
      final: false,
      action: { locator: more.ref, method: "click" },
    })
  })

  it("switches to a tab whose panel may hold the target", () => {
    const overview = element("tab", "Overview", { selected: true })
    const specs = element("tab", "Specs", { selected: false })
    const decision = decide("click Download manual", [overview, specs])
    expect(decision).toMatchObject({ type: "action", final: false, action: { locator: specs.ref } })
  })

  it("expands and collapses by state, and says when it already is", () => {
    const details = element("button", "Details", { expanded: false })
    expect(actionOf(decide("expand Details", [details])).locator).toBe(details.ref)
    expect(decide("collapse Details", [details])).toMatchObject({ type: "complete", satisfied: true })
  })

  it("walks a menu path: clicks a collapsed menu button, hovers an item that shows no state", () => {
    const file = element("menuitem", "File", { attributes: { "aria-haspopup": "menu" }, expanded: false })
    expect(decide("open File > Export > PDF", [file])).toMatchObject({
      final: false,
      action: { locator: file.ref, method: "click" },
    })
    const exportItem = element("menuitem", "Export", {})
    expect(decide("open File > Export > PDF", [file, exportItem])).toMatchObject({
      final: false,
      action: { locator: exportItem.ref, method: "hover" },
    })
    const pdf = element("menuitem", "PDF")
    expect(decide("open File > Export > PDF", [file, exportItem, pdf])).toMatchObject({
      final: true,
      action: { locator: pdf.ref, method: "click" },
    })
  })

  it("opens a nested menu item said as one name: the sub-menu its first words name, then the item", () => {
    const view = element("button", "View", { expanded: true })
    const zoom = element("menuitem", "Zoom ▸", { expanded: false })
    const other = element("menuitem", "Reset")
    const opening = decide("click View > Zoom to fit width", [view, zoom, other])
    expect(opening).toMatchObject({ final: false, action: { locator: zoom.ref, method: "click" } })
    const opened = { ...zoom, expanded: true }
    const fit = element("menuitem", "Fit width")
    const actual = element("menuitem", "Actual size")
    const picked = decide(
      "click View > Zoom to fit width",
      [view, opened, other, actual, fit],
      `${fit.ref}=menu:Zoom;${actual.ref}=menu:Zoom`,
    )
    expect(picked).toMatchObject({ final: true, action: { locator: fit.ref, method: "click" } })
    // The sub-menu without such an item: a completion that says so, not a click on the sub-menu again.
    expect(
      decide(
        "click View > Zoom to fit height",
        [view, opened, actual, fit],
        `${actual.ref}=menu:Zoom;${fit.ref}=menu:Zoom`,
      ),
    ).toMatchObject({ type: "complete", satisfied: false })
  })

  it("opens a custom drop-down named as the list before looking for the option elsewhere on the page", () => {
    const nav = element("link", "Professionals")
    const size = element("button", "Size Pick a size", { expanded: false })
    const opening = decide("Change my size to Pro", [nav, size])
    expect(opening).toMatchObject({ final: false, action: { locator: size.ref, method: "click" } })
    const list = element("listbox", "Size")
    const pro = element("option", "Pro", { selected: false })
    const picked = decide("Change my size to Pro", [nav, { ...size, expanded: true }, list, pro])
    expect(picked).toMatchObject({ final: true, action: { locator: pro.ref, method: "click" } })
    // A commit control is never opened ahead of the option the page shows by name.
    const send = element("button", "Send options", { expanded: false })
    const later = element("link", "Later")
    expect(decide("Set the send options to Later", [send, later])).toMatchObject({
      action: { locator: later.ref },
    })
  })

  it("counts 'the last/second <group> option' among the options of the group so named", () => {
    const card = element("radio", "Card", { checked: true })
    const cash = element("radio", "Cash", { checked: false })
    const bus = element("radio", "Bus", { checked: true })
    const train = element("radio", "Train", { checked: false })
    const ferry = element("radio", "Ferry", { checked: false })
    const outline = [
      `${card.ref}=group:Payment type`,
      `${cash.ref}=group:Payment type`,
      `${bus.ref}=radiogroup:Travel mode`,
      `${train.ref}=radiogroup:Travel mode`,
      `${ferry.ref}=radiogroup:Travel mode`,
    ].join(";")
    const page = [card, cash, bus, train, ferry]
    expect(actionOf(decide("Pick the last travel option", page, outline))).toMatchObject({
      locator: ferry.ref,
      method: "check",
    })
    expect(actionOf(decide("choose the second payment option", page, outline))).toMatchObject({
      locator: cash.ref,
    })
    expect(decide("choose the first travel option", page, outline)).toMatchObject({
      type: "complete",
      satisfied: true,
    })
    // A capitalised label is a name, not a position: "the First class option" is the option First class.
    const first = element("radio", "First class", { checked: false })
    expect(actionOf(decide("Pick the First class option", [...page, first], outline))).toMatchObject({
      locator: first.ref,
    })
  })

  it("chooses an option said with 'check' in the native list box that holds it", () => {
    const sizes = element("listbox", "Sizes", { tag: "select", options: ["S", "M", "L"], value: "" })
    const fruit = element("listbox", "Fruit", { tag: "select", options: ["Apple", "Pear"], value: "" })
    const decision = decide("check Pear in Fruit", [sizes, fruit])
    expect(actionOf(decision)).toMatchObject({ locator: fruit.ref, method: "select" })
    expect(argument(decision, "value")).toBe("Pear")
    expect(actionOf(decide("在 Fruit 里选中 Apple", [sizes, fruit]))).toMatchObject({ locator: fruit.ref })
    // A list that already holds a choice is not replaced by a one-option select.
    expect(decide("check Pear in Fruit", [sizes, { ...fruit, value: "Apple" }])).not.toMatchObject({
      action: { method: "select" },
    })
  })

  it("selects one or several options of a native select at once", () => {
    const colors = element("listbox", "Colors", { tag: "select", options: ["Red", "Green", "Blue", "Black"] })
    const decision = decide("select Red, Green and Blue from Colors", [colors])
    expect(actionOf(decision)).toMatchObject({ locator: colors.ref, method: "select" })
    expect(actionOf(decision).arguments.map((entry) => entry.value)).toEqual(["Red", "Green", "Blue"])
    const topic = element("combobox", "Topic", {
      tag: "select",
      options: ["Choose a topic", "Support", "Sales"],
    })
    expect(actionOf(decide("选择 Sales", [topic])).arguments).toEqual([{ name: "value", value: "Sales" }])
  })

  it("selects ARIA options one click at a time and finishes when all are selected", () => {
    const red = element("option", "Red", { selected: false })
    const green = element("option", "Green", { selected: true })
    const blue = element("option", "Blue", { selected: false })
    const first = decide("select Red, Green and Blue", [red, green, blue])
    expect(first).toMatchObject({ final: false, action: { locator: red.ref } })
    const second = decide("select Red, Green and Blue", [{ ...red, selected: true }, green, blue])
    expect(second).toMatchObject({ final: true, action: { locator: blue.ref } })
    expect(
      decide("select Red, Green and Blue", [{ ...red, selected: true }, green, { ...blue, selected: true }]),
    ).toMatchObject({ type: "complete", satisfied: true })
  })

  it("opens a closed ARIA dropdown first, then clicks the option once the list shows", () => {
    const closed = element("combobox", "Fruit", { tag: "button", expanded: false, value: "Choose a fruit" })
    const opening = decide("select Banana from Fruit", [closed])
    expect(opening).toMatchObject({ final: false, action: { locator: closed.ref, method: "click" } })
    const open = { ...closed, expanded: true }
    const list = element("listbox", "Fruit", { options: ["Apple", "Banana"] })
    const apple = element("option", "Apple", { selected: false })
    const banana = element("option", "Banana", { selected: false })
    const picked = decide("select Banana from Fruit", [open, list, apple, banana])
    expect(picked).toMatchObject({ final: true, action: { locator: banana.ref, method: "click" } })
  })

  it("checks a radio button of a group and clears a checkbox group for 'select nothing'", () => {
    const email = element("radio", "Email", { checked: false })
    const phone = element("radio", "Phone", { checked: false })
    expect(actionOf(decide("choose Phone", [email, phone]))).toMatchObject({
      locator: phone.ref,
      method: "check",
    })
    const cheese = element("checkbox", "Cheese", { checked: true })
    const ham = element("checkbox", "Ham", { checked: false })
    expect(actionOf(decide("select nothing", [cheese, ham]))).toMatchObject({
      locator: cheese.ref,
      method: "uncheck",
    })
    expect(decide("select nothing", [{ ...cheese, checked: false }, ham])).toMatchObject({
      type: "complete",
      satisfied: true,
    })
  })

  it("checks and unchecks by state", () => {
    const agree = element("checkbox", "I agree to the terms", { checked: false })
    expect(actionOf(decide("check I agree", [agree]))).toMatchObject({ locator: agree.ref, method: "check" })
    expect(decide("tick I agree", [{ ...agree, checked: true }])).toMatchObject({
      type: "complete",
      satisfied: true,
    })
    expect(actionOf(decide("取消勾选 I agree", [{ ...agree, checked: true }]))).toMatchObject({
      method: "uncheck",
    })
  })

  it("types dates and numbers into native inputs", () => {
    const date = element("textbox", "Preferred date", { attributes: { type: "date" } })
    const quantity = element("spinbutton", "Quantity", { tag: "input", attributes: { type: "number" } })
    expect(actionOf(decide("set Preferred date to 2026-12-24", [quantity, date]))).toMatchObject({
      locator: date.ref,
      method: "input",
    })
    expect(argument(decide("set Quantity to 3", [date, quantity]), "value")).toBe("3")
  })

  it("closes a dialog with its close button, or Escape when it has none", () => {
    const close = element("button", "Close")
    const ok = element("button", "OK")
    expect(
      actionOf(
        decide("close the dialog", [ok, close], `${ok.ref}=dialog:Confirm;${close.ref}=dialog:Confirm`),
      ).locator,
    ).toBe(close.ref)
    expect(actionOf(decide("关闭对话框", [ok]))).toMatchObject({
      locator: "_page",
      method: "press",
      arguments: [{ name: "key", value: "Escape" }],
    })
  })

  it("goes to the next page by its link and completes on the last page", () => {
    const next = element("link", "Next", { attributes: { rel: "next" } })
    expect(actionOf(decide("下一页", [element("link", "2"), next])).locator).toBe(next.ref)
    expect(decide("next page", [element("link", "Previous", { attributes: { rel: "prev" } })])).toMatchObject(
      { type: "complete", satisfied: false },
    )
  })
})

describe("multi-action commands", () => {
  const email = element("textbox", "Email", { attributes: { type: "email" } })
  const password = element("textbox", "Password", { tag: "input", attributes: { type: "password" } })
  const submit = element("button", "Sign in", { attributes: { type: "submit" } })

  it("logs in field by field, then submits", () => {
    const text = "log in as alice@example.com with password wonderland"
    expect(decide(text, [email, password, submit])).toMatchObject({
      final: false,
      action: { locator: email.ref, arguments: [{ value: "alice@example.com" }] },
    })
    const filled = { ...email, value: "alice@example.com" }
    expect(decide(text, [filled, password, submit])).toMatchObject({
      final: false,
      action: { locator: password.ref, arguments: [{ value: "wonderland" }] },
    })
    expect(
      decideCommand(command(text), { elements: [filled, password, submit] }, { done: new Set(["password"]) }),
    ).toMatchObject({ final: false, part: "submitted", action: { locator: submit.ref, method: "click" } })
  })

  it("counts a login done only when the form has gone after submitting it", () => {
    const text = "log in as alice@example.com with password wonderland"
    const submitted = { done: new Set(["username", "password", "submitted"]) }
    expect(
      decideCommand(command(text), { elements: [element("link", "Sign out")] }, submitted),
    ).toMatchObject({
      type: "complete",
      satisfied: true,
    })
    const stillThere = decideCommand(command(text), { elements: [email, password, submit] }, submitted)
    expect(stillThere).toMatchObject({ type: "complete", satisfied: false })
    expect(stillThere.type === "complete" && stillThere.summary).toContain("login form is still shown")
  })

  it("searches by typing the query, then pressing the search button", () => {
    const box = element("searchbox", "Search products", { attributes: { type: "search" } })
    const button = element("button", "Search", { attributes: { type: "submit" } })
    expect(decide("search for lantern", [box, button])).toMatchObject({
      final: false,
      action: { locator: box.ref, method: "input" },
    })
    expect(decide("搜索 lantern", [{ ...box, value: "lantern" }, button])).toMatchObject({
      final: true,
      action: { locator: button.ref, method: "click" },
    })
  })
})

describe("ruleTextToAction", () => {
  const save = element("button", "Save")

  it("answers exactly one action on an element of the list", async () => {
    const answer = await Effect.runPromise(ruleTextToAction({ command: "click Save", elements: [save] }))
    expect(answer).toEqual({
      elements: [{ locator: save.ref, description: expect.any(String), method: "click", arguments: [] }],
    })
  })

  it("answers a completion with suggestions when no element fits", async () => {
    const answer = await Effect.runPromise(
      ruleTextToAction({ command: "click Delete account", elements: [save] }),
    )
    expect(answer).toMatchObject({ isComplete: true, summary: expect.stringContaining("Delete account") })
  })

  it("fails with CannotPlan and the reason for a command it cannot read", async () => {
    const error = await Effect.runPromise(
      Effect.flip(ruleTextToAction({ command: "the weather is nice", elements: [save] })),
    )
    expect(error.reason._tag).toBe("CannotPlan")
    expect(error.message).toContain("no action word")
  })
})

describe("rule text-to-action: words that name no element", () => {
  it("acts on nothing when parsing leaves no text, kind or position for the target, instead of the first element", () => {
    const link = element("link", "/login")
    const notes = element("textbox", "Notes")
    // What the grammar once made of "让 Notes 输入框获得焦点" (a click on a container's nothing); the
    // phrasing is read since (a focus on the Notes box, below), so the empty target is given as such.
    const decision = decideCommand(
      {
        kind: "click",
        target: { raw: "", container: { raw: "让 Notes 输入框获得焦", text: "让 Notes 输入框获得焦" } },
      },
      { elements: [link, notes] },
    )
    expect(decision).toMatchObject({ type: "complete" })
    expect(decision.type === "complete" ? decision.summary : "").toContain("no element is named")
    expect(decide("让 Notes 输入框获得焦点", [link, notes])).toMatchObject({
      type: "action",
      action: { locator: notes.ref },
    })
  })
})

describe("copy from a table row in the outline", () => {
  const outline = `- table "Specifications":
  - **Category** | Navigation
  - **SKU:** | SX-0001
- table:
  - **Invoice** | **Customer** | **Amount**
  - INV-3301 | Ingrid Holm | €310.00`
  const copied = (text: string) =>
    copiedText({ raw: text, text }, { elements: [], outline } as Parameters<typeof copiedText>[1])?.text

  it("takes the data cell after the bold header cell the words name, and nothing from a row of column heads", () => {
    expect(copied("sku")).toBe("SX-0001")
    expect(copied("category")).toBe("Navigation")
    expect(copied("customer")).toBeUndefined()
  })
})
