import { decodeAgentTask } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Command } from "../src/rules/Command.ts"
import { parseCommands } from "../src/rules/Grammar.ts"
import { planWithRules } from "../src/rules/RulePlanner.ts"
import { decideStep } from "../src/rules/RuleStepPolicy.ts"

/**
 * Instructions the rule agent once misread into a false COMPLETED: two values run into one, a
 * description typed as if it were the value, a clause dropped. Each row is read in full — every quoted
 * literal in exactly one slot — or refused with a reason that names what could not be placed.
 */

/** What a command types or acts on, in a short comparable form. */
const slot = (command: Command): ReadonlyArray<unknown> => {
  switch (command.kind) {
    case "type":
      return ["type", command.field?.text ?? command.field?.role, command.value]
    case "search":
      return ["search", command.query]
    case "selectText":
      return ["selectText", command.text]
    case "click":
    case "open":
    case "check":
      return [command.kind, command.target.text ?? command.target.role, command.target.ordinal]
    case "select":
      return ["select", command.options]
    case "drag":
      return ["drag", command.source.text, command.offset ?? command.target?.text]
    case "scroll":
      return ["scroll", command.to, command.within?.text]
    case "pick":
      return ["pick", command.action, command.item.name ?? command.item.ordinal]
    default:
      return [command.kind]
  }
}

type Row =
  | { readonly text: string; readonly reads: ReadonlyArray<ReadonlyArray<unknown>> }
  | { readonly text: string; readonly refuses: ReadonlyArray<string> }

