import { describe, expect, it } from "vitest"
import type { Command } from "../../src/rules/Command.ts"
import { parseCommands } from "../../src/rules/Grammar.ts"

const commands = (text: string): ReadonlyArray<Command> => {
  const parsed = parseCommands(text)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.commands
}

const typed = (text: string) =>
  commands(text).map((command) =>
    command.kind === "type" ? [command.value, command.field?.text, command.field?.ordinal] : [command.kind],
  )

describe("rule grammar: the ways people write web instructions", () => {
  it("reads 'First name' and 'Last name' as labels, and 'the second text field' as a position", () => {
    expect(typed("Type Ada into First name")).toEqual([["Ada", "First name", undefined]])
    expect(typed('Enter "Lovelace" in the Last name field')).toEqual([["Lovelace", "Last name", undefined]])
    expect(typed("put 12345 in the second text field")).toEqual([["12345", undefined, 2]])
  })

  it("splits field–value pairs written with colons, with, in, as and Chinese verbs after the field", () => {
    expect(typed("First name: Grace, Last name: Hopper")).toEqual([
      ["Grace", "First name", undefined],
      ["Hopper", "Last name", undefined],
    ])
    expect(
      typed("Fill Full name with Ada Lovelace, Email with ada@example.com and Password with pw1"),
    ).toEqual([
      ["Ada Lovelace", "Full name", undefined],
      ["ada@example.com", "Email", undefined],
      ["pw1", "Password", undefined],
    ])
    expect(typed("Enter a in Current password, b in New password and b in Confirm new password")).toEqual([
      ["a", "Current password", undefined],
      ["b", "New password", undefined],
      ["b", "Confirm new password", undefined],
    ])
    expect(typed('Enter "Alan Turing" as full name and alan@example.com as email')).toEqual([
      ["Alan Turing", "full name", undefined],
      ["alan@example.com", "email", undefined],
    ])
    expect(typed("全名填写 张三，邮箱填写 zhang@example.com")).toEqual([
      ["张三", "全名", undefined],
      ["zhang@example.com", "邮箱", undefined],
    ])
  })

  it("types one value into both fields, and into a confirmation field when told to confirm it", () => {
    expect(typed("Type hunter22 into both new password fields")).toEqual([
      ["hunter22", "new password", 1],
      ["hunter22", "new password", 2],
    ])
    expect(typed("Type x in New password and in Confirm new password")).toEqual([
      ["x", "New password", undefined],
      ["x", "Confirm new password", undefined],
    ])
    expect(typed("New password 和 Confirm new password 都填 Abc-1")).toEqual([
      ["Abc-1", "New password", undefined],
      ["Abc-1", "Confirm new password", undefined],
    ])
    expect(typed("Enter Sunflower9 as the new password and confirm it")).toEqual([
      ["Sunflower9", "new password", undefined],
      ["Sunflower9", "confirm", undefined],
    ])
  })

  it("reads the goal form 'make sure X is checked' in English and Chinese, lists included", () => {
    expect(commands("Make sure Cooking and Music are checked")).toEqual([
      { kind: "check", target: { raw: "Cooking", text: "Cooking" } },
      { kind: "check", target: { raw: "Music", text: "Music" } },
    ])
    expect(commands("Make sure Remember me is not checked")[0]?.kind).toBe("uncheck")
    expect(commands("确保 Travel 没有被勾选")[0]?.kind).toBe("uncheck")
    expect(commands("确保 Email alerts 已勾选")[0]?.kind).toBe("check")
  })

  it("reads each name of a comma list after 'make sure' as a box of its own, and 'it' as no box", () => {
    const boxes = (text: string) =>
      commands(text).map((command) => ("target" in command ? [command.kind, command.target?.text] : []))
    expect(boxes("make sure Music, Sports and Cooking are checked")).toEqual([
      ["check", "Music"],
      ["check", "Sports"],
      ["check", "Cooking"],
    ])
    expect(boxes("确保 Music、Sports 和 Cooking 都已勾选")).toEqual([
      ["check", "Music"],
      ["check", "Sports"],
      ["check", "Cooking"],
    ])
    expect(parseCommands("make sure it is checked")).toEqual({
      ok: false,
      reason: "'make sure' needs what to check, e.g. make sure Newsletter is checked",
    })
    expect(parseCommands("make sure the box")).toEqual({
      ok: false,
      reason: "'make sure' needs a state, e.g. make sure Newsletter is checked",
    })
  })

  it("checks or unchecks each box of a list of short names, and keeps a long label with an 'and' whole", () => {
    const targets = (text: string) =>
      commands(text).map((command) => ("target" in command ? [command.kind, command.target?.text] : []))
    expect(targets("Check Music and Sports")).toEqual([
      ["check", "Music"],
      ["check", "Sports"],
    ])
    expect(targets("Tick Books, Films and Travel")).toEqual([
      ["check", "Books"],
      ["check", "Films"],
      ["check", "Travel"],
    ])
    expect(targets("请勾选 Music 和 Sports")).toEqual([
      ["check", "Music"],
      ["check", "Sports"],
    ])
    expect(targets("Uncheck Email alerts and SMS alerts")).toEqual([
      ["uncheck", "Email alerts"],
      ["uncheck", "SMS alerts"],
    ])
    expect(targets("Check I agree to the terms and conditions")).toEqual([
      ["check", "I agree to the terms and conditions"],
    ])
  })

  it("aims 'it' after 'wait for X' at X", () => {
    expect(commands("Wait for the Start button to appear, then click it")).toEqual([
      { kind: "click", target: { raw: "Start button", text: "Start", role: "button" } },
    ])
  })

  it("never turns a negated step into the action it forbids", () => {
    // A box not to tick must end unticked.
    expect(commands("勾选 Music，不要勾选 Sports")).toEqual([
      { kind: "check", target: { raw: "Music", text: "Music" } },
      { kind: "uncheck", target: { raw: "Sports", text: "Sports" } },
    ])
    expect(commands("Tick Music and don't tick Sports").at(-1)).toEqual({
      kind: "uncheck",
      target: { raw: "Sports", text: "Sports" },
    })
    // A link not to click, after a click on the same name: the place it names is excluded.
    expect(commands("Open Pricing in the top navigation, don't click the footer Pricing")).toEqual([
      {
        kind: "open",
        target: {
          raw: "Pricing in the top navigation",
          text: "Pricing",
          container: { raw: "top navigation", text: "top navigation" },
          outside: { raw: "footer", text: "footer" },
        },
      },
    ])
    expect(commands("打开顶部导航里的 Pricing，不要点页脚里的 Pricing")[0]).toMatchObject({
      kind: "open",
      target: { text: "Pricing", outside: { text: "页脚" } },
    })
    expect(commands("打开顶部导航里的 Pricing，别点页脚那个")[0]).toMatchObject({
      kind: "open",
      target: { text: "Pricing", outside: { text: "页脚" } },
    })
    // "不" before a verb, "but not", "and not": the verb before, negated.
    expect(commands("勾选 Music，不勾选 Sports").at(-1)).toEqual({
      kind: "uncheck",
      target: { raw: "Sports", text: "Sports" },
    })
    expect(commands("Check Music but not Sports").map((command) => command.kind)).toEqual([
      "check",
      "uncheck",
    ])
    expect(commands("Check Music and not Sports").map((command) => command.kind)).toEqual([
      "check",
      "uncheck",
    ])
    // Another control not to click is simply not clicked; the name of the one to click stays clean.
    expect(commands("Click Save, not Cancel")).toEqual([
      { kind: "click", target: { raw: "Save", text: "Save" } },
    ])
    // Anything else not to do cannot be checked: the command is refused, not half done.
    expect(parseCommands("Click Save but do not submit").ok).toBe(false)
    const refused = parseCommands("Click Save and don't close the dialog")
    expect(refused.ok).toBe(false)
    expect(refused.ok ? "" : refused.reason).toContain("says what not to do")
    expect(parseCommands("请勿点击 Delete").ok).toBe(false)
  })

  it("reads 'My city is Ghent' as the field City and the value Ghent, without the 'is'", () => {
    expect(typed("My city is Ghent")).toEqual([["Ghent", "city", undefined]])
    expect(typed("My home airport is Rome (FCO).")).toEqual([["Rome (FCO)", "home airport", undefined]])
    // A word the rules do not know before "the <setting> to <value>" sets it.
    expect(typed("Bump the quantity to 4")).toEqual([["4", "quantity", undefined]])
    // Words that end on "as a" name no field: the sentence is refused, not typed into "Export the document as a".
    expect(parseCommands("Export the document as a PDF").ok).toBe(false)
  })

  it("reads a wish for what a field should say ('I want my bio to say …') as typing into that field", () => {
    expect(typed('I want my bio to say "Loves compilers and tea"')).toEqual([
      ["Loves compilers and tea", "bio", undefined],
    ])
    expect(typed("I'd like my city to be Ghent")).toEqual([["Ghent", "city", undefined]])
    // The wish is not the field's name, and a description after it is still no value to type.
    expect(parseCommands("I want my bio to say the sum of the two numbers").ok).toBe(false)
    expect(parseCommands('I want my bio "hello"').ok).toBe(false)
    expect(parseCommands("I want my home city Ghent").ok).toBe(false)
  })

  it("reads a sign-up as one form sent once: labelled parts, boxes ticked after it, its own send button", () => {
    const kinds = (text: string) => commands(text).map((command) => command.kind)
    // Boxes ticked right after the sign-up are ticked before the form is sent.
    expect(
      kinds(
        "Register an account for Edsger Dijkstra, edsger@example.com, password goto-harmful, Premium plan, and accept the terms",
      ),
    ).toEqual(["type", "type", "type", "select", "check", "submit"])
    // A list of labelled values after a colon, split by semicolons, sent by the button that names the sign-up.
    const listed = commands(
      "Create an account: full name Barbara Liskov; email barbara@example.com; password subst1tute; then click Create account",
    )
    expect(listed).toEqual([
      {
        kind: "type",
        value: "Barbara Liskov",
        field: { raw: "full name", text: "full name", role: "textbox" },
      },
      { kind: "type", value: "barbara@example.com", field: { raw: "email", text: "email", role: "textbox" } },
      { kind: "type", value: "subst1tute", field: { raw: "password", text: "password", role: "textbox" } },
      { kind: "click", target: { raw: "Create account", text: "Create account" } },
    ])
    expect(kinds("Sign up as Ada Lovelace; email ada@example.com; password x123")).toEqual([
      "type",
      "type",
      "type",
      "submit",
    ])
    // A click on anything else is a step after the form is sent, not its send.
    expect(kinds("Sign up as Ada with ada@example.com and click Help")).toEqual([
      "type",
      "type",
      "submit",
      "click",
    ])
  })

  it("reads 'go back to the Profile tab' as going to that tab, and only a bare 'go back' as history", () => {
    expect(commands("Enable the weekly digest, then go back to the Profile tab").at(-1)).toEqual({
      kind: "click",
      target: { raw: "Profile tab", text: "Profile", role: "tab" },
    })
    expect(commands("Tick Weekly digest and then return to the Profile tab")).toEqual([
      { kind: "check", target: { raw: "Weekly digest", text: "Weekly digest" } },
      { kind: "click", target: { raw: "Profile tab", text: "Profile", role: "tab" } },
    ])
    expect(commands("go back")).toEqual([{ kind: "back" }])
    expect(commands("go back to the previous page")).toEqual([{ kind: "back" }])
    expect(commands("返回上一页")).toEqual([{ kind: "back" }])
  })

  it("splits a Chinese clause that names its topic before its verb after a comma, so no clause is folded into another", () => {
    // The first clause names no action: the command is refused rather than read as one list name.
    const parsed = parseCommands("我想用发票（Invoice）付款，配送选 Overnight")
    expect(parsed.ok).toBe(false)
    expect(parsed.ok ? "" : parsed.reason).toContain("我想用发票")
    expect(commands("付款方式选 Invoice，配送选 Overnight").map((command) => command.kind)).toEqual([
      "select",
      "select",
    ])
  })

  it("clicks what a Chinese wait clause waited for ('等 X 出现后点击它'), in one clause or two", () => {
    const loadResults = { raw: "Load results 按钮", text: "Load results", role: "button" }
    expect(commands("等 Load results 按钮出现后点击它")).toEqual([{ kind: "click", target: loadResults }])
    expect(commands("等待 Load results 按钮出现，然后点击它")).toEqual([
      { kind: "click", target: loadResults },
    ])
    expect(commands("等到“Confirm”按钮出现以后再点它")).toEqual([
      { kind: "click", target: { raw: "Confirm按钮", text: "Confirm", role: "button" } },
    ])
    // Without a word for appearing, 等 is not a wait clause.
    expect(parseCommands("等一下").ok).toBe(false)
  })

  it("searches a named box for a quoted query taken verbatim", () => {
    expect(commands('Search articles for "agents", then click Go')[0]).toEqual({
      kind: "search",
      query: "agents",
      field: { raw: "articles", text: "articles" },
    })
    expect(commands("Search for lanterns")[0]).toEqual({ kind: "search", query: "lanterns" })
  })

  it("takes a quoted query alone, leaving out the words around it ('articles about \"web automation\"')", () => {
    expect(commands('Look up articles about "web automation" and hit Go')[0]).toEqual({
      kind: "search",
      query: "web automation",
      field: { raw: "articles", text: "articles" },
    })
    expect(commands('search "cats" in the Search box')[0]).toMatchObject({ kind: "search", query: "cats" })
    // Unquoted, nothing marks where the query starts: the words stay in it.
    expect(commands("search for articles about cats")[0]).toEqual({
      kind: "search",
      query: "articles about cats",
    })
  })

  it("reads a leading place clause as the container of the next, also when a word of the place is a verb", () => {
    expect(commands("In the Time zone list, choose UTC+00:00 London")).toEqual([
      {
        kind: "select",
        options: ["UTC+00:00 London"],
        target: { raw: "UTC+00:00 London", text: "UTC+00:00 London" },
        list: { raw: "Time zone list", text: "Time zone", role: "listbox" },
      },
    ])
    const [typed] = commands("在 Shipping 标签页中，把 City 填为 Porto")
    expect(typed).toMatchObject({
      kind: "type",
      value: "Porto",
      field: { text: "City", container: { text: "Shipping", role: "tab" } },
    })
  })

  it("reads key chords, drags, text selection, focus and menu paths without a verb", () => {
    expect(commands("Press Ctrl+K")).toEqual([{ kind: "press", key: "Control+k" }])
    expect(commands("按 Ctrl+K 打开命令面板")).toEqual([{ kind: "press", key: "Control+k" }])
    expect(commands("Drag Fix login bug to Done")[0]).toMatchObject({
      kind: "drag",
      source: { text: "Fix login bug" },
      target: { text: "Done" },
    })
    expect(commands("Drag the Move me box 100 pixels to the right")[0]).toMatchObject({
      kind: "drag",
      offset: { x: 100, y: 0 },
    })
    expect(commands("把 Call supplier 拖到 Done")[0]).toMatchObject({
      kind: "drag",
      target: { text: "Done" },
    })
    expect(commands('Select the text "quick brown fox"')).toEqual([
      { kind: "selectText", text: "quick brown fox" },
    ])
    expect(commands("Focus the Notes field")[0]).toMatchObject({ kind: "focus", target: { text: "Notes" } })
    expect(commands("File > Export > CSV")[0]).toMatchObject({
      kind: "click",
      target: { path: ["File", "Export", "CSV"] },
    })
  })

  it("keeps a container said before the clause and drops 'on the page'", () => {
    expect(commands("In Colors, select Blue")[0]).toMatchObject({ kind: "select", list: { text: "Colors" } })
    expect(commands("In the Notifications tab, check Weekly digest")[0]).toMatchObject({
      kind: "check",
      target: { text: "Weekly digest", container: { text: "Notifications", role: "tab" } },
    })
    expect(commands("Click the Save button on the page")[0]).toEqual({
      kind: "click",
      target: { raw: "Save button on the page", text: "Save", role: "button" },
    })
  })
})

