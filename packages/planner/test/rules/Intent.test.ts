import { describe, expect, it } from "vitest"
import { parseCommands } from "../../src/rules/Grammar.ts"
import { ancestryFromOutline } from "../../src/rules/Grounding.ts"
import { readIntent } from "../../src/rules/Intent.ts"
import { elementsFromOutline } from "../../src/rules/Outline.ts"
import { itemsInOutline, placeInOutline } from "../../src/rules/Placement.ts"
import { goalPartsOf } from "../../src/rules/RulePlanner.ts"
import { decideStep, summarizeRun } from "../../src/rules/RuleStepPolicy.ts"

/** Pages as `look()` outlines them, the way the step policy sees them. */
const CHECKOUT = `- main:
  - h1 "Checkout options"
  - group "Shipping speed":
    - radio "Standard" [ref=e13] [checked]
    - radio "Express" [ref=e14]
    - radio "Overnight" [ref=e15]
  - group "Payment method":
    - radio "Card" [ref=e17] [checked]
    - radio "PayPal" [ref=e18]
  - group "Account":
    - checkbox "I agree to the terms" [ref=e20]
    - checkbox "Remember me" [ref=e21] [checked]
  - textbox "Last name" [ref=e22]
  - combobox "Country" [ref=e23]: Choose… [options: Choose…|Norway|Sweden]
  - button "Delete account" [ref=e24]
  - button "Print" [ref=e25]
  - button "Print preview" [ref=e26]`

const read = (clause: string, outline = CHECKOUT) =>
  readIntent(clause, elementsFromOutline(outline), ancestryFromOutline(outline))

const decide = (goal: string, outline = CHECKOUT) =>
  decideStep({ goal, url: "http://shop.test/", outline, history: [] })

describe("reading an instruction with no action word on the page", () => {
  it("presses the control named with the fewest of its words left unsaid ('Print the page' → Print, not Print preview)", () => {
    expect(read("Print the page")).toEqual({ command: 'click "Print"' })
  })

  it("chooses a radio named with its group ('I want overnight shipping')", () => {
    expect(read("I want overnight shipping")).toEqual({ command: 'select "Overnight"' })
  })

  it("unticks a box the instruction says should not be ticked, ticks one it names", () => {
    expect(read("Remember me shouldn't be ticked")).toEqual({ command: 'uncheck "Remember me"' })
    expect(read("I agree to the terms — tick that box")).toEqual({ command: 'check "I agree to the terms"' })
  })

  it("fills a field its label names with the literal beside it, and chooses a value its list holds", () => {
    expect(read("My last name is Hamilton")).toEqual({ command: 'type "Hamilton" into "Last name"' })
    expect(read("Country should be Sweden")).toEqual({ command: 'select "Sweden" from "Country"' })
  })

  it("reads a list one control per item, a negated predicate said of every item, a leading 'not' of its own item", () => {
    expect(read("I'd like Remember me and the terms")).toEqual({
      command: 'check "Remember me", then check "I agree to the terms"',
    })
    expect(read("Remember me and the terms shouldn't be ticked")).toEqual({
      command: 'uncheck "Remember me", then uncheck "I agree to the terms"',
    })
    expect(read("No remember me please")).toEqual({ command: 'uncheck "Remember me"' })
  })

  it("fills a field whose label names the kind of the value said, in the field's form (a time as HH:MM)", () => {
    const outline = `- form:
  - textbox "Start date" [ref=e13]
  - textbox "Meeting time" [ref=e15]`
    expect(read("Meeting at 3:15 pm", outline)).toEqual({ command: 'type "15:15" into "Meeting time"' })
    expect(read("Lunch at 1 pm", outline)).toEqual({
      reason: 'could not place "lunch" of "Lunch at 1 pm": no field of the page is named by them',
    })
  })

  it("refuses a value that describes what to type instead of saying it", () => {
    expect(read("My last name is the one on my card")).toEqual({
      reason: 'needs a model to work out "the one on my card"',
    })
  })

  it("never presses a control that commits something whose word was not said ('my account' is not Delete account)", () => {
    expect(read("my account please")).toEqual({
      reason: 'no control on the page is named by "account"',
      absent: true,
    })
  })

  it("refuses words no control covers, naming them", () => {
    expect(read("Claim the prize")).toEqual({
      reason: 'no control on the page is named by "claim", "prize"',
      absent: true,
    })
  })

  it("refuses when two controls fit equally", () => {
    const outline = `- main:
  - button "Fewer rooms" [ref=e1]
  - spinbutton "Rooms" [ref=e2]: 1
  - button "More rooms" [ref=e3]`
    const reading = read("Rooms please", outline)
    expect("reason" in reading && reading.reason).toContain("fits more than one control")
  })
})

