import { BrowserDriver, type GoalPart, type PageElement } from "@sextant/core"
import { GLOSSARY, goalPartsOf, type StepPolicyShape } from "@sextant/planner"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { type PartStep, verifyParts } from "../src/index.ts"
import { useGallery } from "./support/Gallery.ts"

const element = (fields: Partial<PageElement> & Pick<PageElement, "ref" | "role" | "name">): PageElement => ({
  tag: "input",
  attributes: {},
  visible: true,
  selectors: [],
  frame: [],
  ...fields,
})

const step = (elements: ReadonlyArray<PageElement>, acted?: PageElement): PartStep => ({
  part: 0,
  tool: "check",
  ok: true,
  data: undefined,
  signals: [],
  urlBefore: "http://127.0.0.1/form",
  urlAfter: "http://127.0.0.1/form",
  elements,
  ...(acted === undefined ? {} : { acted: acted.ref, actedElement: acted }),
})

const noTokens = { prompt: 0, completion: 0, total: 0 }

const judged = (part: GoalPart, elements: ReadonlyArray<PageElement>, acted?: PageElement) =>
  verifyParts([part], { steps: [step(elements, acted)], records: [], finalPage: "not read" }).map(
    (unmet) => unmet.evidence,
  )

describe("goal checks on the page's controls", () => {
  it("reads a checked or typed part as a check of the page, not of the action", () => {
    // Short listed names are one box each: a part per box, each checked on the page.
    expect(goalPartsOf("Check Music and Sports")?.map((part) => part.check)).toEqual([
      { type: "controlState", targets: ["Music"], checked: true },
      { type: "controlState", targets: ["Sports"], checked: true },
    ])
    expect(goalPartsOf('type "Porto" into City')?.map((part) => part.check)).toEqual([
      { type: "fieldValue", target: "City", value: "Porto" },
    ])
    // A secret is not known to the planner: only the action can be checked.
    expect(goalPartsOf("type <secret:password> into Password")?.map((part) => part.check.type)).toEqual([
      "actionsSucceeded",
    ])
  })

  it("holds only when every named box is in the wanted state", () => {
    const part: GoalPart = {
      kind: "check",
      description: "check Music and Sports",
      check: { type: "controlState", targets: ["Music", "Sports"], checked: true },
    }
    const music = element({ ref: "e1", role: "checkbox", name: "Music", checked: true })
    expect(
      judged(part, [music, element({ ref: "e2", role: "checkbox", name: "Sports", checked: true })]),
    ).toEqual([])
    expect(
      judged(part, [music, element({ ref: "e2", role: "checkbox", name: "Sports", checked: false })]),
    ).toEqual(['checkbox "Sports" is unchecked on http://127.0.0.1/form'])
  })

  it("judges a box part that took no step on the page at the end of the run, and only there", () => {
    // "不要勾选 Sports" when Sports is not ticked: nothing to do, and the page shows it so.
    const part: GoalPart = {
      kind: "check",
      description: "uncheck Sports",
      check: { type: "controlState", targets: ["Sports"], checked: false },
    }
    const sports = (checked: boolean) => element({ ref: "e2", role: "checkbox", name: "Sports", checked })
    const unmet = (finalElements?: ReadonlyArray<PageElement>) =>
      verifyParts([part], { steps: [], records: [], finalPage: "not read", finalElements }).map(
        (entry) => entry.evidence,
      )
    expect(unmet([sports(false)])).toEqual([])
    expect(unmet([sports(true)])).toEqual(['checkbox "Sports" is checked on the page'])
    // With no step and the page's controls unread, nothing is shown done.
    expect(unmet(undefined)).toEqual(["no step worked on this part"])
  })

  it("holds a box the page does not have only when the part clicked a control named by its words", () => {
    // "Accept all cookies" on a banner whose button is "Accept all": the button clicked is the evidence.
    const accept: GoalPart = {
      kind: "check",
      description: 'check "all cookies"',
      check: { type: "controlState", targets: ["all cookies"], checked: true },
    }
    const button = element({ ref: "e4", role: "button", name: "Accept all", tag: "button" })
    const pressed = (changed: boolean) =>
      verifyParts([accept], {
        steps: [{ ...step([], button), data: { changed } }],
        records: [],
        finalPage: "not read",
      }).map((unmet) => unmet.evidence)
    expect(pressed(true)).toEqual([])
    // The same part with nothing acted on, with a press the page does not show ("Tick the file and print
    // it" that clicked a Print button that did nothing), or with a click on a control named otherwise, is
    // not done.
    const unmet =
      'no checkbox, radio or option named "all cookies" is on http://127.0.0.1/form, and no control named by those words was clicked'
    expect(pressed(false)).toEqual([unmet])
    expect(judged(accept, [], button)).toEqual([unmet])
    expect(judged(accept, [button])).toEqual([unmet])
    expect(judged(accept, [], element({ ref: "e5", role: "button", name: "Reject", tag: "button" }))).toEqual(
      [unmet],
    )
  })

  it("does not hold a box part because a link named by half its words was followed", () => {
    // "Tick the second contact" that clicked the header's "Contact" link: the page was left, nothing ticked.
    const part: GoalPart = {
      kind: "check",
      description: 'check "second contact"',
      check: { type: "controlState", targets: ["second contact"], checked: true },
    }
    const link = element({ ref: "e3", role: "link", name: "Contact", tag: "a" })
    expect(judged(part, [], link)).toEqual([
      'no checkbox, radio or option named "second contact" is on http://127.0.0.1/form, and no control named by those words was clicked',
    ])
  })

  it("reads a box with no name of its own by the words beside it, on the box the part acted on", () => {
    // "Turn on dark mode": the switch has no name; "Dark mode" is the text just before it.
    const part: GoalPart = {
      kind: "check",
      description: 'check "dark mode"',
      check: { type: "controlState", targets: ["dark mode"], checked: true },
    }
    // The page's controls carry no label; the step kept the words it saw beside the box it acted on.
    const darkMode = (checked: boolean) => element({ ref: "e15", role: "switch", name: "", checked })
    const seen = { ...darkMode(false), attributes: { label: "Dark mode" } }
    expect(judged(part, [darkMode(true)], seen)).toEqual([])
    expect(judged(part, [darkMode(false)], seen)).toEqual([
      'the switch beside "Dark mode" is unchecked on http://127.0.0.1/form',
    ])
    // A box beside other words is not the one asked about, whatever its state.
    const airplane = element({ ref: "e14", role: "switch", name: "", checked: true })
    expect(judged(part, [airplane], { ...airplane, attributes: { label: "Airplane mode" } })).toEqual([
      'no checkbox, radio or option named "dark mode" is on http://127.0.0.1/form, and no control named by those words was clicked',
    ])
  })

  it("does not hold a box part named by a preposition because a control with that word was clicked", () => {
    // "Check in on the 14th": a part about "in" is not done by clicking "Sign in".
    const part: GoalPart = {
      kind: "check",
      description: 'check "in"',
      check: { type: "controlState", targets: ["in"], checked: true },
    }
    const signIn = element({ ref: "e6", role: "link", name: "Sign in", tag: "a" })
    expect(judged(part, [], signIn)).toEqual([
      'no checkbox, radio or option named "in" is on http://127.0.0.1/form, and no control named by those words was clicked',
    ])
  })

  it("reads an option of a native list as checked when the list holds it", () => {
    // "Colors 里选中 Black": the list box has no element per option; its value says what it holds.
    const part: GoalPart = {
      kind: "check",
      description: 'check "Black" in "Colors"',
      check: { type: "controlState", targets: ["Black"], checked: true },
    }
    const colors = (value: string) =>
      element({ ref: "e6", role: "listbox", name: "Colors", tag: "select", options: ["Red", "Black"], value })
    expect(judged(part, [colors("Black")], colors("Black"))).toEqual([])
    expect(judged(part, [colors("Red, Black")], colors("Red, Black"))).toEqual([])
    expect(judged(part, [colors("Red")], colors("Red"))).toEqual([
      'listbox "Colors" does not hold "Black" on http://127.0.0.1/form',
    ])
  })

  it("holds when the field keeps the value, in its own format for dates and times", () => {
    const field = (name: string, value: string) => element({ ref: "e3", role: "textbox", name, value })
    const fill = (target: string, value: string): GoalPart => ({
      kind: "fill",
      description: `type ${value} into ${target}`,
      check: { type: "fieldValue", target, value },
    })
    expect(judged(fill("City", "Porto"), [field("City", "Porto")])).toEqual([])
    expect(judged(fill("End date", "June 3, 2024"), [field("End date", "2024-06-03")])).toEqual([])
    expect(judged(fill("Meeting time", "9:05"), [field("Meeting time", "09:05")])).toEqual([])
    expect(judged(fill("Check-in", "2024-05-14"), [field("Check-in", "")])).toEqual([
      'textbox "Check-in" holds "", not "2024-05-14", on http://127.0.0.1/form',
    ])
    expect(judged(fill("End date", "June 3, 2024"), [field("End date", "2024-06-04")])).toHaveLength(1)
    // A day asked with no year is held by that day of whichever year the page gave it.
    expect(judged(fill("Check-in", "--12-31"), [field("Check-in", "2026-12-31")])).toEqual([])
    expect(judged(fill("Check-in", "--12-31"), [field("Check-in", "2026-12-30")])).toHaveLength(1)
    // A password's value is masked in a snapshot: typed is all that can be read.
    expect(judged(fill("Password", "Sunflower9"), [field("Password", "<secret>")])).toEqual([])
    // "Set T-shirt size to Large" on a radio group: the chosen option is the evidence.
    const large = element({ ref: "e5", role: "radio", name: "Large", checked: true })
    expect(judged(fill("T-shirt size", "Large"), [large])).toEqual([])
  })

  it("holds a value typed at a list (a select or list box) when the list named so shows it chosen", () => {
    const airport = (value: string) =>
      element({
        ref: "e4",
        role: "listbox",
        name: "Home airport",
        tag: "select",
        value,
        options: ["Paris (CDG)", "Rome (FCO)", "Washington, D.C. (DCA)"],
      })
    const fill = (value: string): GoalPart => ({
      kind: "fill",
      description: `type ${value} into home airport`,
      check: { type: "fieldValue", target: "home airport", value },
    })
    expect(judged(fill("Rome (FCO)"), [airport("Rome (FCO)")])).toEqual([])
    expect(judged(fill("Washington, D.C. (DCA)"), [airport("Washington, D.C. (DCA)")])).toEqual([])
    expect(judged(fill("Rome (FCO)"), [airport("Paris (CDG)")])).toEqual([
      'listbox "Home airport" holds "Paris (CDG)", not "Rome (FCO)", on http://127.0.0.1/form',
    ])
    // A city said without its code is the one option that begins with it.
    expect(judged(fill("Rome"), [airport("Rome (FCO)")])).toEqual([])
    expect(judged(fill("Rome"), [airport("Paris (CDG)")])).toEqual([
      'listbox "Home airport" holds "Paris (CDG)", not "Rome", on http://127.0.0.1/form',
    ])
  })

  it("is done when a list holds the one option the value names in the page's words (按年 → Yearly), and not when it holds another", () => {
    const cycle = (value: string) =>
      element({
        ref: "e3",
        role: "combobox",
        name: "Billing cycle",
        tag: "select",
        value,
        options: ["Monthly", "Yearly"],
      })
    const fill: GoalPart = {
      kind: "fill",
      description: 'type "按年" into "账单周期"',
      check: { type: "fieldValue", target: "账单周期", value: "按年" },
    }
    expect(judged(fill, [cycle("Yearly")])).toEqual([])
    expect(judged(fill, [cycle("Monthly")])).toEqual([
      'combobox "Billing cycle" holds "Monthly", not "按年", on http://127.0.0.1/form',
    ])
  })

  it("holds several options said in other words (红色, 蓝色 → Red, Blue) only when the list holds each of them", () => {
    const colors = (value: string) =>
      element({
        ref: "e4",
        role: "listbox",
        name: "Colors",
        tag: "select",
        value,
        options: ["Red", "Green", "Blue"],
      })
    const choose: GoalPart = {
      kind: "select",
      description: 'select "红色", "蓝色" in "颜色"',
      check: { type: "optionsChosen", options: ["红色", "蓝色"], list: "颜色" },
    }
    expect(judged(choose, [colors("Red,Blue")])).toEqual([])
    expect(judged(choose, [colors("Red,Green")])).toEqual([
      '"蓝色" is not shown chosen on http://127.0.0.1/form',
    ])
  })

  it("does not hold an option signed + by a chosen option of the same number signed − ", () => {
    const choose: GoalPart = {
      kind: "select",
      description: 'select "UTC+04:00"',
      check: { type: "optionsChosen", options: ["UTC+04:00"] },
    }
    const zone = (name: string) => element({ ref: "e9", role: "option", name, tag: "div", selected: true })
    expect(judged(choose, [zone("UTC+04:00 Dubai")], zone("UTC+04:00 Dubai"))).toEqual([])
    expect(judged(choose, [zone("UTC−04:00 Halifax")], zone("UTC−04:00 Halifax"))).toEqual([
      '"UTC+04:00" is not shown chosen on http://127.0.0.1/form',
    ])
  })

  it("is not done when the page has no field by that name and shows the value nowhere", () => {
    // "Switch my plan to Pro" typed at a field nothing is named: an action that ran is not evidence.
    const fill: GoalPart = {
      kind: "fill",
      description: 'type "Pro" into "plan"',
      check: { type: "fieldValue", target: "plan", value: "Pro" },
    }
    const trigger = element({ ref: "e7", role: "button", name: "Plan Choose a plan", tag: "button" })
    expect(judged(fill, [trigger], trigger)).toEqual([
      'no field named "plan" and no option "Pro" is on http://127.0.0.1/form',
    ])
    // A custom dropdown's button that now names the choice shows it chosen.
    const chosen = element({ ref: "e7", role: "button", name: "Plan Pro", tag: "button" })
    expect(judged(fill, [chosen], trigger)).toEqual([])
    // A link clicked by mistake whose name merely starts with the value ("Products") shows nothing chosen.
    const products = element({ ref: "e5", role: "link", name: "Products", tag: "a" })
    expect(judged(fill, [products], products)).toHaveLength(1)
  })

  it("is not done when a typed code lost a letter, and is done when the field formatted the same digits", () => {
    const code: GoalPart = {
      kind: "fill",
      description: 'type "ABCD-1234-WXYZ" into "Code"',
      check: { type: "fieldValue", target: "Code", value: "ABCD-1234-WXYZ" },
    }
    const field = (value: string) => element({ ref: "e2", role: "textbox", name: "Code", value })
    expect(judged(code, [field("ABCD-1234-WXY")])).toEqual([
      'textbox "Code" holds "ABCD-1234-WXY", not "ABCD-1234-WXYZ", on http://127.0.0.1/form',
    ])
    const phone: GoalPart = {
      kind: "fill",
      description: 'type "5551234567" into "Phone"',
      check: { type: "fieldValue", target: "Phone", value: "5551234567" },
    }
    const phoneField = element({ ref: "e3", role: "textbox", name: "Phone", value: "(555) 123-4567" })
    expect(judged(phone, [phoneField])).toEqual([])
  })

  it("is done when a date-and-time field shows the typed date and time with the ISO T, and not for another time", () => {
    const reminder: GoalPart = {
      kind: "fill",
      description: 'type "2024-07-01 09:15" into "Reminder"',
      check: { type: "fieldValue", target: "Reminder", value: "2024-07-01 09:15" },
    }
    const field = (value: string) => element({ ref: "e2", role: "textbox", name: "Reminder", value })
    expect(judged(reminder, [field("2024-07-01T09:15")])).toEqual([])
    expect(judged(reminder, [field("2024-07-01T09:45")])).toEqual([
      'textbox "Reminder" holds "2024-07-01T09:45", not "2024-07-01 09:15", on http://127.0.0.1/form',
    ])
  })

  it("is not done when the last fill of a masked secret field failed because the field did not take it", () => {
    const fill: GoalPart = {
      kind: "fill",
      description: 'type "<secret:password>" into "Password"',
      check: { type: "fieldValue", target: "Password", value: "<secret:password>" },
    }
    const password = element({ ref: "e4", role: "textbox", name: "Password", value: "<secret>" })
    const typed = (ok: boolean): PartStep => ({
      ...step([password], password),
      tool: "fill",
      value: "<secret:password>",
      ok,
      ...(ok
        ? {}
        : {
            failure: "ValueNotTaken",
            message: "#password did not take the value typed into it: it holds 13 of 14 characters",
          }),
    })
    const verdict = (steps: ReadonlyArray<PartStep>) =>
      verifyParts([fill], { steps, records: [], finalPage: "not read" }).map((unmet) => unmet.evidence)
    // A step after it that worked (a key pressed in the field) does not make the masked field's dots evidence.
    const pressed: PartStep = { ...step([password]), tool: "press", ok: true }
    expect(verdict([typed(false), pressed])).toEqual([
      'textbox "Password" did not take the secret typed into it: #password did not take the value typed into it: it holds 13 of 14 characters',
    ])
    // A fill that then took it whole is the evidence.
    expect(verdict([typed(false), typed(true)])).toEqual([])
    expect(verdict([typed(true)])).toEqual([])
  })

  it("reads a field found by the words beside it through the element the part typed into", () => {
    const fill: GoalPart = {
      kind: "fill",
      description: 'type "10115" into "ZIP code"',
      check: { type: "fieldValue", target: "ZIP code", value: "10115" },
    }
    const unnamed = (value: string) => element({ ref: "e9", role: "textbox", name: "", value })
    // The field as the step saw it: the words beside it are its label.
    const labelled = (label: string) =>
      element({ ref: "e9", role: "textbox", name: "", value: "", attributes: { label } })
    expect(judged(fill, [unnamed("10115")], labelled("ZIP code"))).toEqual([])
    expect(judged(fill, [unnamed("1011")], labelled("ZIP code"))).toEqual([
      'textbox "" holds "1011", not "10115", on http://127.0.0.1/form',
    ])
    // Without a step that typed into it, an unnamed field is not taken for the named one.
    expect(judged(fill, [unnamed("10115")])).toHaveLength(1)
  })

  it("is not done when the value sits in an unnamed field while another answers to more of the words asked", () => {
    const fill: GoalPart = {
      kind: "fill",
      description: 'type "P-7781" into "Track parcel"',
      check: { type: "fieldValue", target: "Track parcel", value: "P-7781" },
    }
    // Two unnamed fields, each under its heading; the step saw "Parcel" beside the returns field.
    const returns = element({
      ref: "e8",
      role: "textbox",
      name: "",
      value: "P-7781",
      key: "textbox||main:/form:|Return a parcel|0",
    })
    const tracking = element({
      ref: "e5",
      role: "textbox",
      name: "",
      value: "",
      key: "textbox||main:/form:|Track a parcel|0",
    })
    const seen = { ...returns, value: "", attributes: { label: "Parcel" } }
    expect(judged(fill, [tracking, returns], seen)).toEqual([
      'no field named "Track parcel" and no option "P-7781" is on http://127.0.0.1/form',
    ])
    // The tracking field itself, typed into, holds it.
    const tracked = { ...tracking, value: "P-7781" }
    expect(
      judged(fill, [tracked, { ...returns, value: "" }], {
        ...tracking,
        attributes: { label: "Parcel number" },
      }),
    ).toEqual([])
  })

  it("is not done when a step of the part left its page before setting the field", () => {
    const fill: GoalPart = {
      kind: "fill",
      description: 'type "ada@example.com" into "work email"',
      check: { type: "fieldValue", target: "work email", value: "ada@example.com" },
    }
    const email = element({ ref: "e14", role: "textbox", name: "Work email", value: "ada@example.com" })
    const on = (url: string, tool: string, urlBefore = url): PartStep => ({
      ...step([email]),
      tool,
      urlBefore,
      urlAfter: url,
    })
    // A link on the sign-up page led to the support page, whose own email field took the value.
    expect(
      verifyParts([fill], {
        steps: [
          on("http://127.0.0.1/support", "click", "http://127.0.0.1/signup"),
          on("http://127.0.0.1/support", "fill"),
        ],
        records: [],
        finalPage: "not read",
      }).map((unmet) => unmet.evidence),
    ).toEqual([
      "click left http://127.0.0.1/signup for http://127.0.0.1/support: the control set there is not the one on the page the part is about",
    ])
    // A click that stays on the page (a tab, a section) before typing is part of setting it.
    expect(
      verifyParts([fill], {
        steps: [
          on("http://127.0.0.1/signup#work", "click", "http://127.0.0.1/signup"),
          on("http://127.0.0.1/signup#work", "fill"),
        ],
        records: [],
        finalPage: "not read",
      }),
    ).toEqual([])
  })

  it("takes a Chinese field name known only by its last word for a field only when no other control answers to it", () => {
    // 到期日期 is not in the glossary whole: the grounding reads it as 日期, "date".
    expect(GLOSSARY.has("到期日期")).toBe(false)
    const fill: GoalPart = {
      kind: "fill",
      description: 'type "2027-03-31" into "到期日期"',
      check: { type: "fieldValue", target: "到期日期", value: "2027-03-31" },
    }
    const start = element({ ref: "e3", role: "textbox", name: "Start date", value: "2027-03-31" })
    const calendar = element({ ref: "e5", role: "button", name: "Pick a date", tag: "button" })
    expect(judged(fill, [start, calendar])[0]).toContain(
      '"到期日期" is known only by its last word here, and textbox "Start date" is not the only control that word names',
    )
    // The only date on the page is the one meant.
    expect(judged(fill, [start])).toEqual([])
  })

  it("holds a selection only when every option named shows as chosen", () => {
    const select = (options: Array<string>): GoalPart => ({
      kind: "select",
      description: `select ${options.join(", ")}`,
      check: { type: "optionsChosen", options },
    })
    // Checkboxes: each one ticked ("Select Music, Sports and Cooking as interests").
    const box = (name: string, checked: boolean) =>
      element({ ref: `b${name}`, role: "checkbox", name, checked })
    expect(judged(select(["Music", "Sports"]), [box("Music", true), box("Sports", true)])).toEqual([])
    expect(judged(select(["Music", "Sports"]), [box("Music", true), box("Sports", false)])).toEqual([
      'checkbox "Sports" is not chosen on http://127.0.0.1/form',
    ])
    // A native select list: its value is its chosen labels.
    const colors = element({ ref: "e2", role: "listbox", name: "Colors", tag: "select", value: "Red, Blue" })
    expect(judged(select(["Red", "Blue"]), [colors])).toEqual([])
    expect(judged(select(["Red", "Green"]), [colors])).toEqual([
      '"Green" is not shown chosen on http://127.0.0.1/form',
    ])
    // "the Plus plan": the value "Plus" in the list named "Plan"; "the Plan plan" is not "Plus".
    const plan = element({ ref: "e3", role: "combobox", name: "Plan", tag: "select", value: "Plus" })
    expect(judged(select(["Plus plan"]), [plan])).toEqual([])
    expect(judged(select(["Pro plan"]), [plan])).toHaveLength(1)
    // A menu item is a command: the click on it is the part done, though nothing stays chosen.
    const item = element({ ref: "e25", role: "menuitem", name: "PNG image", tag: "div" })
    expect(judged(select(["PNG image"]), [], item)).toEqual([])
    expect(
      judged(select(["PNG image"]), [], element({ ref: "e26", role: "menuitem", name: "PDF", tag: "div" })),
    ).toEqual(['"PNG image" is not shown chosen on http://127.0.0.1/form'])
  })
})

