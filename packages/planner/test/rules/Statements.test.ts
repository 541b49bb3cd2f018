import { describe, expect, it } from "vitest"
import { ancestryFromOutline } from "../../src/rules/Grounding.ts"
import { readIntent } from "../../src/rules/Intent.ts"
import { elementsFromOutline } from "../../src/rules/Outline.ts"
import { decideStep } from "../../src/rules/RuleStepPolicy.ts"

/**
 * Statements a person makes about themselves, meant for the page's form rather than said as commands.
 * The pages are outlines as `look()` writes them: fields labelled by a line of text, a heading, a
 * placeholder, and counters (`− 2 +`). The phrasings are this file's own, not a bench set's.
 */

const DELIVERY = `- main:
  - h1 "Where should we deliver?"
  - form:
    - h3 "Recipient"
    - textbox [ref=e1]
    - Phone
    - textbox [ref=e2]
    - textbox "Street and house number" [ref=e3]
    - Postcode
    - textbox [ref=e4]
    - City
    - textbox [ref=e5]
    - textbox "Email" [ref=e6]
    - textbox "Date of birth" [ref=e7]
    - button "Continue to payment" [ref=e9]`

const GUESTS = `- form:
  - Adults
  - button "Fewer adults" [ref=e1]
  - status: 2
  - button "More adults" [ref=e2]
  - Children
  - button "Fewer children" [ref=e3]
  - status: 0
  - button "More children" [ref=e4]
  - spinbutton "Nights" [ref=e5]: 3
  - combobox "Room" [ref=e6]: Double [options: Single|Double|Family]`

const read = (clause: string, outline = DELIVERY) =>
  readIntent(clause, elementsFromOutline(outline), ancestryFromOutline(outline))

describe("a form laid out in a table", () => {
  it("reads a row of a caption and its controls as the caption labelling each control, with a counter's number", () => {
    const [phone, fewer, more] = elementsFromOutline(`- table:
  - Phone | textbox [ref=e15]
- table:
  - Adults | button "Fewer adults" [ref=e14] 2 button "More adults" [ref=e16]`)
    expect([phone?.role, phone?.attributes.label]).toEqual(["textbox", "Phone"])
    expect([fewer?.role, fewer?.attributes["stepper-label"], fewer?.attributes["stepper-shows"]]).toEqual([
      "button",
      "Adults",
      "2",
    ])
    expect(more?.name).toBe("More adults")
  })

  it("reads a caption printed in bold (a header cell) as the plain label, beside its control or on the line above", () => {
    const [phone, email] = elementsFromOutline(`- table:
  - **Phone** | textbox [ref=e15]
  - **Email**
  - textbox [ref=e16]`)
    expect([phone?.ref, phone?.attributes.label]).toEqual(["e15", "Phone"])
    expect([email?.ref, email?.attributes.label]).toEqual(["e16", "Email"])
    const form = `- table:
  - **Name** | **Phone**
  - **Phone** | textbox [ref=e15]`
    expect(read("My phone is 555 1234", form)).toEqual({
      command: 'type "555 1234" into "Phone"',
    })
  })

  it("grounds 'Type 555 into Phone' on the field beside a bold Phone header cell", () => {
    const outline = `- table:
  - **Field** | **Value**
  - **Name** | textbox [ref=e14]
  - **Phone** | textbox [ref=e15]
  - **Email** | textbox [ref=e16]`
    expect(decideStep({ goal: "Type 555 into Phone", url: "/", outline, history: [] }).toolCalls).toEqual([
      { name: "fill", args: { target: "e15", value: "555" } },
    ])
  })

  it("takes no label from a row of several header cells", () => {
    const [field] = elementsFromOutline(`- table:
  - **Name** | **Phone**
  - textbox [ref=e3]`)
    expect(field?.attributes.label).toBeUndefined()
  })
})

