import { describe, expect, it } from "vitest"
import type { Command } from "../../src/rules/Command.ts"
import { parseCommands } from "../../src/rules/Grammar.ts"
import { tokenize } from "../../src/rules/Tokenizer.ts"

const parse = (text: string): ReadonlyArray<Command> => {
  const result = parseCommands(text)
  if (!result.ok) throw new Error(`could not parse "${text}": ${result.reason}`)
  return result.commands
}

const one = (text: string): Command => {
  const commands = parse(text)
  expect(commands, text).toHaveLength(1)
  return commands[0]!
}

describe("tokenize", () => {
  it("keeps quoted values, emails, urls and numbers whole", () => {
    const tokens = tokenize(
      'type "hello world" into Search at https://example.com/a?b=1 for bob@example.com #3',
    )
    expect(tokens.map((token) => `${token.kind}:${token.raw}`)).toEqual([
      "word:type",
      "quoted:hello world",
      "word:into",
      "word:Search",
      "word:at",
      "url:https://example.com/a?b=1",
      "word:for",
      "email:bob@example.com",
      "number:#3",
    ])
  })

  it("cuts Chinese text at lexicon words and keeps the text between them", () => {
    expect(tokenize("在搜索框中输入台灯").map((token) => token.raw)).toEqual([
      "在",
      "搜索框",
      "中",
      "输入",
      "台灯",
    ])
    expect(tokenize("点击「提交」").map((token) => `${token.kind}:${token.raw}`)).toEqual([
      "keyword:点击",
      "quoted:提交",
    ])
  })

  it("keeps the executor's input placeholders whole, next to punctuation and Chinese too", () => {
    expect(
      tokenize(
        "log in as {{ inputs.email }} with password <secret:password>, then 在密码框中输入<secret:pin>",
      ).map((token) => `${token.kind}:${token.raw}`),
    ).toEqual([
      "word:log",
      "word:in",
      "word:as",
      "quoted:{{ inputs.email }}",
      "word:with",
      "word:password",
      "quoted:<secret:password>",
      "punct:,",
      "word:then",
      "keyword:在",
      "keyword:密码",
      "keyword:框",
      "keyword:中",
      "keyword:输入",
      "quoted:<secret:pin>",
    ])
  })

  it("does not read an apostrophe inside a word as a quote", () => {
    expect(tokenize("click Don't save").map((token) => token.raw)).toEqual(["click", "Don't", "save"])
  })
})

describe("parseCommands: navigation", () => {
  it.each([
    ["go to http://127.0.0.1:4000/login", "http://127.0.0.1:4000/login"],
    ["open https://example.com", "https://example.com"],
    ["visit example.com/products", "example.com/products"],
    ["navigate to /products", "/products"],
    ["Please go to /search.", "/search"],
    ["打开 /products", "/products"],
    ["前往 http://127.0.0.1:4000/", "http://127.0.0.1:4000/"],
    ["访问 www.example.com", "www.example.com"],
  ])("%s", (text, url) => {
    expect(one(text)).toEqual({ kind: "navigate", url })
  })

  it.each([
    ["go back", "back"],
    ["back", "back"],
    ["返回", "back"],
    ["返回上一页", "back"],
    ["next page", "nextPage"],
    ["go to the next page", "nextPage"],
    ["click next", "nextPage"],
    ["下一页", "nextPage"],
    ["点击下一页", "nextPage"],
    ["previous page", "previousPage"],
    ["上一页", "previousPage"],
  ])("%s → %s", (text, kind) => {
    expect(one(text).kind).toBe(kind)
  })
})

describe("parseCommands: log in", () => {
  it.each([
    "log in as alice@example.com with password wonderland",
    "login as alice@example.com password wonderland",
    "sign in with alice@example.com and wonderland",
    "Log in with username alice@example.com and password wonderland",
    "sign in as alice@example.com, password is wonderland",
    "用 alice@example.com 和密码 wonderland 登录",
    "登录 账号 alice@example.com 密码 wonderland",
    "以 alice@example.com 登录，密码 wonderland",
  ])("%s", (text) => {
    expect(one(text)).toEqual({ kind: "login", username: "alice@example.com", password: "wonderland" })
  })

  it.each([
    "log in as {{inputs.email}} with password <secret:password>",
    "用 {{inputs.email}} 和密码 <secret:password> 登录",
  ])("reads placeholders as the credentials: %s", (text) => {
    expect(one(text)).toEqual({ kind: "login", username: "{{inputs.email}}", password: "<secret:password>" })
  })

  it("reads a bare 'log in' with no credentials", () => {
    expect(one("log in")).toEqual({ kind: "login" })
    expect(one("登录")).toEqual({ kind: "login" })
  })
})

