import { describe, expect, it } from "vitest"
import type { Command, TargetPhrase } from "../../src/rules/Command.ts"
import { parseCommands } from "../../src/rules/Grammar.ts"
import { textScore } from "../../src/rules/Grounding.ts"
import { locateQuery, locateSection } from "../../src/rules/grounding/Locate.ts"
import { elementsFromOutline } from "../../src/rules/Outline.ts"
import { decideStep, makeRuleStepPolicy } from "../../src/rules/RuleStepPolicy.ts"

/**
 * Clauses that were once dropped or misread (a closing "then continue to …" typed as a value, "B under
 * A" read as one name) and "find X" on a page with no search box, which means: bring X on screen here.
 * The phrasings are not the bench's.
 */

const commands = (text: string): ReadonlyArray<Command> => {
  const parsed = parseCommands(text)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.commands
}

const targetOf = (command: Command): TargetPhrase | undefined =>
  "target" in command && command.target !== undefined ? command.target : undefined

describe("a clause with no verb of its own after typing", () => {
  it("names a control when it names no field, and is never typed as a value", () => {
    const read = commands("Enter 42 as the age and 7 as the shoe size, then proceed to checkout")
    expect(read.map((command) => command.kind)).toEqual(["type", "type", "click"])
    expect(read.filter((command) => command.kind === "type" && command.field === undefined)).toEqual([])
    expect(targetOf(read[2]!)?.text).toBe("proceed to checkout")
    expect(commands("Type Ada into Name, then continue to the review").at(-1)?.kind).toBe("click")
  })

  it("still types a value the clause pairs with a field", () => {
    expect(commands("Type Ada into First name, then Lovelace into Last name")).toEqual([
      { kind: "type", value: "Ada", field: { raw: "First name", text: "First name", role: "textbox" } },
      { kind: "type", value: "Lovelace", field: { raw: "Last name", text: "Last name", role: "textbox" } },
    ])
  })
})

describe("an element under another (a tree path said in words)", () => {
  it.each([
    ["expand Reports under Finance", "Reports", "Finance"],
    ["collapse the Reports folder in Finance", "Reports folder", "Finance"],
    ["open the Budget sheet inside Finance", "Budget sheet", "Finance"],
    ["展开 Finance 下面的 Reports 文件夹", "Reports 文件夹", "Finance"],
    ["打开 Finance 底下的 Budget", "Budget", "Finance"],
  ])("reads %s as the element in its container", (text, element, container) => {
    const target = targetOf(commands(text)[0]!)
    expect(target?.text).toBe(element)
    expect(target?.container?.text).toBe(container)
  })

  it("keeps a name whose 'in' is no container in one piece", () => {
    expect(targetOf(commands("click Log in to GitHub")[0]!)).toEqual({
      raw: "Log in to GitHub",
      text: "Log in to GitHub",
    })
    expect(targetOf(commands("click Zoom in")[0]!)?.container).toBeUndefined()
  })
})

describe("an element under a closed container, on the page", () => {
  const TREE = `- link "Sextant Shop" [ref=e1] -> /
- main:
  - tree "Files":
    - treeitem "Documents" [ref=e2] [collapsed]
    - treeitem "Projects" [ref=e3] [collapsed]`

  it("opens the container first instead of taking an element of that name elsewhere", () => {
    for (const goal of ["expand Sextant under Projects", "展开 Projects 下面的 Sextant"]) {
      const decision = decideStep({ goal, url: "http://x/", outline: TREE, history: [] })
      expect(decision.toolCalls).toEqual([{ name: "click", args: { target: "e3" } }])
    }
  })
})

/** An FAQ page with no search box, as an outline. */
const FAQ = `- main:
  - h1 "Visitor information"
  - Everything about your visit.
  - h2 "Opening hours"
  - We open at 9:00 and close at 17:00 every day but Monday.
  - button "Print" [ref=e3]
  - h2 "Parking and bicycles"
  - The car park is behind the museum; bicycle racks are at the entrance.
  - h2 "Lost property"
  - Items left behind are kept at the ticket desk for thirty days.
  - h2 "Guided tours"
  - Tours start at 11:00 and 15:00 from the entrance hall; they last one hour.`