describe("a statement of facts read against the page's form", () => {
  it.each([
    [
      "I live at 12 Lindenstraße, postcode 10435",
      'type "12 Lindenstraße" into "Street and house number", then type "10435" into "Postcode"',
    ],
    [
      "My email is ann@example.com and my phone is 030 1234567",
      'type "ann@example.com" into "Email", then type "030 1234567" into "Phone"',
    ],
    ["I was born on 4 May 1990.", 'type "1990-05-04" into "Date of birth"'],
    ["我住在柏林，邮编 10435", 'type "柏林" into "City", then type "10435" into "Postcode"'],
    ["我的电话是 030 1234567", 'type "030 1234567" into "Phone"'],
    ["我出生于1990年5月4日", 'type "1990-05-04" into "Date of birth"'],
    ["ann@example.com", 'type "ann@example.com" into "Email"'],
    ["zip 10435", 'type "10435" into "Postcode"'],
  ])("reads %s as one fill per fact, into the field its words name", (clause, command) => {
    expect(read(clause)).toEqual({ command })
  })

  it("counts with number words and Chinese numerals, on counters, number fields and lists", () => {
    expect(read("Three adults and one child", GUESTS)).toEqual({
      command: 'type "3" into "Adults", then type "1" into "Children"',
    })
    expect(read("两个大人，一个孩子", GUESTS)).toEqual({
      command: 'type "2" into "Adults", then type "1" into "Children"',
    })
    expect(read("5 nights, family room", GUESTS)).toEqual({
      command: 'type "5" into "Nights", then select "Family" from "Room"',
    })
  })

  it("drops the words before a count that name no field, and names the field by a counter that says what it counts", () => {
    const bikes = `${GUESTS}
  - Rental bikes
  - spinbutton [ref=e7]: 0`
    expect(read("一共四个大人", GUESTS)).toEqual({ command: 'type "4" into "Adults"' })
    expect(read("住5晚，租两辆自行车", bikes)).toEqual({
      command: 'type "5" into "Nights", then type "2" into "Rental bikes"',
    })
    // A word that only comes before a count is kept when no count follows it: 住在 names the city.
    expect(read("我住在柏林")).toEqual({ command: 'type "柏林" into "City"' })
  })

  it("reads 我叫 X as the name, as 'My name is X' is", () => {
    const applicant = `- form:
  - textbox "Full name" [ref=e1]
  - textbox "Email" [ref=e2]
  - textbox "Phone number" [ref=e3]`
    expect(read("我叫王磊，邮箱是 wang.lei@example.cn", applicant)).toEqual({
      command: 'type "王磊" into "Full name", then type "wang.lei@example.cn" into "Email"',
    })
    // 叫 names the field only when no field's words come before it.
    expect(read("公司叫 Kite Labs", applicant)).not.toHaveProperty("command")
  })

  it("reads a number inside the field words as part of the value, never as the whole of it", () => {
    expect(read("We are two adults", GUESTS)).toEqual({ command: 'type "2" into "Adults"' })
    expect(read("I was born on 4 May")).toEqual({ command: 'type "4 May" into "Date of birth"' })
  })

  it("takes a Chinese verb of writing as the link, never as part of the value", () => {
    expect(read("收件人写李雷")).toEqual({ command: 'type "李雷" into "Recipient"' })
  })

  it("never names a field by a word that only shares its stem when nothing else says where the value is", () => {
    // "Deliver" is no word of "Delivery notes": the name is not typed into the notes.
    const notes = `- h3 "Delivery notes"
- textbox [ref=e20]`
    expect(read("Deliver the parcel to Ann Lee", notes)).not.toHaveProperty("command")
  })

  it("never types a sentence as a value ('I'm travelling with 2 kids' is no kids' name)", () => {
    const kids = `- textbox "Kids" [ref=e1]`
    expect(read("I'm travelling with 2 kids", kids)).not.toHaveProperty("command")
    expect(read("2 kids", kids)).toEqual({ command: 'type "2" into "Kids"' })
  })

  it("never types a value that holds a second fact after a preposition ('… 5 Main Street in Springfield')", () => {
    expect(read("I live at 5 Main Street in Springfield")).not.toHaveProperty("command")
    expect(read("My street is 5 Main Street near the park")).not.toHaveProperty("command")
  })

  it("refuses a value of words and a number when a field for its part is left empty ('12 Lindenstraße' beside 'House number')", () => {
    const split = `- textbox "Street" [ref=e1]
- textbox "House number" [ref=e2]
- textbox "Phone number" [ref=e3]
- textbox "Postcode" [ref=e4]`
    expect(read("I live at 12 Lindenstraße, postcode 10435", split)).toEqual({
      reason:
        '"12 Lindenstraße" may belong in two fields, "Street" and "House number": say what goes in each',
    })
    expect(read("street Lindenstraße, house number 12", split)).toEqual({
      command: 'type "Lindenstraße" into "Street", then type "12" into "House number"',
    })
    // A phone number field is no part of an address, and a bare postcode has no letters to split.
    expect(
      read(
        "I live at 12 Lindenstraße",
        `- textbox "Street" [ref=e1]
- textbox "Phone number" [ref=e3]`,
      ),
    ).toEqual({ command: 'type "12 Lindenstraße" into "Street"' })
    expect(
      read(
        "街道是柏林路12号",
        `- textbox "街道" [ref=e1]
- textbox "门牌号" [ref=e2]`,
      ),
    ).toEqual({
      reason: '"柏林路12号" may belong in two fields, "街道" and "门牌号": say what goes in each',
    })
  })

  it.each([
    ["城市是柏林", 'type "柏林" into "城市"'],
    ["收件人是李雷", 'type "李雷" into "收件人"'],
    ["街道：柏林路", 'type "柏林路" into "街道"'],
  ])(
    "never cuts a Chinese field name in two: %s types the value alone into the field the page names in Chinese",
    (clause, command) => {
      const chinese = `- textbox "城市" [ref=e1]
- textbox "收件人" [ref=e2]
- textbox "街道" [ref=e3]`
      expect(read(clause, chinese)).toEqual({ command })
    },
  )

  it("refuses a fact whose words name no field of the page, naming the words", () => {
    expect(read("Three adults and two dogs", GUESTS)).toEqual({
      reason: 'could not place "two", "dogs" of "two dogs": no field of the page is named by them',
    })
    // Only a start date on the page: a birth date is not put into it.
    expect(read("I was born on 4 May 1990", `- textbox "Start date" [ref=e1]`)).toEqual({
      reason: 'could not place "born" of "I was born on 4 May 1990": no field of the page is named by them',
    })
    expect(read("postcode 10435, my cat is Tom")).toEqual({
      reason: 'could not place "cat", "tom" of "my cat is Tom": no field of the page is named by them',
    })
  })

  it("refuses a fact that names two fields equally, and a bare value two fields of its kind could take", () => {
    const two = `- textbox "Billing postcode" [ref=e1]
- textbox "Delivery postcode" [ref=e2]
- textbox "Work email" [ref=e3]
- textbox "Private email" [ref=e4]`
    expect(read("postcode 10435", two)).toEqual({
      reason: '"postcode 10435" fits more than one field equally: "Billing postcode", "Delivery postcode"',
    })
    expect(read("ann@example.com", two)).toEqual({
      reason: '"ann@example.com" fits more than one field equally: "Work email", "Private email"',
    })
    expect(read("delivery postcode 10435", two)).toEqual({
      command: 'type "10435" into "Delivery postcode"',
    })
  })

  it("refuses a value no option of the named list holds, and a fact that gives one field two values", () => {
    expect(read("penthouse room", GUESTS)).toEqual({
      reason: '"penthouse" is not one of the options of "Room"',
    })
    expect(read("postcode 10435, zip 10437")).toEqual({
      reason: '"postcode 10435, zip 10437" gives the field "Postcode" two values',
    })
  })

  it("gives each fact a value check on the field its words named, and presses nothing else", () => {
    const decision = decideStep({
      goal: "I live at 12 Lindenstraße, postcode 10435",
      url: "http://shop.test/",
      outline: DELIVERY,
      history: [],
    })
    expect(decision.parts?.map((part) => part.check)).toEqual([
      { type: "fieldValue", target: "Street and house number", value: "12 Lindenstraße" },
      { type: "fieldValue", target: "Postcode", value: "10435" },
    ])
    expect(decision.toolCalls).toEqual([{ name: "fill", args: { target: "e3", value: "12 Lindenstraße" } }])
  })
})