describe("the rule step policy on a goal read on the page", () => {
  it("acts on the control the page chose, writes the reading down, and gives the part a page check", () => {
    const decision = decide(
      "Travel shouldn't be ticked",
      `- group "Interests":
  - checkbox "Music" [ref=e13]
  - checkbox "Travel" [ref=e15] [checked]`,
    )
    expect(decision.toolCalls).toEqual([{ name: "uncheck", args: { target: "e15" } }])
    expect(decision.history[0]).toContain('read on the page as {"goal":"uncheck \\"Travel\\""')
    expect(decision.parts?.map((part) => part.check)).toEqual([
      { type: "controlState", targets: ["Travel"], checked: false },
    ])
  })

  it("gives a field a value check and an option a chosen check", () => {
    expect(
      decide("Last name should be Lovelace, please fill it in").parts?.map((part) => part.check),
    ).toEqual([{ type: "fieldValue", target: "Last name", value: "Lovelace" }])
    expect(decide("Pay with PayPal, please").parts?.map((part) => part.check)).toEqual([
      { type: "optionsChosen", options: ["PayPal"] },
    ])
  })

  it("follows the reading written down on later turns, not a new reading of a changed page", () => {
    const first = decide("Print the page")
    const history = [...first.history, `1. click({"target":"e25"}) -> ok`]
    const later = decideStep({
      goal: "Print the page",
      url: "http://shop.test/",
      outline: "- main:",
      history,
    })
    expect(later.taskComplete).toBe(true)
    expect(
      summarizeRun({ goal: "Print the page", history: [...history, ...later.history] }).taskComplete,
    ).toBe(true)
  })

  it("reads a Chinese clause with no action word on the page too ('拒绝所有 Cookie' → Reject all)", () => {
    const cookies = `- dialog "Cookies":
  - button "Accept all" [ref=e3]
  - button "Reject all" [ref=e4]
- textbox "Email" [ref=e5]
- button "Subscribe" [ref=e6]`
    const decision = decide("拒绝所有 Cookie", cookies)
    expect(decision.toolCalls).toEqual([{ name: "click", args: { target: "e4" } }])
    expect(decision.history[0]).toContain('read on the page as {"goal":"click \\"Reject all\\""')
    // The clause read on the page becomes a command; the clauses with a verb after it stay the grammar's.
    const first = decide("先接受 Cookie，再在 Email 中填写 wang@example.com 并点击 Subscribe", cookies)
    expect(first.toolCalls).toEqual([{ name: "click", args: { target: "e3" } }])
    // A Chinese clause no control covers is still refused, with the page's reason.
    const refused = decide("拒绝所有 Newsletter", cookies)
    expect(refused.toolCalls).toEqual([])
    expect(refused.history.at(-1)).toContain("no control on the page is named by")
  })

  it("closes with the page's reason when the page does not settle the clause", () => {
    const decision = decide("The golden prize for me, please")
    expect(decision.method).toBe("close")
    expect(decision.toolCalls).toEqual([])
    expect(decision.parts).toBeUndefined()
    expect(decision.history.at(-1)).toContain('no control on the page is named by "golden", "prize"')
  })
})

const SETTINGS = `- main:
  - h1 "Notifications"
  - switch "Do not disturb" [ref=e3]
  - checkbox "Don't show this again" [ref=e4]
  - switch "Email alerts" [ref=e5] [checked]
  - button "Save" [ref=e6]`

describe("a negation that is a control's own name", () => {
  it("reads the clause's negation as the switch's name and asks for it on ('please don't disturb me')", () => {
    expect(read("please don't disturb me", SETTINGS)).toEqual({ command: 'check "Do not disturb"' })
    expect(read("we want to not be disturbed", SETTINGS)).toEqual({ command: 'check "Do not disturb"' })
    expect(read("never show this again", SETTINGS)).toEqual({ command: 'check "Don\'t show this again"' })
  })

  it("turns the switch off only when words besides its name say off ('Do not disturb off')", () => {
    expect(read("Do not disturb off", SETTINGS)).toEqual({ command: 'uncheck "Do not disturb"' })
  })

  it("still unticks a box whose name carries no negation ('no email alerts')", () => {
    expect(read("no email alerts", SETTINGS)).toEqual({ command: 'uncheck "Email alerts"' })
  })
})