describe("parseCommands: search and typing", () => {
  it.each([
    ["search for lantern", "lantern"],
    ["search lantern", "lantern"],
    ['search for "brass compass"', "brass compass"],
    ["find brass compass", "brass compass"],
    ["look for Oak Anchor", "Oak Anchor"],
    ["搜索台灯", "台灯"],
    ["搜索 “黄铜 罗盘”", "黄铜 罗盘"],
    ["查找 Lantern", "Lantern"],
  ])("%s", (text, query) => {
    const command = one(text)
    expect(command).toMatchObject({ kind: "search", query })
  })

  it.each([
    ['type "hello world" into the Name field', "hello world", "Name"],
    ["type hello into Name", "hello", "Name"],
    ["enter bob@example.com in the Email field", "bob@example.com", "Email"],
    ["fill the Email field with bob@example.com", "bob@example.com", "Email"],
    ["fill in Message with Hi there", "Hi there", "Message"],
    ["input 3 into Quantity", "3", "Quantity"],
    ["set Quantity to 5", "5", "Quantity"],
    ["set the Date to 2026-12-24", "2026-12-24", "Date"],
    ["type 'log in' into Subject", "log in", "Subject"],
    ["在姓名中输入张三", "张三", "姓名"],
    ["在邮箱输入框中输入 bob@example.com", "bob@example.com", "邮箱"],
    ["输入 张三 到 姓名", "张三", "姓名"],
    ["把 5 输入到 数量", "5", "数量"],
  ])("%s", (text, value, field) => {
    const command = one(text)
    expect(command.kind).toBe("type")
    if (command.kind !== "type") return
    expect(command.value).toBe(value)
    expect(command.field?.text ?? command.field?.raw).toBe(field)
  })

  it("reads 'the search box' as the search field", () => {
    const command = one('type "compass" into the search box')
    expect(command).toMatchObject({
      kind: "type",
      value: "compass",
      field: { role: "textbox", text: "search" },
    })
  })

  it("types into the focused field when none is named", () => {
    expect(one("type hello")).toEqual({ kind: "type", value: "hello" })
  })
})

describe("parseCommands: clicking", () => {
  it.each([
    ["click Sign In", { text: "Sign In" }],
    ["click the Sign In button", { text: "Sign In", role: "button" }],
    ['click on "Sign In"', { text: "Sign In" }],
    ["tap the Products link", { text: "Products", role: "link" }],
    ["press the Submit button", { text: "Submit", role: "button" }],
    ["hit Save", { text: "Save" }],
    ["click the second link", { role: "link", ordinal: 2 }],
    ["click the last button", { role: "button", ordinal: -1 }],
    ["click the 3rd result", { role: "result", ordinal: 3 }],
    ["click Tab #3", { role: "tab", ordinal: 3 }],
    ["click button number 2", { role: "button", ordinal: 2 }],
    ["click the button labelled Continue", { role: "button", text: "Continue" }],
    ["点击登录按钮", { text: "登录", role: "button" }],
    ["点击「立即购买」", { text: "立即购买" }],
    ["单击第二个链接", { role: "link", ordinal: 2 }],
    ["点击最后一个按钮", { role: "button", ordinal: -1 }],
    ["点击第3个结果", { role: "result", ordinal: 3 }],
  ])("%s", (text, target) => {
    const command = one(text)
    expect(command.kind).toBe("click")
    if (command.kind === "click") expect(command.target).toMatchObject(target)
  })

  it("reads a container: 'OK in the dialog' and '对话框中的确定'", () => {
    expect(one("click OK in the dialog")).toMatchObject({
      kind: "click",
      target: { text: "OK", container: { role: "dialog" } },
    })
    expect(one("点击对话框中的确定")).toMatchObject({
      kind: "click",
      target: { text: "确定", container: { role: "dialog" } },
    })
  })

  it("reads a menu path", () => {
    expect(one("open File > Export > PDF")).toMatchObject({
      kind: "open",
      target: { path: ["File", "Export", "PDF"], text: "PDF" },
    })
    expect(one("click Edit›Paste")).toMatchObject({ target: { path: ["Edit", "Paste"] } })
  })

  it("presses a key", () => {
    expect(one("press Enter")).toEqual({ kind: "press", key: "Enter" })
    expect(one("hit the escape key")).toEqual({ kind: "press", key: "Escape" })
    expect(one("按回车")).toEqual({ kind: "press", key: "Enter" })
  })

  it("keeps a name that is a cardinal word: 'button ONE' is named ONE", () => {
    expect(one("click button ONE")).toMatchObject({ target: { role: "button", text: "ONE" } })
  })
})