const ROWS: ReadonlyArray<Row> = [
  // 1. Two values in one clause: each literal lands in its own field, or the literal is named.
  {
    text: 'Enter the username "ann" and the password "x9" into the fields and press Log in',
    reads: [
      ["type", "username", "ann"],
      ["type", "password", "x9"],
      ["click", "Log in", undefined],
    ],
  },
  {
    text: 'Type the email "ann@example.com" and the name "Ann Lee" into the fields',
    reads: [
      ["type", "email", "ann@example.com"],
      ["type", "name", "Ann Lee"],
    ],
  },
  { text: 'Type "ann" and "x9" into the fields', refuses: ['could not place the literal "ann"'] },
  {
    text: "Enter ann and x9 as the username and password",
    reads: [
      ["type", "username", "ann"],
      ["type", "password", "x9"],
    ],
  },
  {
    text: "Fill in the form: name Ada, email ada@x.com",
    reads: [
      ["type", "name", "Ada"],
      ["type", "email", "ada@x.com"],
    ],
  },
  { text: "Type salt and pepper into the Spices field", reads: [["type", "Spices", "salt and pepper"]] },
  { text: "Choose Blue for color and Large for size", refuses: ["could not place: for, color"] },
  { text: "Fill in the recipient Jane Doe and the city Paris", refuses: ["could not place: and, the, city"] },
  { text: "Choose the colours Green, Black and White", reads: [["select", ["Green", "Black", "White"]]] },
  {
    text: "Write a message to Chen Wei's email address with the subject Quarterly review and the text See you on Monday, then send it",
    refuses: ["could not place: and, the, text"],
  },
  // The fields, boxes and choices said after a sign-up are filled before its form is sent.
  {
    text: "Sign up as Ada Lovelace with ada@example.com and the password Engine1843, choose the Plus plan, accept the terms and create the account",
    reads: [
      ["type", "name", "Ada Lovelace"],
      ["type", "email", "ada@example.com"],
      ["type", "password", "Engine1843"],
      ["select", ["Plus plan"]],
      ["check", "terms", undefined],
      ["click", "create the account", undefined],
    ],
  },
  // A property said in a relative clause is judged by no rule: refused, not read as the control's name.
  {
    text: "Click the product that costs $12 and then click Buy",
    refuses: ['needs a model to work out "that costs $12"'],
  },
  {
    text: "Select the contact who lives in London",
    refuses: ['needs a model to work out "who lives in London"'],
  },
  { text: "Click Who we are", reads: [["click", "Who we are", undefined]] },
  // Where a paste's text comes from is read on the page by the step policy (or refused there).
  { text: "把页面上显示的邀请码粘贴到 Invite code 中", reads: [["paste"]] },
  { text: 'Type "ann" "x9" into the Name field', refuses: ['could not place the literal "ann"'] },
  {
    text: '在用户名框输入 "ann"，在密码框输入 "x9"',
    reads: [
      ["type", "用户名", "ann"],
      ["type", "密码", "x9"],
    ],
  },
  // 2. A description is no value: refused with the reference named, never typed.
  {
    text: "Type the sum of the two numbers into the box",
    refuses: ['needs a model to work out "the sum of the two numbers"'],
  },
  { text: "Enter the word shown in bold", refuses: ['needs a model to work out "the word shown in bold"'] },
  { text: "Type the text below into the field", refuses: ['needs a model to work out "the text below"'] },
  {
    text: "Enter the value of Phone from the table",
    refuses: ['needs a model to work out "the value of Phone from the table"'],
  },
  { text: "Type the answer into the box", refuses: ['needs a model to work out "the answer"'] },
  {
    text: "Type the total of the cart into the Amount field",
    refuses: ['needs a model to work out "the total of the cart"'],
  },
  {
    text: "Enter the number displayed above into the Code box",
    refuses: ['needs a model to work out "the number displayed above"'],
  },
  {
    text: "Type the date shown on the page into the Date field",
    refuses: ['needs a model to work out "the date shown on the page"'],
  },
  // A Chinese instruction is refused in Chinese (the messages of lang/zh.ts), naming the same words.
  { text: "在输入框中输入上面显示的数字", refuses: ["需要模型来算出“上面显示的数字”", "要从页面读取的值"] },
  {
    text: "How many items are in the cart? Type it into the box",
    refuses: ['needs a model to work out "How many"'],
  },
  { text: "输入两个数字之和", refuses: ["需要模型来算出“之和”"] },
  // A value said after "the", "my", "a" … describes what to type, unless it carries its text after it.
  { text: "Type the address into the field", refuses: ['needs a model to work out "the address"'] },
  { text: "Enter my email into the email field", refuses: ['needs a model to work out "my email"'] },
  { text: "Put the phone in airplane mode", refuses: ['needs a model to work out "the phone"'] },
  {
    text: "Write a short apology in the refund note",
    refuses: ['needs a model to work out "a short apology"'],
  },
  { text: "Fill the name field with my name", refuses: ['needs a model to work out "my name"'] },
  {
    text: "Set Country to the country I live in",
    refuses: ['needs a model to work out "the country I live in"'],
  },
  {
    text: "Fill the Email field with the address from the contact card",
    refuses: ['needs a model to work out "the address from the contact card"'],
  },
  {
    text: "Type something nice in the comment box",
    refuses: ['needs a model to work out "something nice"'],
  },
  { text: "Write anything in the notes", refuses: ['needs a model to work out "anything"'] },
  { text: "Enter any email", refuses: ['needs a model to work out "any email"'] },
  { text: "Fill the Name field", refuses: ["'fill' needs a value to type"] },
  { text: "Type field into the box", refuses: ["'type' needs a value to type"] },
  // A condition is judged by no rule: the step is refused with it, never done whatever the page shows.
  { text: "Click Save if the form is valid", refuses: ['needs a model to work out "if the form is valid"'] },
  {
    text: "Type hello into the box unless it is disabled",
    refuses: ['needs a model to work out "unless it is disabled"'],
  },
  {
    text: "Close the banner if it appears, then click Products",
    refuses: ['needs a model to work out "if it appears"'],
  },
  { text: "Search for lantern if you can", reads: [["search", "lantern"]] },
  // Several controls, or all but some, are no control's name: refused, never acted on as the one named.
  {
    text: "Check every box except Email",
    refuses: ['needs a model to work out "every box except Email"'],
  },
  { text: "Uncheck all boxes", refuses: ['needs a model to work out "all boxes"'] },
  { text: "勾选所有在柏林的联系人", refuses: ["需要模型来算出“所有在柏林的联系人”"] },
  {
    text: "Choose Norway as the country, a quantity of 4, and the colours Red and Blue",
    refuses: ["could not place: a, quantity, of, 4"],
  },
  {
    text: "Extract the names and prices of the products on page 2",
    refuses: ["could not place: page, 2"],
  },
  { text: "Uncheck everything", refuses: ['needs a model to work out "everything"'] },
  { text: "Accept all cookies", reads: [["check", "all cookies", undefined]] },
  // A count of times is that many clicks; a count the rules cannot repeat is named.
  {
    text: "Click Next twice",
    reads: [
      ["click", "Next", undefined],
      ["click", "Next", undefined],
    ],
  },
  {
    text: "点击 Next 三次",
    reads: [
      ["click", "Next", undefined],
      ["click", "Next", undefined],
      ["click", "Next", undefined],
    ],
  },
  { text: "Type hello twice", refuses: ["could not place: twice"] },
  { text: "Find the contact named Ana and call her", refuses: ["could not place: and, call, her"] },
  {
    text: "Add two of the first product to the cart",
    reads: [
      ["pick", "cart", 1],
      ["pick", "cart", 1],
    ],
  },
  { text: "Type the word hello into the box", reads: [["type", "textbox", "hello"]] },
  { text: "Enter the code SAVE20 in the promo box", reads: [["type", "promo", "SAVE20"]] },
  { text: "Enter the city Paris in the city field", reads: [["type", "city", "Paris"]] },
  { text: "Type my phone number 030 1234 into Phone", reads: [["type", "Phone", "030 1234"]] },
  { text: "Type The Beatles into the search box", reads: [["type", "search", "The Beatles"]] },
  { text: "Type phone into the phone field", reads: [["type", "phone", "phone"]] },
  // A value that is quoted or plainly literal is typed as written, description words or not.
  {
    text: 'Type "the sum of the two numbers" into the box',
    reads: [["type", "textbox", "the sum of the two numbers"]],
  },
  { text: "Type 3.14 into the Pi field", reads: [["type", "Pi", "3.14"]] },
  { text: "Enter jane@example.com in the Email field", reads: [["type", "Email", "jane@example.com"]] },
  { text: "Type hello world into the Message box", reads: [["type", "Message", "hello world"]] },
  { text: "Search for red shoes", reads: [["search", "red shoes"]] },
  // 3. Nothing dropped: a ranking the rules cannot apply, or words no slot takes, are refused by name.
  {
    text: "Book the cheapest one-way flight from A to B on 12/03",
    refuses: ["could not place: cheapest", 'needs a model to apply "cheapest"'],
  },
  { text: "Book the flight from A to B on 12/03", refuses: ['no action word in "Book the flight'] },
  { text: "Search for the cheapest lamp", refuses: ['needs a model to apply "cheapest"'] },
  { text: "Click the most expensive product", refuses: ['needs a model to apply "most expensive"'] },
  { text: "Select the largest size", refuses: ['needs a model to apply "largest"'] },
  // A condition on the item ("直飞", nonstop) is no quantity the rules read: the ranking needs a model.
  { text: "选择最便宜的直飞航班", refuses: ["无法安放：最便宜", "需要模型来判断“最便宜”"] },
  {
    text: "Highlight the text in the second paragraph",
    refuses: ['needs a model to find which text "the text in the second paragraph" means'],
  },
  { text: 'Highlight "lorem ipsum"', reads: [["selectText", "lorem ipsum"]] },
  { text: "Scroll down slowly", refuses: ["could not place: slowly"] },
  // A clause with a verb the rules do not know is no further search: it was searched for, and COMPLETED.
  { text: "search for lantern, then summarize the reviews", refuses: ["could not place: summarize"] },
  { text: "search for lantern and brass compass", reads: [["search", "lantern and brass compass"]] },
  {
    text: 'Fill in the email "ann@example.com" and the name "Ann Lee"',
    reads: [
      ["type", "email", "ann@example.com"],
      ["type", "name", "Ann Lee"],
    ],
  },
  // 4. A value that runs on into a step of its own, a place said before a verb, a Chinese word no slot
  // carries: read where the words go, or refused by name; never typed, dragged to or scrolled inside.
  // "并保存": the control said last is a step of its own, the press of 保存.
  {
    text: "把昵称改成 Bob 并保存",
    reads: [
      ["type", "昵称", "Bob"],
      ["click", "保存", undefined],
    ],
  },
  {
    text: "Change my nickname to Ada99 via Edit profile and save it",
    // "and save it" is a clause of its own (the Save pressed); "via Edit profile" is still not placed.
    refuses: ["could not place: via, Edit, profile"],
  },
  {
    text: "请把新密码设置为 Maple77，并在确认框里再输入一次",
    reads: [
      ["type", "新密码", "Maple77"],
      ["type", "确认", "Maple77"],
    ],
  },
  { text: "把 Move me 方块向右拖动 100 像素", reads: [["drag", "Move me 方块", { x: 100, y: 0 }]] },
  { text: "把 Change log 滚动到最后", reads: [["scroll", "bottom", "Change log"]] },
  { text: "快速返回", refuses: ["无法安放：快速"] },
  // Positions are not rankings: "最后一个" and "the last" are read, not refused.
  { text: "点击最后一个链接", reads: [["click", "link", -1]] },
  { text: "Click the last link", reads: [["click", "link", -1]] },
  // 5. Thanks between sentences are no clause and no part of a value: "lantern, thanks" was searched for,
  // "谢谢" and "Thanks" were clicked, "thank you" was a second field the value went into.
  { text: "Search for lantern please, thanks", reads: [["search", "lantern"]] },
  { text: "搜索 台灯，谢谢", reads: [["search", "台灯"]] },
  { text: "备注填：请放门口。谢谢", reads: [["type", "备注", "请放门口"]] },
  { text: "type hello into Name, thank you", reads: [["type", "Name", "hello"]] },
  {
    text: "Thanks! Type hello into Name, thanks, then click Save",
    reads: [
      ["type", "Name", "hello"],
      ["click", "Save", undefined],
    ],
  },
  // Thanks that are the words of a clause stay: a button may say them.
  { text: "click Thanks", reads: [["click", "Thanks", undefined]] },
  // Words said to the agent at a clause's end are no part of the value: "lantern for me" was searched for.
  { text: "Could you search for lantern for me?", reads: [["search", "lantern"]] },
  { text: "Search for lantern if you can", reads: [["search", "lantern"]] },
  { text: "search for lantern, ok?", reads: [["search", "lantern"]] },
  {
    text: "type hello into Name for me, then click Save",
    reads: [
      ["type", "Name", "hello"],
      ["click", "Save", undefined],
    ],
  },
  { text: 'type "for me" into Name', reads: [["type", "Name", "for me"]] },
  { text: "search for lanterns on this site", reads: [["search", "lanterns"]] },
  { text: "search for lantern instead", reads: [["search", "lantern"]] },
  { text: "type hello into Name as well", reads: [["type", "Name", "hello"]] },
  // Too few words before it to be an aside: "click here" is a link's name.
  { text: "click here", reads: [["click", "here", undefined]] },
  // The words before a value that name its own field are no part of it: "name Ada" was typed into Name.
  { text: "type my name Ada into the Name box", reads: [["type", "Name", "Ada"]] },
  { text: "put my phone number 030 123 in the Phone field", reads: [["type", "Phone", "030 123"]] },
  { text: 'type "name Ada" into Name', reads: [["type", "Name", "name Ada"]] },
  { text: "type Name Badge into Product", reads: [["type", "Product", "Name Badge"]] },
  // A softener after a Chinese verb is no part of what follows: "一下台灯" was searched for.
  { text: "帮我搜一下台灯", reads: [["search", "台灯"]] },
  { text: "输入一下 hello", reads: [["type", undefined, "hello"]] },
  { text: '搜索"一下"', reads: [["search", "一下"]] },
  // 6. 写 after a field's name types into it ("简介写：…"); it is no verb anywhere else: a clause that
  // starts with it names no field, and "页面上写了什么" asks what is written.
  { text: "简介写：喜欢爬山和摄影", reads: [["type", "简介", "喜欢爬山和摄影"]] },
  {
    text: "主题写“周会”，内容写“明天十点开会”，然后发送",
    reads: [
      ["type", "主题", "周会"],
      ["type", "内容", "明天十点开会"],
      ["click", "发送", undefined],
    ],
  },
  {
    text: "姓名写 王磊，邮箱写 wang@example.cn",
    reads: [
      ["type", "姓名", "王磊"],
      ["type", "邮箱", "wang@example.cn"],
    ],
  },
  // The pair after a field link is the next field typed, not more of its value.
  {
    text: "收件人写张伟，电话 138 0013 8000",
    reads: [
      ["type", "收件人", "张伟"],
      ["type", "电话", "138 0013 8000"],
    ],
  },
  { text: "写邮件给李娜", refuses: ["没有动作词"] },
  // In "把 X 写在 F" the words before 写 are what is written, not a field: 写 links nothing there.
  { text: "把数字写在退款备注里", refuses: ["没有动作词"] },
  { text: "告诉我页面上写了什么", refuses: ["没有动作词"] },
  // A value's closing stop: kept when the value after a colon is a sentence of its own, else it closes
  // the instruction.
  { text: "求职信填：我有五年港口物流经验。", reads: [["type", "求职信", "我有五年港口物流经验。"]] },
  { text: "城市填北京。", reads: [["type", "城市", "北京"]] },
  { text: "城市填：北京。", reads: [["type", "城市", "北京"]] },
  // A letter written onto Han text is one name with it: "T恤尺码", not "t" and "恤尺码".
  { text: "T恤尺码选 Medium", reads: [["select", ["Medium"]]] },
  // After a field that is no search box, a bare 搜索 presses the form's search control, never a site search
  // for the field's value.
  {
    text: "目的地改成 Madrid，然后搜索",
    reads: [
      ["type", "目的地", "Madrid"],
      ["click", "搜索", undefined],
    ],
  },
  { text: "在搜索框输入 lantern 并搜索", reads: [["search", "lantern"]] },
  // A number with the counter of what it counts sets the number.
  { text: "份量改成8人份", reads: [["type", "份量", "8"]] },
  { text: "数量设为三件", reads: [["type", "数量", "3"]] },
  // An item put in the cart is a press of its own Add to cart control, never text typed into a "cart"
  // field; a count said with it is that many presses.
  { text: "put the scented candle in the cart", reads: [["pick", "cart", "scented candle"]] },
  {
    text: "Add two scented candles to the cart",
    reads: [
      ["pick", "cart", "scented candles"],
      ["pick", "cart", "scented candles"],
    ],
  },
  // A control's name said last is a step of its own, never the value's last words nor a second field.
  {
    text: "Set the nickname to Bob and save",
    reads: [
      ["type", "nickname", "Bob"],
      ["click", "save", undefined],
    ],
  },
  {
    text: "Type Bob into Nickname and save it",
    reads: [
      ["type", "Nickname", "Bob"],
      ["click", "save", undefined],
    ],
  },
  {
    text: "把昵称改成“小鹿”，保存",
    reads: [
      ["type", "昵称", "小鹿"],
      ["click", "保存", undefined],
    ],
  },
  {
    text: "Change my password from hunter2 to Blue#Kite77",
    reads: [
      ["type", "current password", "hunter2"],
      ["type", "new password", "Blue#Kite77"],
      ["type", "confirm", "Blue#Kite77"],
      ["click", "Change password", undefined],
    ],
  },
  // "Check in on …" is a day for the check-in field, never a box named "in on …" ticked.
  { text: "Check in on the 14th of June 2024", reads: [["type", "check-in", "2024-06-14"]] },
  // A day with no year is still a day for the check-in field; the page says which year.
  { text: "Check in on 31 December", reads: [["type", "check-in", "--12-31"]] },
  // "check in" and "check out" with no day are verbs of their own, never a box named "out …" ticked.
  { text: "Check out the new arrivals", refuses: ["check", "out", "arrivals"] },
  { text: "Check in for flight BA117", refuses: ["check", "in", "BA117"] },
  // A box whose name is written as one still is one.
  { text: "Check Out of stock only", reads: [["check", "Out of stock only", undefined]] },
  // A count of other things after a comma is a counter of its own, not the end of the search words.
  { text: "Could you look for hotels in Porto, 2 rooms, and hit search?", refuses: ["2", "rooms"] },
  { text: "Type Porto, Portugal into Destination", reads: [["type", "Destination", "Porto, Portugal"]] },
  // Which option is right for the user is a judgement: a model's to make.
  {
    text: "Choose the right category for my problem: I was charged twice this month",
    refuses: ["the right category", "judge"],
  },
  { text: "帮我选一个合适的套餐并提交申请", refuses: ["合适的", "判断"] },
  // A quantity of things on the page is several things to find, never a text to type.
  { text: "Put every ingredient on my shopping list", refuses: ["every ingredient", "needs a model"] },
  { text: "在备注里输入所有食材", refuses: ["所有食材"] },
  // Things added to a list the page keeps as boxes are the boxes ticked.
  {
    text: "Add the Arborio rice and the parmesan to my shopping list",
    reads: [
      ["check", "Arborio rice", undefined],
      ["check", "parmesan", undefined],
    ],
  },
  // A quantifier inside a control's name says the action is done once per item.
  { text: "Click Details for every pending order", refuses: ["every pending order", "needs a model"] },
  { text: "Click Reply to all", reads: [["click", "Reply to all", undefined]] },
  { text: "Mark all emails as read", refuses: ["all emails as read", "needs a model"] },
  { text: "Accept all cookies", reads: [["check", "all cookies", undefined]] },
  // The text to send said after a colon is what to write, not the form's name: a submit would send without it.
  {
    text: "Send the message: The app crashes when I open a note",
    refuses: ["could not place: The, app, crashes"],
  },
  // A way to do it said after a value is not part of the value.
  {
    text: "Set the quantity to 3 using the plus button",
    refuses: ["could not place: using, the, plus, button"],
  },
  // The list tools read every item: words that choose which items are read are not placed.
  {
    text: "Extract the names of the products that are out of stock",
    refuses: ["that, are, out, of, stock", "choose which items"],
  },
  { text: "Extract the prices of all products in the Garden category", refuses: ["in, Garden, category"] },
  { text: "Extract the names of the red products", refuses: ["could not place: red"] },
  { text: "Extract the names and prices of the products on this page", reads: [["extract"]] },
  { text: "Extract the titles of the search results", reads: [["extract"]] },
  // A password or a code keeps the "!" written against it; a sentence's own "!" is not typed.
  { text: "Enter Engine1843!, then press Next", reads: [["type", undefined, "Engine1843!"], ["nextPage"]] },
  { text: "Type hello!", reads: [["type", undefined, "hello"]] },
]