/** A form that asks for the first and the last name apart, and where the person works. */
const DETAILS = `- main:
  - h1 "Your details"
  - form:
    - textbox "First name" [ref=e13]
    - textbox "Last name" [ref=e14]
    - textbox "Email address" [ref=e15]
    - textbox "Company" [ref=e16]`

describe("a person's name and workplace said of themselves", () => {
  it("splits a two-word name said as 'I'm …' into a first and a last name field, and reads 'I work at' as the company", () => {
    expect(read("I'm Ines Duarte, ines@harbour.example, and I work at Tidewater Labs", DETAILS)).toEqual({
      command:
        'type "Ines" into "First name", then type "Duarte" into "Last name", then type "ines@harbour.example" into "Email address", then type "Tidewater Labs" into "Company"',
    })
  })

  it("refuses a longer name on such a form (which words are the last name is not known), and words after it", () => {
    expect(read("I'm Ana Maria Costa, ana@harbour.example", DETAILS)).toHaveProperty("reason")
    // "from …" may be a company or a city: not placed.
    expect(read("I'm Ines Duarte from Tidewater Labs, ines@harbour.example", DETAILS)).toHaveProperty(
      "reason",
    )
  })

  it("reads a name only from capitalised words ('I'm arriving late' names nobody)", () => {
    expect(read("I'm arriving late, ines@harbour.example", DETAILS)).toHaveProperty("reason")
  })
})