describe("rule grammar: Chinese words that hold a particle", () => {
  it("keeps 目的地 (destination) whole although 的 is a particle, and still reads 中的 between words as in", () => {
    expect(commands("目的地选择 Prague")).toMatchObject([
      { kind: "select", options: ["Prague"], list: { text: "目的地" } },
    ])
    expect(commands("在目的地中输入 Vie")).toMatchObject([
      { kind: "type", value: "Vie", field: { text: "目的地" } },
    ])
    expect(commands("点击对话框中的确定")).toMatchObject([
      { kind: "click", target: { text: "确定", container: { role: "dialog" } } },
    ])
  })
})

describe("rule grammar: a field named after an article, then its value", () => {
  it("reads 'Enter the coupon code WINTER' as WINTER into the coupon code field, and keeps lower-case words one value", () => {
    expect(typed("Enter the coupon code WINTER")).toEqual([["WINTER", "coupon code", undefined]])
    expect(typed("Type your name Ada Lovelace")).toEqual([["Ada Lovelace", "name", undefined]])
    expect(typed("type your email ada@example.com")).toEqual([["ada@example.com", "email", undefined]])
    expect(typed("type quick brown fox")).toEqual([["quick brown fox", undefined, undefined]])
  })

  it("refuses lower-case words after 'the' as a description of the value, and types them quoted", () => {
    const parsed = parseCommands("type the quick brown fox")
    expect(parsed.ok ? parsed.commands : parsed.reason).toContain(
      'needs a model to work out "the quick brown fox"',
    )
    expect(typed('type "the quick brown fox"')).toEqual([["the quick brown fox", undefined, undefined]])
  })

  it("reads 'apply' and 'redeem' with a code as typing it, then pressing the button the verb names", () => {
    expect(commands("Apply the coupon code WINTER")).toMatchObject([
      { kind: "type", value: "WINTER", field: { text: "coupon code" } },
      { kind: "click", target: { text: "apply", role: "button" } },
    ])
    expect(commands("Redeem the gift card code GIFT-25")).toMatchObject([
      { kind: "type", value: "GIFT-25", field: { text: "gift card code" } },
      { kind: "click", target: { text: "redeem", role: "button" } },
    ])
    expect(commands("apply the filters")).toMatchObject([
      { kind: "click", target: { text: "apply filters" } },
    ])
  })

  it("reads a code after a field named in lower case with no article, and 'use' as applying it with Apply", () => {
    expect(commands("Apply promo code AUTUMN")).toMatchObject([
      { kind: "type", value: "AUTUMN", field: { text: "promo code", role: "textbox" } },
      { kind: "click", target: { text: "apply", role: "button" } },
    ])
    expect(commands("use the gift card code GIFT-25")).toMatchObject([
      { kind: "type", value: "GIFT-25", field: { text: "gift card code" } },
      { kind: "click", target: { text: "apply", role: "button" } },
    ])
    expect(commands("Use voucher X9Y and click Checkout")).toMatchObject([
      { kind: "type", value: "X9Y", field: { text: "voucher" } },
      { kind: "click", target: { text: "apply", role: "button" } },
      { kind: "click", target: { text: "Checkout" } },
    ])
    // A capitalised word is a control's name, not a field: "Apply Summer Sale" stays a click.
    expect(commands("Apply Summer Sale")).toMatchObject([
      { kind: "click", target: { text: "apply Summer Sale" } },
    ])
  })

  it("reads 'the last shipping option' as a position among a group's options, 'the First class option' as a name", () => {
    expect(commands("Pick the last shipping option")).toMatchObject([
      { kind: "select", target: { text: "shipping", role: "option", ordinal: -1 } },
    ])
    expect(commands("choose the second payment option")).toMatchObject([
      { kind: "select", target: { text: "payment", ordinal: 2 } },
    ])
    const named = commands("Pick the First class option")[0]
    expect(named).toMatchObject({ kind: "select", target: { text: "First class", role: "option" } })
    expect(named?.kind === "select" ? named.target.ordinal : "no select").toBeUndefined()
    expect(typed("Type Ada into the first name field")).toEqual([["Ada", "first name", undefined]])
  })

  it("reads a 'use' clause that applies no value as one with no action word, never a click on 'use …'", () => {
    for (const text of ["Use the dark theme", "use frobnicator on the page"]) {
      const parsed = parseCommands(text)
      expect(parsed).toMatchObject({ ok: false, noActionIn: text })
    }
  })
})