describe("parseCommands: choosing and checking", () => {
  it.each([
    ["select Red from the Color dropdown", ["Red"], "Color"],
    ["choose 'Express' from Shipping", ["Express"], "Shipping"],
    ["pick Large in Size", ["Large"], "Size"],
    ["select Red, Green and Blue from the Colors list", ["Red", "Green", "Blue"], "Colors"],
    ['select "Red", "Green" in Colors', ["Red", "Green"], "Colors"],
    ["在颜色下拉框中选择红色", ["红色"], "颜色"],
    ["从尺寸中选择 大号", ["大号"], "尺寸"],
    ["选择红色、绿色和蓝色", ["红色", "绿色", "蓝色"], undefined],
  ])("%s", (text, options, list) => {
    const command = one(text)
    expect(command.kind).toBe("select")
    if (command.kind !== "select") return
    expect(command.options).toEqual(options)
    expect(command.list?.text).toBe(list)
  })

  it("reads 'select nothing'", () => {
    expect(one("select nothing in Toppings")).toMatchObject({
      kind: "select",
      options: [],
      list: { text: "Toppings" },
    })
    expect(one("select none")).toMatchObject({ kind: "select", options: [] })
  })

  it.each([
    ["check I agree to the terms", "check", "I agree to the terms"],
    ["tick Remember me", "check", "Remember me"],
    ["check the Newsletter checkbox", "check", "Newsletter"],
    ["uncheck Newsletter", "uncheck", "Newsletter"],
    ["untick 'Remember me'", "uncheck", "Remember me"],
    ["勾选同意条款", "check", "同意条款"],
    ["取消勾选 订阅", "uncheck", "订阅"],
    ["expand the Shipping section", "expand", "Shipping"],
    ["展开 常见问题", "expand", "常见问题"],
    ["collapse Details", "collapse", "Details"],
    ["hover over Products", "hover", "Products"],
  ])("%s", (text, kind, name) => {
    const command = one(text)
    expect(command.kind).toBe(kind)
    if ("target" in command && command.target !== undefined) expect(command.target.text).toBe(name)
  })

  it("reads 'switch to' as clicking a tab", () => {
    expect(one("switch to the Reviews tab")).toMatchObject({
      kind: "click",
      target: { role: "tab", text: "Reviews" },
    })
    expect(one("切换到 规格 标签页")).toMatchObject({ kind: "click", target: { role: "tab", text: "规格" } })
  })

  it("reads closing a dialog", () => {
    expect(one("close the dialog")).toMatchObject({ kind: "close", target: { role: "dialog" } })
    expect(one("dismiss the modal")).toMatchObject({ kind: "close", target: { role: "dialog" } })
    expect(one("关闭对话框")).toMatchObject({ kind: "close", target: { role: "dialog" } })
  })
})

describe("parseCommands: scroll, submit, extract", () => {
  it.each([
    ["scroll down", { direction: "down" }],
    ["scroll up", { direction: "up" }],
    ["scroll down 3 times", { direction: "down", count: 3 }],
    ["scroll to the top", { to: "top" }],
    ["scroll to the bottom", { to: "bottom" }],
    ["scroll to the middle", { to: "middle" }],
    ["向下滚动", { direction: "down" }],
    ["向上滚动", { direction: "up" }],
    ["滚动到底部", { to: "bottom" }],
    ["滚到顶部", { to: "top" }],
    ["滚动到中间", { to: "middle" }],
  ])("%s", (text, expected) => {
    expect(one(text)).toEqual({ kind: "scroll", ...expected })
  })

  it("scrolls to an element", () => {
    expect(one("scroll to the Reviews heading")).toMatchObject({
      kind: "scroll",
      target: { text: "Reviews", role: "heading" },
    })
  })

  it.each(["submit", "submit the form", "提交", "提交表单"])("%s", (text) => {
    expect(one(text)).toEqual({ kind: "submit" })
  })

  it.each([
    ["extract the names and prices of the products on the first 3 pages", ["names", "prices"], "products", 3],
    [
      "collect the name, price and rating of all products from 2 pages",
      ["name", "price", "rating"],
      "products",
      2,
    ],
    ["get the titles of the results", ["titles"], "results", 1],
    ["提取前3页所有商品的名称和价格", ["名称", "价格"], "商品", 3],
    ["采集商品的名称、价格", ["名称", "价格"], "商品", 1],
  ])("%s", (text, fields, items, pages) => {
    expect(one(text)).toEqual({ kind: "extract", fields, items, pages })
  })
})

