import { describe, expect, it } from "vitest"
import { parseCommands } from "../../src/rules/Grammar.ts"
import { readReference, readReferencesOnPage } from "../../src/rules/grounding/Reference.ts"
import { goalPartsOf } from "../../src/rules/RulePlanner.ts"
import { decideStep } from "../../src/rules/RuleStepPolicy.ts"

/**
 * A value described by whose it is and what kind ("Jonas Berg's phone number", "王伟的手机号", "the
 * invoice number of the overdue invoice") is a reference: the grammar splits it into owner and kind,
 * the page answers it (the cell of the owner's row under the kind's column, the value beside the kind's
 * word in the owner's list or card), and the goal is then read with the quoted literal, so its check is
 * that this literal landed in the named field. Nothing, or more than one value, answering refuses it.
 */

const referenceOf = (text: string) => {
  const result = parseCommands(text)
  if (result.ok) throw new Error(`expected ${text} to be refused, got ${JSON.stringify(result.commands)}`)
  return result.reference
}

/** An outline as `look()` writes it: a team table, an invoice table, a definition list, two cards, a form. */
const OUTLINE = `- main:
  - h1 "Staff"
  - table "Team":
    - | Name | Position | E-mail | Telephone | Site |
    - checkbox [ref=e3] | Jonas Berg | Buyer | jonas.berg@aurora.example | +46 8 555 0101 | Malmö | button "Ring" [ref=e4]
    - checkbox [ref=e5] | Priya Nair | Analyst | priya@aurora.example | +91 80 5550 2244 | Pune | button "Ring" [ref=e6]
    - checkbox [ref=e7] | Tomas Lind | Analyst | tomas.lind@aurora.example | +46 8 555 0177 | Malmö | button "Ring" [ref=e8]
    - checkbox [ref=e9] | 王伟 | 采购 | wangwei@aurora.example | +86 27 5550 1212 | 武汉 | button "Ring" [ref=e10]
  - table:
    - Invoice | Customer | Amount (€) | State
    - link "F-0091" [ref=e11] | Jonas Berg | 120.00 | Paid
    - link "F-0092" [ref=e12] | Priya Nair | 87.50 | Overdue
    - link "F-0093" [ref=e13] | Tomas Lind | 15.00 | Open
  - region "Warehouse lead":
    - h2 "Warehouse lead"
    - Name · Alva Ek · Mobile · +46 70 555 88 21
  - h3 "Returns desk"
  - Phone: +46 8 555 0400 · Email: returns@aurora.example
  - h3 "Press office"
  - Phone: +46 8 555 0500 · Note: open on weekdays from nine in the morning to five in the aftern…
  - form:
    - textbox "Recipient" [ref=e20]
    - textbox "Subject" [ref=e21]
    - textbox "Reference" [ref=e22]`

describe("the grammar splits a described value into owner and kind", () => {
  it("reads possessives, 'the <kind> of <owner>' and 的-phrases as references", () => {
    expect(referenceOf("Enter Jonas Berg's phone number in the Subject field")).toMatchObject({
      owner: "Jonas Berg",
      kind: "phone number",
    })
    expect(referenceOf("Type the invoice number of the overdue invoice into Reference")).toMatchObject({
      owner: "the overdue invoice",
      kind: "invoice number",
    })
    expect(referenceOf("请把王伟的手机号填到 Subject 里")).toMatchObject({ owner: "王伟", kind: "手机号" })
    expect(referenceOf("Put the value of Telephone from the table into Subject")).toMatchObject({
      owner: "",
      kind: "Telephone",
    })
  })

  it("keeps computations and values of several rows as plain refusals, with no reference to read", () => {
    for (const text of [
      "Type the sum of the two amounts into Reference",
      "Enter the number of open invoices into Reference",
      "Type the email of every Malmö colleague into Recipient",
      "把所有发票的总金额填到 Reference 里",
    ]) {
      const result = parseCommands(text)
      expect(result.ok).toBe(false)
      expect(result.ok ? undefined : result.reference).toBeUndefined()
      expect(result.ok ? "" : result.reason).toMatch(/needs a model|需要模型/)
    }
  })
})