const MAILBOX = `- main:
  - h1 "Inbox"
  - list "Messages":
    - listitem "Invoice from Dana Ruiz" [ref=e3]:
      - link "Invoice from Dana Ruiz" [ref=e4]
      - button "Archive" [ref=e5]
      - button "Reply" [ref=e6]
    - listitem "Lunch plans from Omar Haddad" [ref=e7]:
      - link "Lunch plans from Omar Haddad" [ref=e8]
      - button "Archive" [ref=e9]
      - button "Reply" [ref=e10]
    - listitem "Invoice from Omar Haddad" [ref=e11]:
      - link "Invoice from Omar Haddad" [ref=e12]
      - button "Archive" [ref=e13]
      - button "Reply" [ref=e14]`

const DOCUMENTS = `- main:
  - toolbar "Selection":
    - button "Rename" [ref=e2]
    - button "Download" [ref=e3]
    - button "Move to trash" [ref=e4]
  - table "Documents":
    - row "Tenancy agreement.pdf 12 KB" [ref=e6]:
      - cell "Tenancy agreement.pdf" [ref=e7]:
        - checkbox "Pick Tenancy agreement.pdf" [ref=e8]
      - cell "12 KB" [ref=e9]
    - row "2025 年发票.pdf 3 KB" [ref=e10]:
      - cell "2025 年发票.pdf" [ref=e11]:
        - checkbox "Pick 2025 年发票.pdf" [ref=e12]
      - cell "3 KB" [ref=e13]
    - row "2024 年发票.pdf 4 KB" [ref=e14]:
      - cell "2024 年发票.pdf" [ref=e15]:
        - checkbox "Pick 2024 年发票.pdf" [ref=e16]
      - cell "4 KB" [ref=e17]`

describe("a clause led by a control's name, the rest naming an item it acts on", () => {
  it("presses the control inside the one item the other words name ('Reply to the lunch plans')", () => {
    expect(read("Archive the invoice from Dana", MAILBOX)).toEqual({
      command: 'click "Archive" in "Invoice from Dana Ruiz"',
    })
    expect(read("Reply to lunch plans", MAILBOX)).toEqual({
      command: 'click "Reply" in "Lunch plans from Omar Haddad"',
    })
  })

  it("selects the item, then presses the one control outside every item (a toolbar on the selection)", () => {
    expect(read("Download the tenancy agreement", DOCUMENTS)).toEqual({
      command: 'check "Pick Tenancy agreement.pdf", then click "Download"',
    })
    expect(read("Move to trash the tenancy agreement", DOCUMENTS)).toEqual({
      command: 'check "Pick Tenancy agreement.pdf", then click "Move to trash"',
    })
    const tree = `- main:
  - button "Open" [ref=e1]
  - tree "Folders":
    - treeitem "Holiday photos" [ref=e3]
    - treeitem "Tax returns" [ref=e4]`
    expect(read("Open tax returns", tree)).toEqual({ command: 'click "Tax returns", then click "Open"' })
  })

  it("reads a Chinese verb before the item, on English controls and on Chinese ones", () => {
    expect(read("下载 2025 年的发票", DOCUMENTS)).toEqual({
      command: 'check "Pick 2025 年发票.pdf", then click "Download"',
    })
    const chinese = `- main:
  - list "照片":
    - listitem "sunset.png" [ref=e2]:
      - button "删除" [ref=e3]
    - listitem "harbour.png" [ref=e4]:
      - button "删除" [ref=e5]`
    expect(read("删掉 harbour.png", chinese)).toEqual({ command: 'click "删除" in "harbour.png"' })
  })

  it("refuses when the other words name more than one item, naming the verb and the items", () => {
    expect(read("Archive the invoice", MAILBOX)).toMatchObject({
      reason: expect.stringContaining("fits more than one"),
    })
    expect(read("Download the pdf", DOCUMENTS)).toMatchObject({
      reason: expect.stringContaining('"download" on "pdf" fits more than one item: '),
    })
    expect(read("下载发票", DOCUMENTS)).toMatchObject({
      reason: expect.stringContaining("fits more than one item"),
    })
  })

  it("refuses when more than one control outside the items is named by the verb", () => {
    const twice = `- main:
  - toolbar "Top":
    - button "Download" [ref=e1]
  - toolbar "Bottom":
    - button "Download" [ref=e2]
  - list "Files":
    - listitem "notes.txt" [ref=e4]`
    expect(read("Download notes", twice)).toEqual({
      reason: '"download" on "notes" fits more than one control named "download"',
    })
  })

  it("never drops a word: a word no item covers leaves the clause refused", () => {
    expect(read("Archive the invoice from Dana in March", MAILBOX)).toEqual({
      reason: 'no control on the page is named by "archive", "invoice", "dana", "march"',
      absent: true,
    })
  })

  it("needs the control's whole name said first, and reads nothing for a negated clause", () => {
    // "Trash the tenancy agreement" does not say "Move to trash".
    expect(read("Trash the tenancy agreement", DOCUMENTS)).toMatchObject({
      reason: expect.stringContaining("no control on the page is named by"),
    })
    expect(read("The tenancy agreement download", DOCUMENTS)).toMatchObject({
      reason: expect.stringContaining("no control on the page is named by"),
    })
    expect(read("Don't archive the invoice from Dana", MAILBOX)).toMatchObject({
      reason: expect.stringContaining("says what not to press"),
    })
  })
})