describe("rule grammar: headings and places that are not commands", () => {
  it("reads a colon before a verb as the end of a heading, and a colon before a value as a field–value pair", () => {
    expect(commands("Edit the profile: set Nickname to Lin and click Save in the dialog")).toMatchObject([
      { kind: "type", value: "Lin", field: { text: "Nickname" } },
      { kind: "click", target: { text: "Save", container: { role: "dialog" } } },
    ])
    expect(typed("Search: type lantern")).toEqual([["lantern", undefined, undefined]])
    expect(typed("Shipping speed: Overnight")).toEqual([["Overnight", "Shipping speed", undefined]])
  })

  it("reads field names each followed by a written value as typing (with or without a verb), and nothing else verbless", () => {
    expect(typed("Start date 2024-12-24, end date 2024-12-31")).toEqual([
      ["2024-12-24", "Start date", undefined],
      ["2024-12-31", "end date", undefined],
    ])
    expect(typed("Email ada@example.com and Quantity 3")).toEqual([
      ["ada@example.com", "Email", undefined],
      ["3", "Quantity", undefined],
    ])
    expect(typed("enter first name Katherine, last name Johnson and email kj@nasa.gov")).toEqual([
      ["Katherine", "first name", undefined],
      ["Johnson", "last name", undefined],
      ["kj@nasa.gov", "email", undefined],
    ])
    expect(typed("Type Ada, Grace and Alan")).toEqual([["Ada, Grace and Alan", undefined, undefined]])
    expect(parseCommands("Premium plan, Monthly").ok).toBe(false)
    expect(parseCommands("the Notifications tab").ok).toBe(false)
  })

  it("reads 'outside Y' and 'not in Y' as a container the element is not in", () => {
    expect(commands("Click the Send button outside the newsletter form")).toMatchObject([
      {
        kind: "click",
        target: { text: "Send", role: "button", outside: { text: "newsletter", role: "form" } },
      },
    ])
    expect(commands("click Save not in the dialog")).toMatchObject([
      { kind: "click", target: { text: "Save", outside: { role: "dialog" } } },
    ])
    expect(commands("click the outside link")).toMatchObject([
      { kind: "click", target: { text: "outside", role: "link" } },
    ])
  })
})