const SEARCHABLE = `- search:
  - searchbox "Search the site" [ref=e1]
  - button "Search" [ref=e2]
${FAQ}`

describe("'find X' on a page with no search box: the section of this page that carries X", () => {
  it.each([
    ["Find the bit about parking", "Parking and bicycles"],
    ["Where are the opening hours?", "Opening hours"],
    ["Can you locate the part on lost property", "Lost property"],
    ["请找到 Guided tours 那一部分", "Guided tours"],
    ["定位到 Lost property", "Lost property"],
  ])("%s → %s", (goal, heading) => {
    const query = locateQuery(goal)
    expect(query).toBeDefined()
    expect(locateSection(query!, FAQ)).toEqual({ heading })
  })

  it("refuses, naming the words, when no section carries them all or two fit alike", () => {
    expect(locateSection(locateQuery("Find the rules about pets")!, FAQ)).toEqual({
      reason: 'no section of this page is about "rules", "pets"',
    })
    // A heading that carries one word of the goal is not enough: "coaches" is nowhere in that section.
    expect(locateSection(locateQuery("Find where coaches can park")!, FAQ)).toEqual({
      reason: 'no section of this page is about "coaches", "park"',
    })
    // "entrance" is in the text of two sections, in the heading of none.
    expect(locateSection("entrance", FAQ)).toEqual({ reason: 'no section of this page is about "entrance"' })
    const twice = `${FAQ}\n  - h2 "Parking for coaches"\n  - Coaches park on Hill Street.`
    expect(locateSection("parking", twice)).toEqual({
      reason:
        '"parking" fits more than one section of this page: "Parking and bicycles", "Parking for coaches"',
    })
  })

  it("brings the section's heading on screen, with a part for it, and never follows the site's search", () => {
    const policy = makeRuleStepPolicy()
    expect(policy.parts?.("Find the bit about parking")).toBeUndefined()
    const decision = decideStep({
      goal: "Find the bit about parking",
      url: "http://x/",
      outline: FAQ,
      history: [],
    })
    expect(decision.toolCalls).toEqual([{ name: "scroll", args: { text: "Parking and bicycles" } }])
    expect(decision.parts?.map((part) => part.kind)).toEqual(["scroll"])
    const refused = decideStep({
      goal: "Find the rules about pets",
      url: "http://x/",
      outline: FAQ,
      history: [],
    })
    expect(refused.method).toBe("close")
    expect(refused.toolCalls).toEqual([])
    expect(refused.history.join("\n")).toContain('no section of this page is about "rules", "pets"')
  })

  it("searches when the page has a search box, with the search as its part", () => {
    const decision = decideStep({
      goal: "Find guided tours",
      url: "http://x/",
      outline: SEARCHABLE,
      history: [],
    })
    expect(decision.toolCalls).toEqual([{ name: "fill", args: { target: "e1", value: "guided tours" } }])
    expect(decision.parts?.map((part) => part.check.type)).toEqual(["searched"])
  })

  it("leaves goals that start with a find word but read as something else to the grammar", () => {
    expect(locateQuery("Search for lantern")).toBeUndefined()
    expect(
      makeRuleStepPolicy()
        .parts?.("Find the Print dialog and click OK")
        ?.map((part) => part.kind),
    ).toEqual(["search", "click"])
    const twoClauses = decideStep({
      goal: "Show me the parking, then click Print",
      url: "http://x/",
      outline: FAQ,
      history: [],
    })
    expect(twoClauses.toolCalls).toEqual([])
    expect(twoClauses.history.join("\n")).not.toContain("read on the page as")
  })
})