/** Rows, list items and cards as `look()` prints them: folded into the lines around them, no container lines. */
const PEOPLE = `- main:
  - h1 "People"
  - table:
    - **Name** | **Company** |
    - Tom Okafor | Bluegate Logistics | button "Call" [ref=e13]
    - Ana Lopez | Northwind | button "Call" [ref=e14]
    - Ana Silva | Lumen Labs | button "Call" [ref=e15]
  - h2 "Messages"
  - Ben Ito Quarterly report
  - button "Star" [ref=e18]
  - Ana Lopez Lunch on Friday
  - button "Star" [ref=e19]
  - h2 "Orders"
  - h3 "Order 1042"
  - 2 items · €30.00
  - link "Details" [ref=e21] -> #order-1042
  - h3 "Order 1043"
  - 1 item · €12.50
  - link "Details" [ref=e22] -> #order-1043`

describe("a table row, a list item and a card as the one thing holding its controls", () => {
  it("reads every ref of a row line, and each folded item's control, inside its item", () => {
    const ancestry = ancestryFromOutline(PEOPLE)
    expect(ancestry.get("e14")?.at(-1)).toEqual({ role: "row", name: "Ana Lopez | Northwind" })
    expect(ancestry.get("e19")?.at(-1)).toEqual({ role: "listitem", name: "Ana Lopez Lunch on Friday" })
    expect(ancestry.get("e22")?.at(-1)).toEqual({ role: "listitem", name: "Order 1043 · 1 item · €12.50" })
  })

  it("presses the control of the one item the other words name: a row, a list item, a card", () => {
    for (const [goal, ref] of [
      ["Call Tom Okafor", "e13"],
      ["打电话给 Tom Okafor", "e13"],
      ["Star the message from Ana", "e19"],
      ["Details of order 1043", "e22"],
      ["Open the details of order 1043", "e22"],
    ] as const)
      expect(decide(goal, PEOPLE).toolCalls[0]?.args, goal).toMatchObject({ target: ref })
  })

  it("reads 'Call Tom Okafor' as the row's Call, never as a field named Call holding his name", () => {
    expect(read("Call Tom Okafor", PEOPLE)).toEqual({
      command: 'click "Call" in "Tom Okafor | Bluegate Logistics"',
    })
    expect(decide("Call Tom Okafor", PEOPLE).history[0]).toContain('click \\"Call\\" in \\"Tom Okafor')
  })

  it("refuses when the words name two items holding the control, naming them", () => {
    const decision = decide("Call Ana", PEOPLE)
    expect(decision.toolCalls).toEqual([])
    expect(decision.history[0]).toContain(
      '"call" on "ana" fits more than one item: "Ana Lopez | Northwind", "Ana Silva | Lumen Labs"',
    )
  })
})

/** Product cards folded into the lines around their controls, every card with an "Add to cart". */
const SHELF = `- main:
  - h1 "Home goods"
  - h2 "Oak desk lamp"
  - Warm light, solid oak base · €39.90
  - button "Add to cart" [ref=e12]
  - h2 "Linen cushion"
  - 45 × 45 cm, sand colour · €18.50
  - button "Add to cart" [ref=e13]
  - h2 "Glass vase"
  - Mouth-blown, 25 cm tall · €29.95
  - button "Add to cart" [ref=e17]`