describe("rule grammar: signing up with what the sentence gives", () => {
  it("fills name, email, password, plan and terms from one sentence, then submits; 'Sign up' alone is a click", () => {
    expect(
      commands(
        "Register as Ada Lovelace with ada@example.com and password engine1843 on the Plus plan, agreeing to the terms",
      ),
    ).toMatchObject([
      { kind: "type", value: "Ada Lovelace", field: { text: "name" } },
      { kind: "type", value: "ada@example.com", field: { text: "email" } },
      { kind: "type", value: "engine1843", field: { text: "password" } },
      { kind: "select", options: ["Plus"], list: { text: "plan" } },
      { kind: "check", target: { text: "terms" } },
      { kind: "submit" },
    ])
    expect(commands("Sign up")).toMatchObject([{ kind: "click", target: { text: "Sign up" } }])
    expect(commands("click Register")).toMatchObject([{ kind: "click", target: { text: "Register" } }])
  })
})

describe("rule grammar: a day chosen for a date field", () => {
  it("reads pick, choose and select with a day as the date to type into the field, in the form a date input holds", () => {
    expect(typed("Pick June 14, 2024 as the check-in date")).toEqual([
      ["2024-06-14", "check-in date", undefined],
    ])
    expect(typed("Choose 2024-07-04 as the check-in date")).toEqual([
      ["2024-07-04", "check-in date", undefined],
    ])
    expect(typed("Pick 14 June 2024 as the check-in date")).toEqual([
      ["2024-06-14", "check-in date", undefined],
    ])
    expect(typed("Select July 4, 2024 for Departure")).toEqual([["2024-07-04", "Departure", undefined]])
    expect(typed("入住日期选择 2024-05-20")).toEqual([["2024-05-20", "入住日期", undefined]])
    expect(typed("入住日期选择 2024年5月20日")).toEqual([["2024-05-20", "入住日期", undefined]])
    // A day set into a field named as a date is written as a date input holds it ("把开始日期定在2024年3月8日");
    // into any other field the words stay as said.
    expect(typed("Set check-in to 2024-05-14")).toEqual([["2024-05-14", "check-in", undefined]])
    expect(typed("Set End date to June 3, 2024")).toEqual([["2024-06-03", "End date", undefined]])
    expect(typed("把开始日期定在2024年3月8日")).toEqual([["2024-03-08", "开始日期", undefined]])
    expect(typed("Type June 3, 2024 into Notes")).toEqual([["June 3, 2024", "Notes", undefined]])
  })

  it("keeps a choice that is no day, or a day with no field, a choice", () => {
    expect(commands("Select Red from Colors")).toMatchObject([{ kind: "select", options: ["Red"] }])
    expect(commands("Choose Large as the size")).toMatchObject([{ kind: "select", options: ["Large"] }])
    expect(commands("Select 2024-05-14")).toMatchObject([{ kind: "select" }])
  })
})