const { runtime, runGoal } = useGallery()

describe("runAgent in Chromium: a part is done when the page shows it", () => {
  it("is FAILED when a typed date did not take (a date picker that ignores typing), naming what the field holds", async () => {
    const result = await runGoal("Set check-in to 2024-05-14", "/gallery/datepicker")
    expect(result.status).toBe("FAILED")
    // The fill itself fails: the driver read the field back and it held nothing after typing twice.
    expect(JSON.stringify(result.summary.unmetParts)).toContain(
      'did not take the value typed into it: the page changed the value to \\"\\" (typed \\"2024-05-14\\", twice)',
    )
  }, 90_000)

  it("is COMPLETED when a date typed as 01/09/2015 shows as 2015-01-09 in a date field", async () => {
    const result = await runGoal('Type "01/09/2015" into Preferred date', "/forms/contact")
    const value = await runtime.runPromise(
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        return yield* driver.evaluate("return document.querySelector('input[type=date]').value", [])
      }),
    )
    expect(value).toBe("2015-01-09")
    expect(result.summary.unmetParts).toEqual([])
    expect(result.status).toBe("COMPLETED")
  }, 90_000)

  it("is COMPLETED when both named boxes are checked on the page", async () => {
    const result = await runGoal("Check Music and Sports", "/gallery/checkboxes")
    const checked = await runtime.runPromise(
      Effect.gen(function* () {
        const driver = yield* BrowserDriver
        const snapshot = yield* driver.look({ mode: "interactive" })
        return Object.values(snapshot.elements)
          .filter((control) => control.role === "checkbox" && control.checked === true)
          .map((control) => control.name)
      }),
    )
    // Whatever the policy managed, the status says what the page shows.
    expect(result.status === "COMPLETED").toBe(checked.includes("Music") && checked.includes("Sports"))
  }, 90_000)
})