/** Words that describe a value; a plan must never type them unless they were quoted. */
const DESCRIPTION =
  /\b(sum|total|answer|shown|below|above|bold|value of|displayed|cheapest|every|each)\b|之和|显示的|所有/

/** The planner's error for a goal; a plan instead makes `Effect.flip` fail, and the test with it. */
const refusal = (goal: string) =>
  Effect.runSync(
    Effect.flip(
      planWithRules(Effect.runSync(decodeAgentTask({ id: "m", goal, startUrl: "http://127.0.0.1:4000/" }))),
    ),
  )

describe("misreads: the whole instruction is read, or refused with what could not be placed", () => {
  for (const row of ROWS) {
    if ("reads" in row)
      it(`reads ${JSON.stringify(row.text)} into exactly its parts`, () => {
        const parsed = parseCommands(row.text)
        expect(parsed.ok ? parsed.commands.map(slot) : parsed.reason).toEqual(row.reads)
      })
    else
      it(`refuses ${JSON.stringify(row.text)}, naming why`, () => {
        const parsed = parseCommands(row.text)
        expect(parsed.ok ? parsed.commands : undefined).toBeUndefined()
        if (!parsed.ok) for (const words of row.refuses) expect(parsed.reason).toContain(words)
      })
  }

  it("never plans, nor steps into, typing a description: the planner cannot plan and the policy stops", () => {
    for (const row of ROWS) {
      if (!("refuses" in row)) continue
      expect(refusal(row.text).reason._tag, row.text).toBe("CannotPlan")
      const decision = decideStep({
        goal: row.text,
        url: "/",
        outline: '- textbox "Name" [ref=e1]',
        history: [],
      })
      expect(decision.toolCalls, row.text).toEqual([])
      expect(decision.taskComplete, row.text).toBe(false)
    }
  })

  it("types no description as a value in any row it reads", () => {
    for (const row of ROWS) {
      const parsed = parseCommands(row.text)
      if (!parsed.ok) continue
      for (const command of parsed.commands) {
        if (command.kind !== "type") continue
        const quoted = row.text.includes(`"${command.value}"`)
        if (!quoted) expect(command.value, row.text).not.toMatch(DESCRIPTION)
      }
    }
  })
})