/** Three rows of the gallery's contacts page: Chen Wei's shares "+86", "5550" and "cn" with 李娜's. */
const CONTACTS = `- main:
  - table:
    - | **Name** | **Company** | **Email** | **Phone** | **City** |
    - checkbox [ref=e13] | Maria Keller | Nordlicht GmbH | maria.keller@nordlicht.de | +49 30 5550 1842 | Berlin | button "Call" [ref=e14]
    - checkbox [ref=e15] | Chen Wei | Jade River Ltd | chen.wei@jaderiver.cn | +86 21 5550 7731 | Shanghai | button "Call" [ref=e16]
    - checkbox [ref=e25] | 李娜 | 星河科技 | lina@xinghe.cn | +86 10 5550 3388 | 北京 | button "Call" [ref=e26]`

describe("the item a control was told apart by stays in the reading and in the part's check", () => {
  it("says a control named by its own words and its card's with that card ('Could I get the glass vase in my cart?')", () => {
    expect(read("I get the glass vase in my cart", SHELF)).toEqual({
      command: 'click "Add to cart" in "Glass vase · Mouth-blown, 25 cm tall · €29.95"',
    })
    expect(decide("Could I get the glass vase in my cart?", SHELF).toolCalls[0]?.args).toMatchObject({
      target: "e17",
    })
  })

  it("refuses rather than press a control by its name alone when the item that tells it apart cannot be said", () => {
    const QUOTED = `- main:
  - group "Glass vase, 25\\" tall":
    - button "Add to cart" [ref=e1]
  - group "Oak desk lamp":
    - button "Add to cart" [ref=e2]`
    expect(read("I get the glass vase in my cart", QUOTED)).toEqual({
      reason: 'the control "Add to cart" or the item around it has a quote in its name',
    })
  })

  it("reads a quoted name after 'in' as a container in any script, and presses the Call of that row (给李娜打电话)", () => {
    expect(decide("给李娜打电话", CONTACTS).toolCalls[0]?.args).toMatchObject({ target: "e26" })
    expect(goalPartsOf('click "Call" in "李娜 | 星河科技"')?.[0]?.check).toEqual({
      type: "actionsSucceeded",
      within: "李娜 | 星河科技",
    })
  })

  it("places a control in the item around it, elsewhere when another item is named, absent when none is", () => {
    const lina = "李娜 | 星河科技 | lina@xinghe.cn | +86 10 5550 3388 | 北京"
    expect(placeInOutline(CONTACTS, "e26", lina)).toBe("inside")
    expect(placeInOutline(CONTACTS, "e16", lina)).toBe("elsewhere")
    expect(placeInOutline(CONTACTS, "e16", "Order 1043")).toBe("absent")
    expect(itemsInOutline(PEOPLE).get("e21")).toEqual({
      role: "listitem",
      name: "Order 1042 · 2 items · €30.00",
    })
  })
})

/** The gallery's e-mail preferences and a recipe's rating, as `look()` outlines them. */
const PREFERENCES = `- main:
  - h1 "Email preferences"
  - form:
    - h2 "Topics"
    - checkbox "Product updates" [ref=e13] [checked]
    - checkbox "Tips and tutorials" [ref=e14] [checked]
    - checkbox "Events and webinars" [ref=e15]
    - h2 "How often?"
    - group "Send me emails":
      - radio "As it happens" [ref=e19]
      - radio "Daily digest" [ref=e20]
      - radio "Weekly digest" [ref=e21] [checked]
      - radio "Monthly digest" [ref=e22]
    - h2 "Delivery"
    - combobox "Email format" [ref=e23]: HTML [options: HTML|Plain text]
    - textbox "Send emails to" [ref=e25]: sam.lee@example.com
    - button "Save preferences" [ref=e27]
  - h2 "Rate this recipe"
  - radiogroup "Your rating":
    - radio "4 stars" [ref=e38]
    - radio "5 stars" [ref=e40]
  - h2 "Comments"
  - form:
    - textbox "Your name" [ref=e43]
    - button "Post comment" [ref=e45]`