describe("field names said in other words, values after a colon, Chinese words for switching a setting", () => {
  const FORM = elementsFromOutline(`- form:
  - textbox "Postcode" [ref=e1]
  - textbox "Recipient" [ref=e2]
  - textbox "VAT number" [ref=e3]
  - textbox "Street and house number" [ref=e4]
  - textbox "Last name" [ref=e5]
  - spinbutton "Children" [ref=e6]
  - spinbutton "Adults" [ref=e7]`)
  const named = (text: string) =>
    FORM.map((element) => [element.ref, textScore(element, text)] as const)
      .filter(([, score]) => score >= 40)
      .map(([ref]) => ref)

  it.each([
    ["zip code", ["e1"]],
    ["surname", ["e5"]],
    ["收货人", ["e2"]],
    ["税号", ["e3"]],
    ["街道", ["e4"]],
    ["kids", ["e6"]],
    ["大人", ["e7"]],
  ])("finds the field a person means by %s", (text, refs) => {
    expect(named(text)).toEqual(refs)
  })

  it("labels a field with no name by the heading just above it, as a person reads it", () => {
    const [tax, named] = elementsFromOutline(`- h3 "Tax ID"
- textbox [ref=e1]
- h3 "Invoices"
- textbox "Invoice email" [ref=e2]`)
    expect(tax?.attributes.label).toBe("Tax ID")
    expect(textScore(tax!, "Tax ID")).toBeGreaterThanOrEqual(40)
    expect(named?.attributes.label).toBeUndefined()
  })

  it("reads a number with a Chinese counter word as the number, with no word left unplaced", () => {
    expect(commands("把房间数改成 3间")).toEqual([
      { kind: "type", field: { role: "textbox", raw: "房间数", text: "房间数" }, value: "3" },
    ])
    expect(
      commands("请把儿童改成两位").map((command) => (command.kind === "type" ? command.value : "")),
    ).toEqual(["2"])
  })

  it("leaves a colon after the verb out of the value", () => {
    expect(commands("备注填：轻放")).toEqual([
      { kind: "type", value: "轻放", field: { raw: "备注", text: "备注", role: "textbox" } },
    ])
  })

  it("reads 开启 / 启用 as switching a setting on and 禁用 / 停用 as switching it off", () => {
    expect(commands("请启用 Dark mode").map((command) => [command.kind, targetOf(command)?.text])).toEqual([
      ["check", "Dark mode"],
    ])
    expect(commands("停用 Auto-save").map((command) => [command.kind, targetOf(command)?.text])).toEqual([
      ["uncheck", "Auto-save"],
    ])
  })
})

describe("closing a setting the page shows as a switch", () => {
  const SETTINGS = `- main:
  - switch "Location services" [ref=e1] [checked]
  - switch "Night light" [ref=e2]
  - dialog "Tips":
    - button "Close" [ref=e3]`

  it("turns the switch off, leaves one that is off alone, and still closes a dialog", () => {
    const decide = (goal: string) => decideStep({ goal, url: "http://x/", outline: SETTINGS, history: [] })
    expect(decide("关掉 Location services").toolCalls).toEqual([{ name: "uncheck", args: { target: "e1" } }])
    expect(decide("关闭定位服务（Location services）").toolCalls).toEqual([
      { name: "uncheck", args: { target: "e1" } },
    ])
    expect(decide("关闭 Night light").toolCalls).toEqual([])
    expect(decide("关闭对话框").toolCalls).toEqual([{ name: "click", args: { target: "e3" } }])
  })
})

describe("opening a setting the page shows as a switch or box", () => {
  const SETTINGS = `- main:
  - switch "Location services" [ref=e1] [checked]
  - checkbox "Email alerts" [ref=e2]
  - link "Help" [ref=e3] -> /help`

  it("turns it on, leaves one that is on alone, and still opens a link", () => {
    const decide = (goal: string) => decideStep({ goal, url: "http://x/", outline: SETTINGS, history: [] })
    expect(decide("打开邮件提醒").toolCalls).toEqual([{ name: "check", args: { target: "e2" } }])
    expect(decide("打开 Location services").toolCalls).toEqual([])
    expect(decide("打开 Help").toolCalls).toEqual([{ name: "click", args: { target: "e3" } }])
  })
})