describe("field values are compared in normalised form", () => {
  const field = (value: string) => [element({ ref: "e3", role: "textbox", name: "Start date", value })]
  const fill = (value: string): GoalPart => ({
    kind: "fill",
    description: `type ${value} into Start date`,
    check: { type: "fieldValue", target: "Start date", value },
  })

  it("holds a date typed as 01/09/2015 that the field shows as 2015-01-09", () => {
    expect(judged(fill("01/09/2015"), field("2015-01-09"))).toEqual([])
    expect(judged(fill("2015-01-09"), field("01/09/2015"))).toEqual([])
    expect(judged(fill("9 January 2015"), field("2015-01-09"))).toEqual([])
    // Another day is still a mismatch.
    expect(judged(fill("01/09/2015"), field("2015-01-10"))).toEqual([
      'textbox "Start date" holds "2015-01-10", not "01/09/2015", on http://127.0.0.1/form',
    ])
    // 13/01/2015 can only be day-first.
    expect(judged(fill("13/01/2015"), field("2015-01-13"))).toEqual([])
    expect(judged(fill("13/01/2015"), field("2015-13-01"))).toHaveLength(1)
  })

  it("holds numbers, times, case and spacing written another way, and nothing else", () => {
    expect(judged(fill("1,250.50"), field("1250.5"))).toEqual([])
    expect(judged(fill("$40"), field("40.00"))).toEqual([])
    expect(judged(fill("9:05 PM"), field("21:05"))).toEqual([])
    expect(judged(fill("  New   York "), field("new york"))).toEqual([])
    expect(judged(fill("40"), field("41"))).toHaveLength(1)
    expect(judged(fill("9:05 PM"), field("09:05"))).toHaveLength(1)
  })
})