describe("rule grammar: paths, lists, exclusions and keys written the ways people write them", () => {
  it("reads a menu path drawn with arrows, in brackets after a description, or followed by a remark", () => {
    const path = (text: string) =>
      commands(text).map((command) => ("target" in command ? command.target?.path : undefined))
    expect(path("Edit → Preferences → Theme")).toEqual([["Edit", "Preferences", "Theme"]])
    expect(path("Click View » Zoom")).toEqual([["View", "Zoom"]])
    expect(path("Print the page (File > Print…)")).toEqual([["File", "Print..."]])
    expect(path("Edit → Copy，帮我复制一下")).toEqual([["Edit", "Copy"]])
  })

  it("reads options listed with commas before 'as' as one option each, and a two-word option whole", () => {
    expect(commands("Choose Jazz, Rock and Blues as genres")).toMatchObject([
      { kind: "select", options: ["Jazz", "Rock", "Blues"], list: { text: "genres" } },
    ])
    expect(commands("Choose Black and White as the theme")).toMatchObject([
      { kind: "select", options: ["Black and White"] },
    ])
  })

  it("reads 'switch X to V' as a setting changed, and 'switch to X' still as moving to a tab", () => {
    expect(typed("Switch the currency to EUR")).toEqual([["EUR", "currency", undefined]])
    expect(commands("Switch to the Billing tab")).toMatchObject([
      { kind: "click", target: { text: "Billing", role: "tab" } },
    ])
  })

  it("reads ', not the footer' and 'not the one in the dialog' as places the element must not be in", () => {
    expect(commands("Open Contact from the header, not the footer")).toMatchObject([
      {
        kind: "open",
        target: { text: "Contact", container: { text: "header" }, outside: { text: "footer" } },
      },
    ])
    expect(commands("Click Save, not the one in the dialog")).toMatchObject([
      { kind: "click", target: { text: "Save", outside: { role: "dialog" } } },
    ])
  })

  it("reads 'close it with Escape' as the key press it names", () => {
    expect(commands("Open the Settings dialog and close it by pressing Esc")).toMatchObject([
      { kind: "open" },
      { kind: "press", key: "Escape" },
    ])
  })
})
