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

  it("searches a named box for a quoted query taken verbatim", () => {
    expect(commands('Search articles for "agents", then click Go')[0]).toEqual({
      kind: "search",
      query: "agents",
      field: { raw: "articles", text: "articles" },
    })
    expect(commands("Search for lanterns")[0]).toEqual({ kind: "search", query: "lanterns" })
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
    // "set" keeps the words as said: a date input takes them in its own format.
    expect(typed("Set check-in to 2024-05-14")).toEqual([["2024-05-14", "check-in", undefined]])
    expect(typed("Set End date to June 3, 2024")).toEqual([["June 3, 2024", "End date", undefined]])
  })

  it("keeps a choice that is no day, or a day with no field, a choice", () => {
    expect(commands("Select Red from Colors")).toMatchObject([{ kind: "select", options: ["Red"] }])
    expect(commands("Choose Large as the size")).toMatchObject([{ kind: "select", options: ["Large"] }])
    expect(commands("Select 2024-05-14")).toMatchObject([{ kind: "select" }])
  })
})