describe("把 X 关掉: the thing closed said before the verb", () => {
  const TICKETS = `- table:
  - row "T-4788 | Login fails | Open":
    - cell "T-4788"
    - button "Close ticket" [ref=e1]
  - row "T-4810 | Refund | Open":
    - cell "T-4810"
    - button "Close ticket" [ref=e2]`

  it("presses the close control in the row the words name", () => {
    const decide = (goal: string) => decideStep({ goal, url: "http://x/", outline: TICKETS, history: [] })
    expect(decide("把 T-4788 这个工单关掉").toolCalls).toEqual([{ name: "click", args: { target: "e1" } }])
    expect(decide("把 T-4810 工单关掉").toolCalls).toEqual([{ name: "click", args: { target: "e2" } }])
  })
})

describe("a menu path or menu item behind a closed menu button", () => {
  const CLOSED = `- link "Contact" [ref=e1] -> /contact
- main:
  - button "Menu" [ref=e2] [collapsed]`
  const OPEN = `- link "Contact" [ref=e1] -> /contact
- main:
  - button "Menu" [ref=e2] [expanded]
  - menu "Main menu":
    - menuitem "Options ▸" [ref=e3] [collapsed]
    - menuitem "Support ▸" [ref=e4] [collapsed]`
  const decide = (goal: string, outline: string) =>
    decideStep({ goal, url: "http://x/", outline, history: [] })

  it("opens the menu button when no part of the path shows, then the path in order", () => {
    expect(decide("Go to Options > Display", CLOSED).toolCalls).toEqual([
      { name: "click", args: { target: "e2" } },
    ])
    expect(decide("打开 设置 > 显示", CLOSED).toolCalls).toEqual([{ name: "click", args: { target: "e2" } }])
    expect(decide("Go to Options > Display", OPEN).toolCalls).toEqual([
      { name: "click", args: { target: "e3" } },
    ])
  })

  it("looks in a named menu that is not shown yet instead of taking a control elsewhere with part of the name", () => {
    expect(decide("Open Contact us from the Support menu", CLOSED).toolCalls).toEqual([
      { name: "click", args: { target: "e2" } },
    ])
    expect(decide("打开帮助菜单里的 Contact us", CLOSED).toolCalls).toEqual([
      { name: "click", args: { target: "e2" } },
    ])
  })
})

describe("clauses the first run of a later held-out set lost", () => {
  it("reads a Chinese field and a written value after a typing clause as the next field, not more of the value", () => {
    expect(commands("收件人填 Ada Lovelace，电话 0301234567")).toEqual([
      { kind: "type", value: "Ada Lovelace", field: { raw: "收件人", text: "收件人", role: "textbox" } },
      { kind: "type", value: "0301234567", field: { raw: "电话", text: "电话", role: "textbox" } },
    ])
    // An English value with a comma in it stays one value.
    expect(commands("Type Lovelace, Ada into Name")).toEqual([
      { kind: "type", value: "Lovelace, Ada", field: { raw: "Name", text: "Name", role: "textbox" } },
    ])
  })

  it("reads a verb with 完 as the end of a step, and never types what follows it", () => {
    const read = commands("姓名填 Grace，写完去结账")
    expect(read.map((command) => command.kind)).toEqual(["type", "click"])
    expect(read.filter((command) => command.kind === "type").map((command) => command.value)).toEqual([
      "Grace",
    ])
  })

  it("refuses a value described by what the page shows or says instead of typing the description", () => {
    for (const text of [
      "Enter the number it shows into Code",
      "Type the phrase the banner says into Reply",
    ]) {
      const parsed = parseCommands(text)
      expect(parsed.ok, text).toBe(false)
      if (!parsed.ok) expect(parsed.reason).toContain("needs a model")
    }
  })

  it("refuses a target named only by a preposition or an article instead of acting on whatever holds the word", () => {
    // "the 3rd" names no month: not a day, so "out on the 3rd" would be a box's name, which it is not.
    const parsed = parseCommands("Check out on the 3rd")
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.reason).toContain("could not place")
    // With its month it is a day, typed into the check-out field (the page says the year).
    expect(commands("Check out on the 3rd of May")).toMatchObject([
      { kind: "type", value: "--05-03", field: { text: "check-out" } },
    ])
    // A toggle's own name, written as one, is a name.
    expect(
      commands("click Off")
        .map(targetOf)
        .map((target) => target?.text),
    ).toEqual(["Off"])
  })
})