const readSections = (clause: string, outline = PREFERENCES) =>
  readIntent(clause, elementsFromOutline(outline), ancestryFromOutline(outline, { sections: true }))

describe("statements of what a person wants, read on the page", () => {
  it("reads 'send me …' as whom something is sent to, never as submitting the form", () => {
    expect(parseCommands("Send me emails once a month")).toMatchObject({ ok: false })
    expect(parseCommands("Send the form")).toMatchObject({ ok: true, commands: [{ kind: "submit" }] })
    expect(readSections("Send me emails once a month")).toEqual({ command: 'select "Monthly digest"' })
    expect(readSections("Send them to sam@newjob.example from now on")).toEqual({
      command: 'type "sam@newjob.example" into "Send emails to"',
    })
  })

  it("types into a field whose name says its kind only a value of that kind ('month' is no e-mail address)", () => {
    expect(readSections("Send me emails once a fortnight")).toHaveProperty("reason")
    expect(readSections("My email is bob")).toHaveProperty("reason")
  })

  it("reads 'stop sending me X' as X unticked, and 'hear about X' as X ticked", () => {
    expect(readSections("Stop sending me tips and tutorials")).toEqual({
      command: 'uncheck "Tips and tutorials"',
    })
    expect(readSections("I'd like to hear about events and webinars")).toEqual({
      command: 'check "Events and webinars"',
    })
  })

  it("reads the heading of the section a control sits in as words that may name it ('Rate this recipe 5 stars')", () => {
    expect(readSections("Rate this recipe 5 stars")).toEqual({ command: 'select "5 stars"' })
    // Without the sections, the heading's words are left over and the clause is refused.
    expect(read("Rate this recipe 5 stars", PREFERENCES)).toHaveProperty("reason")
    // A heading is read for words only: a press is never said within it.
    expect(ancestryFromOutline(PREFERENCES, { sections: true }).get("e45")).toEqual([
      { role: "main", name: "" },
      { role: "form", name: "" },
      { role: "heading", name: "Email preferences" },
      { role: "heading", name: "Comments" },
    ])
    expect(ancestryFromOutline(PREFERENCES, { sections: true }).get("e25")).toEqual([
      { role: "main", name: "" },
      { role: "form", name: "" },
      { role: "heading", name: "Email preferences" },
      { role: "heading", name: "Delivery" },
    ])
    expect(ancestryFromOutline(PREFERENCES).get("e45")).toEqual([
      { role: "main", name: "" },
      { role: "form", name: "" },
    ])
  })

  it("leaves the device the person is on out of the words that name a control", () => {
    expect(read("Don't remember me on this computer")).toEqual({ command: 'uncheck "Remember me"' })
  })
})

/** A mail list whose Archive and Reply show only in the pane of an opened message. */
const INBOX = `- main:
  - h1 "Inbox"
  - list "Messages":
    - clickable "Anna Berg Can we move Thursday's call?" [ref=e12]
    - clickable "Billing Your invoice for November" [ref=e13]
    - clickable "Billing Your invoice for October" [ref=e14]
    - clickable "Dev team Deploy finished" [ref=e15]
  - region "Reading pane": Select a message to read it.`

describe("a verb for a control the page shows only once an item is opened", () => {
  it("opens the one item the other words name, then presses the control the verb names ('Archive the deploy notification')", () => {
    expect(read("Archive the deploy notification", INBOX)).toEqual({
      command: 'click "Dev team Deploy finished", then click "Archive"',
    })
    expect(read("Archive the November invoice email", INBOX)).toEqual({
      command: 'click "Billing Your invoice for November", then click "Archive"',
    })
  })

  it("refuses when the words name more than one item, and reads nothing for a verb no list action is", () => {
    expect(read("Archive the invoice email", INBOX)).toEqual({
      reason:
        '"archive invoice" fits more than one item: "Billing Your invoice for November", "Billing Your invoice for October"',
    })
    expect(read("Celebrate the deploy notification", INBOX)).toHaveProperty("reason")
  })
})

describe("words that soften or only lead a wish", () => {
  it("reads 'I'd rather not get X any more' as X unticked", () => {
    expect(readSections("I'd rather not get tips and tutorials any more")).toEqual({
      command: 'uncheck "Tips and tutorials"',
    })
  })

  it("drops an 'Oh,' standing between sentences, so it names no control", () => {
    expect(parseCommands("Tick Remember me. Oh, and tick I agree to the terms.")).toMatchObject({
      ok: true,
      commands: [
        { kind: "check", target: { text: "Remember me" } },
        { kind: "check", target: { text: "I agree to the terms" } },
      ],
    })
  })
})