describe("a reference is read from the page's tables, lists and cards", () => {
  it("reads the cell of the one row carrying the owner under the column the kind goes by", () => {
    expect(readReference({ owner: "Priya Nair", kind: "email" }, OUTLINE)).toEqual({
      value: "priya@aurora.example",
    })
    expect(readReference({ owner: "王伟", kind: "电话" }, OUTLINE)).toEqual({ value: "+86 27 5550 1212" })
    // Owner words in two cells of the row, and a word naming the table's own column ("invoice").
    expect(readReference({ owner: "the Malmö buyer", kind: "telephone" }, OUTLINE)).toEqual({
      value: "+46 8 555 0101",
    })
    expect(readReference({ owner: "the overdue invoice", kind: "invoice number" }, OUTLINE)).toEqual({
      value: "F-0092",
    })
    expect(readReference({ owner: "Paid 状态那张发票", kind: "发票号" }, OUTLINE)).toEqual({
      value: "F-0091",
    })
  })

  it("reads header cells the outline prints in bold by their words", () => {
    // A header row of bold cells, and a row header in bold beside the data cells (a spec table).
    const outline = `- table:
  - **Name** | **E-mail** | **Telephone**
  - **Jonas Berg** | jonas.berg@aurora.example | +46 8 555 0101
  - **Priya Nair** | priya@aurora.example | +91 80 5550 2244`
    expect(readReference({ owner: "Priya Nair", kind: "email" }, outline)).toEqual({
      value: "priya@aurora.example",
    })
    const desk = `- table "Desk":
  - **Phone** | +46 8 555 0400
  - **E-mail** | returns@aurora.example`
    expect(readReference({ owner: "", kind: "email" }, desk)).toEqual({ value: "returns@aurora.example" })
  })

  it("reads a definition list and a contact card by their heading or their lines", () => {
    expect(readReference({ owner: "Alva Ek", kind: "mobile number" }, OUTLINE)).toEqual({
      value: "+46 70 555 88 21",
    })
    expect(readReference({ owner: "the returns desk", kind: "e-mail address" }, OUTLINE)).toEqual({
      value: "returns@aurora.example",
    })
  })

  it("answers several values when more than one row carries the owner, none when no row does", () => {
    expect(readReference({ owner: "the Malmö contact", kind: "email" }, OUTLINE)).toEqual({
      several: ["jonas.berg@aurora.example", "tomas.lind@aurora.example"],
    })
    expect(readReference({ owner: "Analyst", kind: "phone" }, OUTLINE)).toEqual({
      several: ["+91 80 5550 2244", "+46 8 555 0177"],
    })
    expect(readReference({ owner: "Bruno Alves", kind: "email" }, OUTLINE)).toEqual({ none: true })
    // An owner word no cell holds ("senior") leaves the row out rather than matching on the rest.
    expect(readReference({ owner: "senior analyst Priya", kind: "email" }, OUTLINE)).toEqual({ none: true })
    // A kind no column, term or label goes by.
    expect(readReference({ owner: "Jonas Berg", kind: "birthday" }, OUTLINE)).toEqual({ none: true })
  })

  it("never answers a value the page shows cut short", () => {
    expect(readReference({ owner: "the press office", kind: "note" }, OUTLINE)).toEqual({ none: true })
  })
})

describe("a goal with a reference is read as the literal the page shows", () => {
  it("writes the literal in quotes, so the goal's check is that it landed in the named field", () => {
    const read = readReferencesOnPage(
      "Type Tomas Lind's e-mail into the Recipient field",
      OUTLINE,
      parseCommands,
    )
    expect(read).toEqual({
      goal: 'Type "tomas.lind@aurora.example" into the Recipient field',
      commands: [`"Tomas Lind's e-mail" = "tomas.lind@aurora.example"`],
    })
    const goal = read !== undefined && "goal" in read ? read.goal : ""
    expect(goalPartsOf(goal)?.map((part) => part.check)).toEqual([
      { type: "fieldValue", target: "Recipient", value: "tomas.lind@aurora.example" },
    ])
  })

  it("reads two references of one goal, in Chinese too", () => {
    const read = readReferencesOnPage(
      "把王伟的邮箱填到 Recipient 里，再把 Priya Nair 的电话填到 Subject 里",
      OUTLINE,
      parseCommands,
    )
    expect(read !== undefined && "goal" in read ? read.goal : read).toBe(
      '把"wangwei@aurora.example"填到 Recipient 里,再把 "+91 80 5550 2244"填到 Subject 里',
    )
  })

  it("refuses with the reference named when the page answers it with nothing or with several values", () => {
    expect(
      readReferencesOnPage("Type the phone of the analyst into Subject", OUTLINE, parseCommands),
    ).toEqual({
      reason:
        'needs a model to work out "the phone of the analyst": it fits more than one value on this page ("+91 80 5550 2244", "+46 8 555 0177"); name the row more exactly or quote the value',
    })
    expect(readReferencesOnPage("Type Bruno Alves's email into Recipient", OUTLINE, parseCommands)).toEqual({
      reason:
        'needs a model to work out "Bruno Alves\'s email": no table row, list or card on this page shows "Bruno Alves" together with "email"; quote the value to type it as written',
    })
    const chinese = readReferencesOnPage("把赵敏的邮箱填到 Recipient 里", OUTLINE, parseCommands)
    expect(chinese !== undefined && "reason" in chinese ? chinese.reason : "").toContain(
      "需要模型来算出“赵敏的邮箱”",
    )
  })

  it("leaves a goal with no reference to the grammar", () => {
    expect(readReferencesOnPage('Type "x@y.example" into Recipient', OUTLINE, parseCommands)).toBeUndefined()
    expect(
      readReferencesOnPage("Type the sum of the two amounts into Reference", OUTLINE, parseCommands),
    ).toBeUndefined()
  })
})

describe("the rule step policy reads a reference on the page before acting", () => {
  it("fills the named field with the literal and states the part that checks it", () => {
    const decision = decideStep({
      goal: "Put the telephone of Priya Nair into the Subject box",
      url: "http://127.0.0.1/staff",
      outline: OUTLINE,
      history: [],
    })
    expect(decision.toolCalls).toEqual([{ name: "fill", args: { target: "e21", value: "+91 80 5550 2244" } }])
    expect(decision.parts?.map((part) => part.check)).toEqual([
      { type: "fieldValue", target: "Subject", value: "+91 80 5550 2244" },
    ])
  })

  it("does nothing and closes with the reference named when the page cannot settle it", () => {
    const decision = decideStep({
      goal: "Put the e-mail of the Malmö contact into Recipient",
      url: "http://127.0.0.1/staff",
      outline: OUTLINE,
      history: [],
    })
    expect(decision.toolCalls).toEqual([])
    expect(decision.method).toBe("close")
    expect(decision.history.join("\n")).toContain(
      '"the e-mail of the Malmö contact": it fits more than one value',
    )
  })
})