describe("parseCommands: sequences", () => {
  it("splits at 'then', commas before verbs and 'and' before verbs", () => {
    const commands = parse(
      "log in as alice@example.com with password wonderland, then search for lantern, then open the first result",
    )
    expect(commands.map((command) => command.kind)).toEqual(["login", "search", "open"])
    expect(commands[2]).toMatchObject({ target: { role: "result", ordinal: 1 } })
  })

  it("keeps 'and' inside a list of options", () => {
    expect(
      parse("select Red, Green and Blue from Colors and click Save").map((command) => command.kind),
    ).toEqual(["select", "click"])
  })

  it("repeats the verb for a clause without one: 'click button ONE then button TWO'", () => {
    const commands = parse("click button ONE then button TWO")
    expect(commands).toHaveLength(2)
    expect(commands[1]).toMatchObject({ kind: "click", target: { role: "button", text: "TWO" } })
  })

  it("splits Chinese sequences at ，然后 and 再", () => {
    expect(parse("搜索台灯，然后点击第一个结果").map((command) => command.kind)).toEqual(["search", "click"])
    expect(parse("在搜索框中输入台灯再按回车").map((command) => command.kind)).toEqual(["type", "press"])
    expect(
      parse("打开 /login；用 alice@example.com 和密码 wonderland 登录。然后搜索 Lantern").map(
        (command) => command.kind,
      ),
    ).toEqual(["navigate", "login", "search"])
  })

  it("mixes languages in one command", () => {
    expect(parse("go to /products 然后点击下一页").map((command) => command.kind)).toEqual([
      "navigate",
      "nextPage",
    ])
  })
})

describe("parseCommands: cannot plan", () => {
  it.each(["asdf qwer", "the weather is nice today", "今天天气很好", "", "   "])(
    "gives a reason for %j",
    (text) => {
      const result = parseCommands(text)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.reason.length).toBeGreaterThan(10)
    },
  )

  it("names what a verb is missing", () => {
    const result = parseCommands("click")
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("needs what to click") })
    const search = parseCommands("search for")
    expect(search).toEqual({ ok: false, reason: expect.stringContaining("needs what to search for") })
  })
})

describe("a lone finishing word after a box or a choice", () => {
  it("presses the button it names instead of ticking a box of that name ('tick Newsletter, then continue')", () => {
    expect(parseCommands("tick Newsletter, then continue")).toMatchObject({
      ok: true,
      commands: [{ kind: "check" }, { kind: "click", target: { text: "continue" } }],
    })
    expect(parseCommands("uncheck Remember me and then apply")).toMatchObject({
      ok: true,
      commands: [{ kind: "uncheck" }, { kind: "click", target: { text: "apply" } }],
    })
  })

  it("still ticks a second box named after the first ('tick Newsletter, then Offers')", () => {
    expect(parseCommands("tick Newsletter, then Offers")).toMatchObject({
      ok: true,
      commands: [{ kind: "check" }, { kind: "check", target: { text: "Offers" } }],
    })
  })
})

describe("signing in with a provider", () => {
  it("presses the provider's button instead of typing its name as a username ('Log in with GitHub')", () => {
    expect(parseCommands("Log in with GitHub")).toMatchObject({
      ok: true,
      commands: [{ kind: "click", target: { text: "Log in with GitHub" } }],
    })
    expect(parseCommands("sign in using Microsoft")).toMatchObject({
      ok: true,
      commands: [{ kind: "click", target: { text: "sign in using Microsoft" } }],
    })
  })

  it("still logs in with a username and a password given after 'with'", () => {
    expect(parseCommands("log in with alice and wonderland")).toMatchObject({
      ok: true,
      commands: [{ kind: "login", username: "alice", password: "wonderland" }],
    })
  })
})

describe("moving on to a step after typing", () => {
  it("presses the step's control instead of typing the verb into a field ('…, then go on to payment')", () => {
    expect(parseCommands("type Ada into Name, then go on to payment")).toMatchObject({
      ok: true,
      commands: [
        { kind: "type", value: "Ada" },
        { kind: "click", target: { text: "go on to payment" } },
      ],
    })
    expect(parseCommands("enter 12 in Age and then carry on to the summary")).toMatchObject({
      ok: true,
      commands: [{ kind: "type", value: "12" }, { kind: "click" }],
    })
  })
})