/** Account sections in tabs: the one shown first, and the others closed. */
const TABS = (selected: string) => `- main:
  - h1 "Account"
  - tablist "Account sections":
    - tab "Overview" [ref=e13]${selected === "e13" ? " [selected]" : ""}
    - tab "Billing" [ref=e14]${selected === "e14" ? " [selected]" : ""}
    - tab "Notifications" [ref=e16]${selected === "e16" ? " [selected]" : ""}
  - button "Delete account" [ref=e18] [collapsed]
  - button "Save changes" [ref=e19]`

describe("a control the page hides until a tab or menu is opened", () => {
  it("opens each closed tab once, never the one shown first again nor a commit control, then gives up", () => {
    const goal = "Stop sending me product news"
    const one = decideStep({ goal, url: "http://shop.test/", outline: TABS("e13"), history: [] })
    expect(one.toolCalls).toEqual([{ name: "click", args: { target: "e14" } }])
    const two = decideStep({ goal, url: "http://shop.test/", outline: TABS("e14"), history: one.history })
    expect(two.toolCalls).toEqual([{ name: "click", args: { target: "e16" } }])
    const three = decideStep({
      goal,
      url: "http://shop.test/",
      outline: TABS("e16"),
      history: [...one.history, ...two.history],
    })
    // Overview was read when the looking began, Delete account commits: nothing is left to open.
    expect(three.toolCalls).toEqual([])
    expect(three.method).toBe("close")
    expect(three.history.at(-1)).toContain('no control on the page is named by "product", "news"')
  })

  it("reads the goal on the tab that holds it", () => {
    const shown = `${TABS("e16")}
  - tabpanel "Notifications":
    - checkbox "Product news" [ref=e30] [checked]`
    const decision = decide("Stop sending me product news", shown)
    expect(decision.toolCalls).toEqual([{ name: "uncheck", args: { target: "e30" } }])
  })
})

describe("a small form named by its button", () => {
  const ORDERS = `- main:
  - h1 "Orders"
  - table "Your recent orders":
    - row "A-10270 | 2026-11-21 | Kenji Sato | Pending":
      - button "Details" [ref=e5]
    - row "A-10244 | 2026-11-18 | Ana Souza | Cancelled":
      - button "Details" [ref=e6]
  - h2 "Track an order"
  - textbox "Order number" [ref=e10]
  - button "Track" [ref=e11]
  - h2 "Refund"
  - textbox "Order" [ref=e12]
  - textbox "Amount (€)" [ref=e13]
  - button "Issue refund" [ref=e15]`

  it("types the value said into the one field beside the button the clause starts with, then presses it", () => {
    const decision = decide("Track order A-10270", ORDERS)
    expect(decision.history[0]).toContain(
      'read on the page as {"goal":"type \\"A-10270\\" into \\"Order number\\", then click \\"Track\\""',
    )
    expect(decision.toolCalls).toEqual([{ name: "fill", args: { target: "e10", value: "A-10270" } }])
    expect(decision.parts?.map((part) => part.check)).toEqual([
      { type: "fieldValue", target: "Order number", value: "A-10270" },
      { type: "actionsSucceeded" },
    ])
  })

  it("does not read so when a word names neither the field nor its section, nor with no value said", () => {
    expect(decide("Track the parcel A-10270", ORDERS).history[0]).not.toContain('into \\"Order number\\"')
    expect(decide("Track my order", ORDERS).history[0]).not.toContain('into \\"Order number\\"')
  })
})

describe("what a person works on, said as theirs beside a control's whole name", () => {
  const APPLY = `- main:
  - h1 "Join Harbour Labs"
  - textbox "Full name" [ref=e3]
  - button "Save for later" [ref=e8]
  - button "Submit application" [ref=e9]
  - button "Delete account" [ref=e10]`

  it("presses the control whose whole name is said ('Save my application for later' → Save for later)", () => {
    expect(read("Save my application for later", APPLY)).toEqual({ command: 'click "Save for later"' })
  })

  it("never takes such a word for a control's unsaid one ('Delete my draft' is not Delete account)", () => {
    expect(read("Delete my draft", APPLY)).toMatchObject({ reason: expect.any(String) })
  })
})