/** A hotel search whose guest counters are in a pop-over its collapsed button opens; the button's name says the counts. */
const GUEST_POPOVER = `- main:
  - form:
    - searchbox "Where are you going?" [ref=e13]: Lisbon
    - button "2 adults · 0 children · 1 room" [ref=e16] [collapsed]
    - checkbox "I'm travelling for work" [ref=e17]
    - button "Search" [ref=e18]`

const RESERVATION = `- main:
  - spinbutton "Guests" [ref=e12]: 2
  - Rooms
  - button "Fewer rooms" [ref=e13]
  - spinbutton "Rooms" [ref=e14]: 1
  - button "More rooms" [ref=e15]`

const RECIPE = `- main:
  - Servings
  - button "Fewer servings" [ref=e15]
  - status: 4
  - button "More servings" [ref=e17]`

describe("guest counts said as a statement (bookings, recipes)", () => {
  it("sets counters a collapsed pop-over holds, by the words its button's name counts ('2 adults · 0 children · 1 room')", () => {
    expect(read("We are three adults and one child", GUEST_POPOVER)).toEqual({
      command: 'type "3" into "adults", then type "1" into "children"',
    })
    expect(read("2 rooms", GUEST_POPOVER)).toEqual({ command: 'type "2" into "room"' })
  })

  it("opens the pop-over first when following the reading, and steps the counter it then shows", () => {
    const first = decideStep({
      goal: "We are three adults and one child",
      url: "http://localhost/hotel",
      outline: GUEST_POPOVER,
      history: [],
    })
    expect(first.toolCalls).toEqual([{ name: "click", args: { target: "e16" } }])
  })

  it("reads no counter out of a name that counts one thing ('3 items') and refuses a count nothing on the page counts", () => {
    const cart = `- button "3 items" [ref=e1] [collapsed]
- textbox "Email" [ref=e2]`
    expect(read("two adults", cart)).not.toHaveProperty("command")
    expect(read("three adults and two dogs", GUEST_POPOVER)).toEqual({
      reason: 'could not place "two", "dogs" of "two dogs": no field of the page is named by them',
    })
  })

  it("splits two counts joined in one fact ('5 guests in 2 rooms') into one count each", () => {
    expect(read("5 guests in 2 rooms", RESERVATION)).toEqual({
      command: 'type "5" into "Guests", then type "2" into "Rooms"',
    })
    // A preposition without a count on both sides joins nothing: still one fact, and no sentence is typed.
    expect(read("I'm travelling with 2 kids", `- textbox "Kids" [ref=e1]`)).not.toHaveProperty("command")
  })

  it("reads 'no pets' as a count of nothing on a counter, and refuses it for a field that counts nothing", () => {
    expect(
      read(
        "2 adults, 2 kids, no pets",
        `${GUESTS}\n  - Pets\n  - button "Fewer pets" [ref=e7]\n  - status: 1\n  - button "More pets" [ref=e8]`,
      ),
    ).toEqual({
      command: 'type "2" into "Adults", then type "2" into "Children", then type "0" into "Pets"',
    })
    expect(read("no pets", `- textbox "Pets" [ref=e1]`)).toEqual({
      reason: '"no pets" says a count, and "Pets" is no counter',
    })
  })

  it("reads people as a recipe's servings ('Make it for 6 people')", () => {
    expect(read("Make it for 6 people", RECIPE)).toEqual({ command: 'type "6" into "Servings"' })
  })
})