const { runOnGallery } = useGallery()

describe("runAgent in Chromium: Chinese form instructions done as the page's oracle says", () => {
  // Said otherwise than the fresh3 set says them; the page's own oracle is the truth.
  const done = async (goal: string, page: string, expected: Record<string, unknown>) => {
    const { status, verdict, result } = await runOnGallery(goal, page, expected)
    expect(verdict.achieved, JSON.stringify(verdict)).toBe(true)
    expect(status, JSON.stringify(result.summary.unmetParts)).toBe("COMPLETED")
  }

  it("types after 写 into the field named before it, a sentence value with its closing 。", async () => {
    await done("简介写：我喜欢读书。", "fields-label", { bio: "我喜欢读书。" })
  }, 90_000)

  it("turns a box on with 打开", async () => {
    await done("打开 Email alerts", "checkboxes", { alerts: true })
  }, 90_000)

  it("closes the ticket named before its kind noun with 把 … 关掉", async () => {
    await done("把 T-4810 这个工单关掉", "support-ticket", { "close:T-4810": true })
  }, 90_000)

  it("chooses the option a Chinese value names through the glossary, and its check holds", async () => {
    await done("账单周期改成按年", "account-tabs", { billingCycle: "Yearly" })
  }, 90_000)

  it("chooses several options of a list said in Chinese, and its check holds", async () => {
    await done("颜色选红色和蓝色", "select-native", { colors: "Red,Blue" })
  }, 90_000)
})

describe("runAgent in Chromium: a false COMPLETED is refused where the page says not done", () => {
  // Each goal is said otherwise than the fresh gallery set says it; the page's own oracle is the truth.
  const honest = async (goal: string, page: string, expected: Record<string, unknown>) => {
    const { status, verdict, result } = await runOnGallery(goal, page, expected)
    expect(status === "COMPLETED", JSON.stringify(result.summary.unmetParts)).toBe(verdict.achieved)
    return { status, verdict, result }
  }

  it("a wizard's next step reached by its Next button is done ('step' says what kind of thing is opened)", async () => {
    const { status } = await honest("Type Globex as the company name, then go to the next step", "wizard", {
      company: "Globex",
      step: 2,
    })
    expect(status).toBe("COMPLETED")
  }, 90_000)

  it("an option signed + is not the option of the same number signed − (UTC+04:00 is Dubai, not Halifax)", async () => {
    const { status } = await honest("Choose UTC+04:00 as the time zone", "listbox", {
      timezone: "UTC+04:00 Dubai",
    })
    expect(status).toBe("COMPLETED")
  }, 90_000)

  it("a second verb said as 'it' after a tick is not a box held by a press that showed nothing", async () => {
    // Print and Pin do nothing on this page, on purpose: "print it" and "pin it" are not done.
    for (const goal of ["Tick the tenancy agreement and print it", "Tick the tenancy agreement and pin it"]) {
      const { status } = await honest(goal, "file-actions", { "printed:Tenancy agreement.pdf": true })
      expect(status, goal).toBe("FAILED")
    }
  }, 90_000)

  it("a file selected in a tree is not reported opened", async () => {
    const { status } = await honest("Open lease-2026.pdf in the Contracts folder", "file-tree", {
      opened: "Documents/Contracts/lease-2026.pdf",
    })
    expect(status).toBe("FAILED")
  }, 90_000)

  it("a log-in pop-up that a link to another page stood in for is not reported filled", async () => {
    await honest("Open the sign-in popup and enter hunter22 in the password field", "login-popup", {
      loginPassword: "hunter22",
    })
  }, 90_000)

  it("a word selected and never typed is not reported copied", async () => {
    const { status } = await honest("Copy the word and tick the robot box", "human-check", {
      word: "harbor",
      notRobot: true,
    })
    expect(status).toBe("FAILED")
  }, 90_000)

  it("a value typed into the refund's Order field is not the tracking field's", async () => {
    await honest("Track order A-10252", "orders", { track: "A-10252", trackGo: true })
  }, 90_000)

  it("a return date typed into the pick-up date is not reported set", async () => {
    await honest("把还车日期设为 2026 年 12 月 3 日", "booking-times", { returnDate: "2026-12-03" })
  }, 90_000)

  it("a field typed on the page a link led to is not the wizard's", async () => {
    await honest("Company: Orbit Works. The contact email is hello@orbit.works", "wizard", {
      company: "Orbit Works",
      contactEmail: "hello@orbit.works",
    })
  }, 90_000)
})

describe("runAgent in Chromium: a goal with no parts", () => {
  it("ends FAILED, saying nothing in the instruction could be checked, though the policy says done", async () => {
    // A policy that reads goals into parts on the page, read none from this one, and calls it done at
    // once.
    const policy: StepPolicyShape = {
      decide: () =>
        Effect.succeed({ toolCalls: [], taskComplete: true, history: ["done"], usage: noTokens, parts: [] }),
      summarize: () =>
        Effect.succeed({
          taskComplete: true,
          summary: "done",
          keyFindings: [],
          nextSuggestions: [],
          usage: noTokens,
        }),
      parts: () => undefined,
    }
    const { result } = await runOnGallery(
      "Keep me from being bothered tonight",
      "switches",
      { doNotDisturb: true },
      { policy },
    )
    expect(result.status).toBe("FAILED")
    expect(result.summary.unmetParts?.[0]?.evidence).toContain("nothing in the instruction could be checked")
  }, 60_000)
})
