import type { Command, RoleHint, TargetPhrase } from "./Command.ts"
import { joinTokens, type Token, tokenize } from "./Tokenizer.ts"

/**
 * The rule grammar: a command → clauses → one `Command` each.
 *
 * ```
 * command  := clause (separator clause)*
 * separator:= "then" | ";" | "。" | "然后" | "接着" | "之后"          (always)
 *           | "and" | "," | "，" | "并" | "再" | "和"                 (only before a verb)
 * clause   := prefix? verb arguments                  (prefix: Chinese "在 <field> 中", "用 X 和 Y")
 * target   := article? ordinal? words role? container?  | role ordinal | path (">")
 * ```
 *
 * A clause after "then" that has no verb repeats the verb before it ("click ONE then TWO").
 */

/** The grammar's answer: the commands, or why it could not read the text. */
export type ParseResult =
  | { readonly ok: true; readonly commands: ReadonlyArray<Command> }
  | { readonly ok: false; readonly reason: string }

type Verb =
  | "navigate"
  | "open"
  | "login"
  | "search"
  | "type"
  | "set"
  | "click"
  | "select"
  | "check"
  | "uncheck"
  | "expand"
  | "collapse"
  | "hover"
  | "close"
  | "submit"
  | "press"
  | "scroll"
  | "back"
  | "nextPage"
  | "previousPage"
  | "extract"
  | "switch"

/** English verb phrases, longest first so "log in" wins over "log". */
const ENGLISH_VERBS: ReadonlyArray<readonly [ReadonlyArray<string>, Verb]> = (
  [
    [["go", "to", "the", "next", "page"], "nextPage"],
    [["go", "to", "the", "previous", "page"], "previousPage"],
    [["go", "to", "next", "page"], "nextPage"],
    [["go", "to", "previous", "page"], "previousPage"],
    [["go", "back"], "back"],
    [["navigate", "back"], "back"],
    [["go", "to"], "navigate"],
    [["navigate", "to"], "navigate"],
    [["browse", "to"], "navigate"],
    [["head", "to"], "navigate"],
    [["goto"], "navigate"],
    [["visit"], "navigate"],
    [["load"], "navigate"],
    [["navigate"], "navigate"],
    [["open"], "open"],
    [["log", "in", "to"], "login"],
    [["log", "into"], "login"],
    [["log", "in"], "login"],
    [["log", "on"], "login"],
    [["sign", "in"], "login"],
    [["sign", "into"], "login"],
    [["login"], "login"],
    [["signin"], "login"],
    [["search", "for"], "search"],
    [["look", "for"], "search"],
    [["look", "up"], "search"],
    [["search"], "search"],
    [["find"], "search"],
    [["fill", "in"], "type"],
    [["fill", "out"], "type"],
    [["key", "in"], "type"],
    [["type", "in"], "type"],
    [["type"], "type"],
    [["enter"], "type"],
    [["input"], "type"],
    [["write"], "type"],
    [["fill"], "type"],
    [["put"], "type"],
    [["insert"], "type"],
    [["set"], "set"],
    [["change"], "set"],
    [["adjust"], "set"],
    [["double", "click"], "click"],
    [["click", "on"], "click"],
    [["tap", "on"], "click"],
    [["click"], "click"],
    [["tap"], "click"],
    [["hit"], "click"],
    [["push"], "click"],
    [["press"], "click"],
    [["select"], "select"],
    [["choose"], "select"],
    [["pick"], "select"],
    [["check"], "check"],
    [["tick"], "check"],
    [["mark"], "check"],
    [["uncheck"], "uncheck"],
    [["untick"], "uncheck"],
    [["unmark"], "uncheck"],
    [["expand"], "expand"],
    [["unfold"], "expand"],
    [["collapse"], "collapse"],
    [["fold"], "collapse"],
    [["hover", "over"], "hover"],
    [["hover", "on"], "hover"],
    [["mouse", "over"], "hover"],
    [["hover"], "hover"],
    [["close"], "close"],
    [["dismiss"], "close"],
    [["submit"], "submit"],
    [["send"], "submit"],
    [["scroll"], "scroll"],
    [["back"], "back"],
    [["next", "page"], "nextPage"],
    [["previous", "page"], "previousPage"],
    [["prev", "page"], "previousPage"],
    [["extract"], "extract"],
    [["collect"], "extract"],
    [["scrape"], "extract"],
    [["gather"], "extract"],
    [["grab"], "extract"],
    [["get"], "extract"],
    [["list"], "extract"],
    [["switch", "to"], "switch"],
  ] as Array<readonly [ReadonlyArray<string>, Verb]>
).toSorted((left, right) => right[0].length - left[0].length)

const CHINESE_VERBS: ReadonlyMap<string, Verb> = new Map<string, Verb>([
  ["前往", "navigate"],
  ["访问", "navigate"],
  ["转到", "navigate"],
  ["跳转到", "navigate"],
  ["导航到", "navigate"],
  ["打开", "open"],
  ["登录", "login"],
  ["登陆", "login"],
  ["登入", "login"],
  ["搜索", "search"],
  ["搜", "search"],
  ["查找", "search"],
  ["查询", "search"],
  ["输入", "type"],
  ["填写", "type"],
  ["填入", "type"],
  ["键入", "type"],
  ["设置", "set"],
  ["设定", "set"],
  ["点击", "click"],
  ["单击", "click"],
  ["点一下", "click"],
  ["点", "click"],
  ["按下", "click"],
  ["按", "click"],
  ["选择", "select"],
  ["选取", "select"],
  ["勾选", "check"],
  ["选中", "check"],
  ["取消勾选", "uncheck"],
  ["取消选中", "uncheck"],
  ["展开", "expand"],
  ["收起", "collapse"],
  ["折叠", "collapse"],
  ["悬停", "hover"],
  ["关闭", "close"],
  ["提交", "submit"],
  ["滚动", "scroll"],
  ["滚到", "scroll"],
  ["滑动", "scroll"],
  ["返回", "back"],
  ["后退", "back"],
  ["下一页", "nextPage"],
  ["翻页", "nextPage"],
  ["上一页", "previousPage"],
  ["提取", "extract"],
  ["采集", "extract"],
  ["抓取", "extract"],
  ["获取", "extract"],
  ["收集", "extract"],
  ["切换到", "switch"],
  ["切换", "switch"],
])

const ALWAYS_SEPARATES = new Set(["then", ";", "；", "。", "然后", "接着", "之后", "afterwards", "finally"])
const SEPARATES_BEFORE_VERB = new Set(["and", ",", "，", "、", "并", "并且", "再", "和", "also", "&"])
const FILLERS = new Set([
  "please",
  "now",
  "also",
  "then",
  "and",
  "first",
  "finally",
  "请",
  "先",
  "再",
  "一下",
])

const ORDINAL_WORDS: ReadonlyMap<string, number> = new Map([
  ["first", 1],
  ["second", 2],
  ["third", 3],
  ["fourth", 4],
  ["fifth", 5],
  ["sixth", 6],
  ["seventh", 7],
  ["eighth", 8],
  ["ninth", 9],
  ["tenth", 10],
  ["last", -1],
  ["1st", 1],
  ["2nd", 2],
  ["3rd", 3],
])

const CHINESE_NUMERALS: ReadonlyMap<string, number> = new Map([
  ["一", 1],
  ["二", 2],
  ["两", 2],
  ["三", 3],
  ["四", 4],
  ["五", 5],
  ["六", 6],
  ["七", 7],
  ["八", 8],
  ["九", 9],
  ["十", 10],
])

const ENGLISH_NUMBERS: ReadonlyMap<string, number> = new Map([
  ["one", 1],
  ["two", 2],
  ["three", 3],
  ["four", 4],
  ["five", 5],
  ["six", 6],
  ["seven", 7],
  ["eight", 8],
  ["nine", 9],
  ["ten", 10],
])

/** Role nouns, longest first. */
const ROLE_NOUNS: ReadonlyArray<readonly [ReadonlyArray<string>, RoleHint]> = (
  [
    [["radio", "button"], "radio"],
    [["check", "box"], "checkbox"],
    [["text", "box"], "textbox"],
    [["text", "field"], "textbox"],
    [["input", "field"], "textbox"],
    [["input", "box"], "textbox"],
    [["search", "box"], "textbox"],
    [["search", "field"], "textbox"],
    [["search", "bar"], "textbox"],
    [["drop", "down"], "combobox"],
    [["dropdown", "menu"], "combobox"],
    [["select", "box"], "combobox"],
    [["menu", "item"], "menuitem"],
    [["list", "box"], "listbox"],
    [["button"], "button"],
    [["btn"], "button"],
    [["link"], "link"],
    [["hyperlink"], "link"],
    [["field"], "textbox"],
    [["textbox"], "textbox"],
    [["textfield"], "textbox"],
    [["input"], "textbox"],
    [["box"], "textbox"],
    [["checkbox"], "checkbox"],
    [["radio"], "radio"],
    [["dropdown"], "combobox"],
    [["combobox"], "combobox"],
    [["select"], "combobox"],
    [["listbox"], "listbox"],
    [["list"], "listbox"],
    [["option"], "option"],
    [["tab"], "tab"],
    [["menuitem"], "menuitem"],
    [["menu"], "menuitem"],
    [["dialog"], "dialog"],
    [["modal"], "dialog"],
    [["popup"], "dialog"],
    [["section"], "section"],
    [["accordion"], "section"],
    [["panel"], "section"],
    [["result"], "result"],
    [["item"], "result"],
    [["heading"], "heading"],
    [["title"], "heading"],
    [["form"], "form"],
    [["image"], "image"],
    [["spinner"], "spinbutton"],
    [["slider"], "slider"],
    [["row"], "row"],
    [["按钮"], "button"],
    [["链接"], "link"],
    [["输入框"], "textbox"],
    [["文本框"], "textbox"],
    [["搜索框"], "textbox"],
    [["框"], "textbox"],
    [["复选框"], "checkbox"],
    [["单选按钮"], "radio"],
    [["单选框"], "radio"],
    [["下拉框"], "combobox"],
    [["下拉菜单"], "combobox"],
    [["下拉列表"], "combobox"],
    [["列表"], "listbox"],
    [["选项"], "option"],
    [["标签页"], "tab"],
    [["选项卡"], "tab"],
    [["标签"], "tab"],
    [["菜单项"], "menuitem"],
    [["菜单"], "menuitem"],
    [["对话框"], "dialog"],
    [["弹窗"], "dialog"],
    [["区域"], "section"],
    [["部分"], "section"],
    [["结果"], "result"],
    [["表单"], "form"],
  ] as Array<readonly [ReadonlyArray<string>, RoleHint]>
).toSorted((left, right) => right[0].length - left[0].length)

/** Plural role nouns ("buttons", "results") read as their singular. */
const singular = (word: string): string => (word.endsWith("s") && word.length > 3 ? word.slice(0, -1) : word)

const KEYS: ReadonlyMap<string, string> = new Map([
  ["enter", "Enter"],
  ["return", "Enter"],
  ["tab", "Tab"],
  ["escape", "Escape"],
  ["esc", "Escape"],
  ["space", "Space"],
  ["backspace", "Backspace"],
  ["delete", "Delete"],
  ["up", "ArrowUp"],
  ["down", "ArrowDown"],
  ["left", "ArrowLeft"],
  ["right", "ArrowRight"],
  ["arrowup", "ArrowUp"],
  ["arrowdown", "ArrowDown"],
  ["arrowleft", "ArrowLeft"],
  ["arrowright", "ArrowRight"],
  ["pageup", "PageUp"],
  ["pagedown", "PageDown"],
  ["home", "Home"],
  ["end", "End"],
  ["回车", "Enter"],
  ["回车键", "Enter"],
  ["空格", "Space"],
  ["空格键", "Space"],
  ["退格", "Backspace"],
  ["退格键", "Backspace"],
])

const ARTICLES = new Set(["the", "a", "an", "on", "at", "this", "that", "its", "my"])

const isWord = (token: Token | undefined, ...words: ReadonlyArray<string>): boolean =>
  token !== undefined && (token.kind === "word" || token.kind === "keyword") && words.includes(token.value)

/** Matches a verb at `position`; answers the verb and how many tokens it took. */
const matchVerb = (tokens: ReadonlyArray<Token>, position: number): readonly [Verb, number] | undefined => {
  const token = tokens[position]
  if (token === undefined) return undefined
  if (token.kind === "keyword") {
    const verb = CHINESE_VERBS.get(token.value)
    return verb === undefined ? undefined : [verb, 1]
  }
  if (token.kind !== "word") return undefined
  for (const [words, verb] of ENGLISH_VERBS) {
    if (
      words.every(
        (word, offset) =>
          tokens[position + offset]?.kind === "word" && tokens[position + offset]?.value === word,
      )
    ) {
      return [verb, words.length]
    }
  }
  return undefined
}

/** Cuts a command into clauses at separators (see the grammar above). */
const splitClauses = (tokens: ReadonlyArray<Token>): ReadonlyArray<ReadonlyArray<Token>> => {
  const clauses: Array<Array<Token>> = [[]]
  let position = 0
  while (position < tokens.length) {
    const token = tokens[position]!
    const current = clauses[clauses.length - 1]!
    const isAlways =
      (token.kind === "word" || token.kind === "keyword" || token.kind === "punct") &&
      ALWAYS_SEPARATES.has(token.value)
    // "next" separates only when it is not "next page".
    const isNextPage = token.value === "next" && isWord(tokens[position + 1], "page")
    if (isAlways && !isNextPage) {
      if (current.length > 0) clauses.push([])
      position += 1
      continue
    }
    if (
      (token.kind === "word" || token.kind === "keyword" || token.kind === "punct") &&
      SEPARATES_BEFORE_VERB.has(token.value)
    ) {
      let next = position + 1
      while (
        next < tokens.length &&
        (SEPARATES_BEFORE_VERB.has(tokens[next]!.value) ||
          FILLERS.has(tokens[next]!.value) ||
          ALWAYS_SEPARATES.has(tokens[next]!.value))
      )
        next += 1
      const startsClause =
        matchVerb(tokens, next) !== undefined || isWord(tokens[next], "在", "用", "以", "从", "把", "将")
      if (startsClause && current.length > 0) {
        clauses.push([])
        position = next
        continue
      }
    }
    current.push(token)
    position += 1
  }
  return clauses.filter((clause) => clause.length > 0)
}

const stripFillers = (tokens: ReadonlyArray<Token>): ReadonlyArray<Token> => {
  let start = 0
  while (start < tokens.length && (FILLERS.has(tokens[start]!.value) || tokens[start]!.kind === "punct"))
    start += 1
  let end = tokens.length
  while (end > start && (tokens[end - 1]!.kind === "punct" || isWord(tokens[end - 1], "please", "一下")))
    end -= 1
  return tokens.slice(start, end)
}

const indexOfWord = (tokens: ReadonlyArray<Token>, words: ReadonlyArray<string>, from = 0): number => {
  for (let index = from; index < tokens.length; index += 1) {
    if (isWord(tokens[index], ...words)) return index
  }
  return -1
}

const lastIndexOfWord = (tokens: ReadonlyArray<Token>, words: ReadonlyArray<string>): number => {
  for (let index = tokens.length - 1; index >= 0; index -= 1) {
    if (isWord(tokens[index], ...words)) return index
  }
  return -1
}

/** Text of tokens as typed, with leading articles and trailing particles dropped. */
const valueText = (tokens: ReadonlyArray<Token>): string => {
  let start = 0
  while (start < tokens.length - 1 && tokens[start]!.kind === "word" && ARTICLES.has(tokens[start]!.value))
    start += 1
  let end = tokens.length
  while (end > start && isWord(tokens[end - 1], "的", "中", "里", "内", "上")) end -= 1
  return joinTokens(tokens.slice(start, end))
}

const chineseNumber = (text: string): number | undefined => {
  if (/^\d+$/.test(text)) return Number(text)
  if (text === "十") return 10
  if (text.length === 2 && text.startsWith("十")) return 10 + (CHINESE_NUMERALS.get(text[1]!) ?? 0)
  return CHINESE_NUMERALS.get(text)
}

/**
 * Reads a phrase naming an element.
 *
 * @example
 * ```ts
 * // parseTargetPhrase(tokenize("the second link")) → { role: "link", ordinal: 2, raw: "the second link" }
 * ```
 */
export const parseTargetPhrase = (input: ReadonlyArray<Token>): TargetPhrase => {
  let tokens = stripFillers(input).filter(
    (token) => token.kind !== "punct" || token.value === ">" || token.value === "›",
  )
  const raw = valueText(tokens)
  // A menu path: "File > Export > PDF".
  if (tokens.some((token) => token.value === ">" || token.value === "›" || token.value === "→")) {
    const path: Array<string> = []
    let segment: Array<Token> = []
    for (const token of tokens) {
      if (token.value === ">" || token.value === "›" || token.value === "→") {
        path.push(valueText(segment))
        segment = []
      } else segment.push(token)
    }
    path.push(valueText(segment))
    const clean = path.filter((part) => part !== "")
    return { raw, path: clean, text: clean[clean.length - 1]!, role: "menuitem" }
  }
  let container: TargetPhrase | undefined
  // Chinese container first: "对话框中的确定", "在对话框中 … 确定".
  const chineseIn = indexOfWord(tokens, ["中的", "里的"])
  if (chineseIn > 0) {
    container = parseTargetPhrase(tokens.slice(0, chineseIn))
    tokens = tokens.slice(chineseIn + 1)
  } else {
    const middle = tokens.findIndex(
      (token, index) => isWord(token, "中", "里", "内") && isWord(tokens[index + 1], "的") && index > 0,
    )
    if (middle > 0) {
      container = parseTargetPhrase(tokens.slice(isWord(tokens[0], "在") ? 1 : 0, middle))
      tokens = tokens.slice(middle + 2)
    }
  }
  // English container: "OK in the dialog", "Save inside the Settings panel".
  const inIndex = lastIndexOfWord(tokens, ["in", "inside", "within", "under"])
  if (container === undefined && inIndex > 0 && inIndex < tokens.length - 1) {
    const rest = tokens.slice(inIndex + 1)
    const restTarget = parseTargetPhrase(rest)
    const article = rest[0]?.kind === "word" && ARTICLES.has(rest[0].value)
    const containerRole =
      restTarget.role !== undefined &&
      ["dialog", "form", "section", "menuitem", "tab", "listbox", "row"].includes(restTarget.role)
    if (restTarget.role !== undefined && (article || containerRole)) {
      container = restTarget
      tokens = tokens.slice(0, inIndex)
    }
  }
  let ordinal: number | undefined
  let role: RoleHint | undefined
  const words: Array<Token> = []
  let index = 0
  while (index < tokens.length) {
    const token = tokens[index]!
    if (token.kind === "word" && ARTICLES.has(token.value) && words.length === 0) {
      index += 1
      continue
    }
    if (
      token.kind === "word" &&
      ORDINAL_WORDS.has(token.value) &&
      ordinal === undefined &&
      words.length === 0
    ) {
      ordinal = ORDINAL_WORDS.get(token.value)!
      index += 1
      continue
    }
    if (token.kind === "word" && /^\d+(st|nd|rd|th)$/.test(token.value) && ordinal === undefined) {
      ordinal = Number.parseInt(token.value, 10)
      index += 1
      continue
    }
    if (isWord(token, "第")) {
      const next = tokens[index + 1]
      const number = next === undefined ? undefined : chineseNumber(next.value)
      if (number !== undefined) {
        ordinal = number
        index += isWord(tokens[index + 2], "个", "项", "条", "页") ? 3 : 2
        continue
      }
    }
    if (isWord(token, "最后一个", "最后")) {
      ordinal = -1
      index += isWord(tokens[index + 1], "个") ? 2 : 1
      continue
    }
    // "Tab #3", "button number 2", "link no. 4" — a number right after a role noun is a position.
    if (role !== undefined && words.length === 0 && ordinal === undefined) {
      if (token.kind === "number" && token.raw.startsWith("#")) {
        ordinal = Number(token.value)
        index += 1
        continue
      }
      if (isWord(token, "number", "no") && tokens[index + 1]?.kind === "number") {
        ordinal = Number(tokens[index + 1]!.value)
        index += 2
        continue
      }
    }
    if (token.kind === "word" || token.kind === "keyword") {
      const found = ROLE_NOUNS.find(([nouns]) =>
        nouns.every((noun, offset) => {
          const candidate = tokens[index + offset]
          if (candidate === undefined || (candidate.kind !== "word" && candidate.kind !== "keyword"))
            return false
          return (
            candidate.value === noun || (offset === nouns.length - 1 && singular(candidate.value) === noun)
          )
        }),
      )
      // A role noun names the kind when it starts or ends the phrase: "the Save button", "button ONE".
      if (found !== undefined && role === undefined) {
        const after = index + found[0].length
        const atEnd =
          after >= tokens.length ||
          isWord(tokens[after], "labelled", "labeled", "named", "called", "titled", "saying", "with", "的")
        const atStart = words.length === 0
        if (atEnd || atStart) {
          role = found[1]
          index = after
          continue
        }
      }
    }
    if (
      isWord(token, "labelled", "labeled", "named", "called", "titled", "saying") ||
      (isWord(token, "with") && isWord(tokens[index + 1], "text", "label"))
    ) {
      index += isWord(token, "with") ? 2 : 1
      continue
    }
    if (isWord(token, "的") && (index === tokens.length - 1 || words.length === 0)) {
      index += 1
      continue
    }
    words.push(token)
    index += 1
  }
  // "button #2" left a lone number: it is a position.
  if (ordinal === undefined && role !== undefined && words.length === 1 && words[0]!.kind === "number") {
    ordinal = Number(words[0]!.value)
    words.length = 0
  }
  let text = valueText(words.filter((token) => !isWord(token, "的")))
  // "the search box" and "搜索框" name a search field even with no other words.
  if (text === "" && role === "textbox" && tokens.some((token) => isWord(token, "search", "搜索框")))
    text = "search"
  const phrase: { -readonly [Key in keyof TargetPhrase]: TargetPhrase[Key] } = { raw }
  if (text !== "") phrase.text = text
  if (role !== undefined) phrase.role = role
  if (ordinal !== undefined) phrase.ordinal = ordinal
  if (container !== undefined) phrase.container = container
  return phrase
}

/** Splits "A, B and C" / "A、B和C" into values. */
const splitList = (tokens: ReadonlyArray<Token>): ReadonlyArray<string> => {
  const items: Array<string> = []
  let current: Array<Token> = []
  for (const token of tokens) {
    if (
      isWord(token, "and", "or", "和", "与", "或", "及", "以及", "&") ||
      (token.kind === "punct" && [",", "，", "、", ";"].includes(token.value))
    ) {
      if (current.length > 0) items.push(valueText(current))
      current = []
    } else current.push(token)
  }
  if (current.length > 0) items.push(valueText(current))
  return items.filter((item) => item !== "")
}

const fail = (reason: string): ParseResult => ({ ok: false, reason })

type ClauseResult = { readonly command: Command } | { readonly reason: string }

const parseLogin = (before: ReadonlyArray<Token>, after: ReadonlyArray<Token>): ClauseResult => {
  const tokens = [...before, ...after]
  let username: string | undefined
  let password: string | undefined
  const valueAt = (position: number): string | undefined => {
    let index = position
    while (isWord(tokens[index], "is", "of", "=", "为", "是", ":", "the") || tokens[index]?.value === ":")
      index += 1
    const token = tokens[index]
    if (token === undefined || token.kind === "punct") return undefined
    return token.raw
  }
  tokens.forEach((token, index) => {
    if (isWord(token, "password", "pass", "pw", "passwd", "密码")) password ??= valueAt(index + 1)
    else if (
      isWord(
        token,
        "as",
        "user",
        "username",
        "email",
        "account",
        "用户名",
        "用户",
        "账号",
        "帐号",
        "邮箱",
        "以",
      )
    ) {
      const value = valueAt(index + 1)
      if (value !== undefined && !isWord(tokens[index + 1], "password", "密码")) username ??= value
    }
  })
  if (username === undefined) {
    const email = tokens.find((token) => token.kind === "email")
    if (email !== undefined) username = email.raw
  }
  // "log in with alice and wonderland", "用 alice 和 wonderland 登录", "alice / wonderland".
  const withIndex = indexOfWord(tokens, ["with", "using", "用", "使用"])
  if (withIndex >= 0 && (username === undefined || password === undefined)) {
    const values = tokens
      .slice(withIndex + 1)
      .filter(
        (token) =>
          token.kind !== "punct" &&
          !isWord(token, "and", "和", "/", "password", "密码", "username", "用户名", "登录", "the"),
      )
    if (username === undefined && values[0] !== undefined) username = values[0].raw
    if (password === undefined && values[1] !== undefined && values[1].raw !== username)
      password = values[1].raw
  }
  const slash = tokens.findIndex((token) => token.raw.includes("/") && token.kind === "word")
  if (slash >= 0 && username === undefined) {
    const [user, secret] = tokens[slash]!.raw.split("/")
    username = user
    password = secret
  }
  const command: { kind: "login"; username?: string; password?: string } = { kind: "login" }
  if (username !== undefined) command.username = username
  if (password !== undefined) command.password = password
  return { command }
}

/** "type X into F", "fill F with X", "在 F 中输入 X", "输入 X 到 F". */
const parseType = (
  before: ReadonlyArray<Token>,
  after: ReadonlyArray<Token>,
  verbRaw: string,
): ClauseResult => {
  const field = (tokens: ReadonlyArray<Token>): TargetPhrase | undefined => {
    const stripped = stripFillers(tokens).filter(
      (token) => !isWord(token, "在", "于", "中", "里", "内", "的"),
    )
    if (stripped.length === 0) return undefined
    const target = parseTargetPhrase(stripped)
    return target.role === undefined ? { ...target, role: "textbox" } : target
  }
  const command = (value: string, target: TargetPhrase | undefined): ClauseResult => {
    if (value === "") return { reason: `'${verbRaw}' needs a value to type, e.g. type "hello" into Search` }
    return {
      command: target === undefined ? { kind: "type", value } : { kind: "type", value, field: target },
    }
  }
  // Chinese: 在 F 中 输入 X / F 输入 X / 把 X 输入到 F
  if (before.length > 0) {
    if (isWord(before[0], "把", "将"))
      return command(valueText(before.slice(1)), field(after.filter((token) => !isWord(token, "到"))))
    return command(valueText(after), field(before))
  }
  const into = indexOfWord(after, ["into", "到", "在"])
  if (into > 0) return command(valueText(after.slice(0, into)), field(after.slice(into + 1)))
  const withIndex = indexOfWord(after, ["with", "as", "为", "成"])
  if (withIndex > 0) return command(valueText(after.slice(withIndex + 1)), field(after.slice(0, withIndex)))
  const inIndex = lastIndexOfWord(after, ["in", "on", "inside", "for"])
  if (inIndex > 0) return command(valueText(after.slice(0, inIndex)), field(after.slice(inIndex + 1)))
  return command(valueText(after), undefined)
}

/** "set Quantity to 3", "set the date to 2026-01-31", "把数量设置为 3". */
const parseSet = (before: ReadonlyArray<Token>, after: ReadonlyArray<Token>): ClauseResult => {
  if (before.length > 0 && isWord(before[0], "把", "将")) {
    const value = valueText(after.filter((token) => !isWord(token, "为", "成", "to")))
    return {
      command: {
        kind: "type",
        value,
        field: {
          ...parseTargetPhrase(before.slice(1)),
          role: parseTargetPhrase(before.slice(1)).role ?? "textbox",
        },
      },
    }
  }
  const to = lastIndexOfWord(after, ["to", "为", "成", "="])
  if (to <= 0) return { reason: "'set' needs a field and a value, e.g. set Quantity to 3" }
  const target = parseTargetPhrase(after.slice(0, to))
  return {
    command: {
      kind: "type",
      value: valueText(after.slice(to + 1)),
      field: target.role === undefined ? { ...target, role: "textbox" } : target,
    },
  }
}

const parseSearch = (before: ReadonlyArray<Token>, after: ReadonlyArray<Token>): ClauseResult => {
  let tokens = after
  let field: TargetPhrase | undefined
  if (before.length > 0) {
    const stripped = before.filter((token) => !isWord(token, "在", "于", "中", "里", "内", "的"))
    if (stripped.length > 0) field = parseTargetPhrase(stripped)
  }
  const inIndex = lastIndexOfWord(tokens, ["in", "on", "using"])
  if (inIndex > 0 && parseTargetPhrase(tokens.slice(inIndex + 1)).role !== undefined) {
    field = parseTargetPhrase(tokens.slice(inIndex + 1))
    tokens = tokens.slice(0, inIndex)
  }
  const query = valueText(tokens.filter((token, index) => !(index === 0 && isWord(token, "for"))))
  if (query === "") return { reason: "'search' needs what to search for, e.g. search for lantern" }
  return { command: field === undefined ? { kind: "search", query } : { kind: "search", query, field } }
}

const parseSelect = (before: ReadonlyArray<Token>, after: ReadonlyArray<Token>): ClauseResult => {
  let tokens = after
  let list: TargetPhrase | undefined
  if (before.length > 0) {
    const stripped = before.filter((token) => !isWord(token, "在", "从", "于", "中", "里", "内", "的"))
    if (stripped.length > 0) list = parseTargetPhrase(stripped)
  }
  const from = lastIndexOfWord(tokens, ["from", "in", "for", "on"])
  if (from > 0) {
    list = parseTargetPhrase(tokens.slice(from + 1))
    tokens = tokens.slice(0, from)
  }
  const stripped = tokens.filter(
    (token, index) => !(index === 0 && token.kind === "word" && ARTICLES.has(token.value)),
  )
  if (
    stripped.length > 0 &&
    stripped.every((token) => isWord(token, "nothing", "none", "不选", "都不选", "什么都不选", "无"))
  ) {
    return {
      command:
        list === undefined
          ? { kind: "select", options: [], target: { raw: "" } }
          : { kind: "select", options: [], list, target: { raw: "" } },
    }
  }
  const target = parseTargetPhrase(tokens)
  const options = tokens.some((token) => token.kind === "quoted")
    ? tokens.filter((token) => token.kind === "quoted").map((token) => token.raw)
    : splitList(
        tokens.filter((token, index) => !(index === 0 && token.kind === "word" && ARTICLES.has(token.value))),
      )
  if (options.length === 0 && target.ordinal === undefined)
    return { reason: "'select' needs what to select, e.g. select Red from Color" }
  return {
    command:
      list === undefined ? { kind: "select", options, target } : { kind: "select", options, list, target },
  }
}

const parseScroll = (after: ReadonlyArray<Token>): ClauseResult => {
  const words = after.map((token) => token.value)
  const count = after.find((token) => token.kind === "number")
  const countValue = count === undefined ? undefined : Number(count.value)
  const withCount = (command: Command & { kind: "scroll" }): ClauseResult => ({
    command: countValue === undefined ? command : { ...command, count: countValue },
  })
  if (words.some((word) => ["top", "顶部", "顶端", "最上面", "beginning", "start"].includes(word)))
    return { command: { kind: "scroll", to: "top" } }
  if (words.some((word) => ["bottom", "底部", "底端", "最下面", "end"].includes(word)))
    return { command: { kind: "scroll", to: "bottom" } }
  if (words.some((word) => ["middle", "center", "centre", "中间"].includes(word)))
    return { command: { kind: "scroll", to: "middle" } }
  if (words.some((word) => ["up", "向上", "往上", "upward", "upwards"].includes(word)))
    return withCount({ kind: "scroll", direction: "up" })
  const toIndex = indexOfWord(after, ["to", "到"])
  if (toIndex >= 0 && toIndex < after.length - 1)
    return { command: { kind: "scroll", target: parseTargetPhrase(after.slice(toIndex + 1)) } }
  return withCount({ kind: "scroll", direction: "down" })
}

/** The page limit of "every page": the most the pagination tool visits. */
const ALL_PAGES = 200

const parseExtract = (before: ReadonlyArray<Token>, after: ReadonlyArray<Token>): ClauseResult => {
  let tokens = [...before.filter((token) => !isWord(token, "从", "在")), ...after]
  let pages = 1
  let allPages = false
  // "on the first 3 pages", "from 2 pages", "前3页", "all pages", "every page", "所有页"
  const pageIndex = tokens.findIndex((token) => isWord(token, "pages", "page", "页"))
  if (pageIndex > 0) {
    allPages = tokens
      .slice(Math.max(0, pageIndex - 2), pageIndex)
      .some((token) => isWord(token, "all", "every", "each", "所有", "全部", "每"))
    const number = tokens
      .slice(Math.max(0, pageIndex - 2), pageIndex)
      .find(
        (token) =>
          token.kind === "number" ||
          ENGLISH_NUMBERS.has(token.value) ||
          chineseNumber(token.value) !== undefined,
      )
    if (number !== undefined)
      pages = Number(
        number.kind === "number"
          ? number.value
          : (ENGLISH_NUMBERS.get(number.value) ?? chineseNumber(number.value)),
      )
    let start = pageIndex
    while (
      start > 0 &&
      (tokens[start - 1]!.kind === "number" ||
        isWord(tokens[start - 1], "on", "from", "across", "the", "first", "前", "all", "of", "in", "for") ||
        ENGLISH_NUMBERS.has(tokens[start - 1]!.value) ||
        chineseNumber(tokens[start - 1]!.value) !== undefined)
    )
      start -= 1
    tokens = [...tokens.slice(0, start), ...tokens.slice(pageIndex + 1)]
  }
  tokens = tokens.filter((token) => token.kind !== "punct" || [",", "，", "、"].includes(token.value))
  const ofIndex = indexOfWord(tokens, ["of", "from", "for", "的"])
  const fieldTokens =
    ofIndex >= 0
      ? isWord(tokens[ofIndex], "的")
        ? tokens.slice(ofIndex + 1)
        : tokens.slice(0, ofIndex)
      : tokens
  const itemTokens =
    ofIndex >= 0 ? (isWord(tokens[ofIndex], "的") ? tokens.slice(0, ofIndex) : tokens.slice(ofIndex + 1)) : []
  const clean = (list: ReadonlyArray<Token>) =>
    list.filter((token) => !isWord(token, "all", "each", "every", "the", "所有", "全部", "每个", "上"))
  const fields = splitList(clean(fieldTokens))
  const items = valueText(clean(itemTokens))
  if (fields.length === 0)
    return { reason: "'extract' needs what to extract, e.g. extract the names and prices of the products" }
  return {
    command: {
      kind: "extract",
      fields,
      ...(items === "" ? {} : { items }),
      pages: allPages ? ALL_PAGES : pages,
      ...(allPages ? { allPages } : {}),
    },
  }
}

const looksLikeAddress = (tokens: ReadonlyArray<Token>): string | undefined => {
  const url = tokens.find((token) => token.kind === "url")
  return url?.raw
}

const targetCommand = (
  kind: "click" | "open" | "check" | "uncheck" | "expand" | "collapse" | "hover" | "close",
  tokens: ReadonlyArray<Token>,
  verbRaw: string,
): ClauseResult => {
  const target = parseTargetPhrase(tokens)
  if (target.raw === "" && target.role === undefined && target.ordinal === undefined) {
    if (kind === "close") return { command: { kind, target: { raw: "dialog", role: "dialog" } } }
    return { reason: `'${verbRaw}' needs what to ${verbRaw}, e.g. ${verbRaw} "Save"` }
  }
  return { command: { kind, target } }
}

const parseClause = (
  clause: ReadonlyArray<Token>,
  previousVerb: readonly [Verb, string] | undefined,
): ClauseResult & { verb?: readonly [Verb, string] } => {
  const tokens = stripFillers(clause)
  if (tokens.length === 0) return { reason: "an empty clause" }
  // The verb may follow a Chinese prefix ("在搜索框中输入", "用 X 和 Y 登录").
  let verbAt = -1
  let verb: readonly [Verb, number] | undefined
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!
    if (index > 0 && token.kind !== "keyword") continue
    verb = matchVerb(tokens, index)
    if (verb !== undefined) {
      verbAt = index
      break
    }
  }
  let before: ReadonlyArray<Token> = []
  let after: ReadonlyArray<Token>
  let verbName: Verb
  let verbRaw: string
  if (verb === undefined || verbAt < 0) {
    // "… then button TWO": repeat the verb before.
    const bareUrl = looksLikeAddress(tokens)
    if (bareUrl !== undefined && tokens.length === 1) return { command: { kind: "navigate", url: bareUrl } }
    if (previousVerb === undefined)
      return {
        reason: `no action word in "${joinTokens(tokens)}": start with one such as click, type, search, select, go to, 点击, 输入, 搜索`,
      }
    verbName = previousVerb[0]
    verbRaw = previousVerb[1]
    after = tokens
  } else {
    verbName = verb[0]
    verbRaw = joinTokens(tokens.slice(verbAt, verbAt + verb[1]))
    before = tokens.slice(0, verbAt)
    after = tokens.slice(verbAt + verb[1])
    // A Chinese verb after a prefix that is itself a verb ("用 … 登录") is fine; an English clause starts with its verb.
  }
  const withVerb = (result: ClauseResult) => ({ ...result, verb: [verbName, verbRaw] as const })
  switch (verbName) {
    case "navigate":
    case "open": {
      const url = looksLikeAddress(after)
      if (url !== undefined) return withVerb({ command: { kind: "navigate", url } })
      if (
        isWord(after[0], "下一页") ||
        (isWord(after[after.length - 1], "page") && isWord(after[after.length - 2], "next"))
      )
        return withVerb({ command: { kind: "nextPage" } })
      if (
        isWord(after[0], "上一页") ||
        (isWord(after[after.length - 1], "page") && isWord(after[after.length - 2], "previous", "prev"))
      )
        return withVerb({ command: { kind: "previousPage" } })
      return withVerb(targetCommand("open", after, verbRaw))
    }
    case "login":
      return withVerb(parseLogin(before, after))
    case "search":
      return withVerb(parseSearch(before, after))
    case "type":
      return withVerb(parseType(before, after, verbRaw))
    case "set":
      return withVerb(parseSet(before, after))
    case "click": {
      const keyTokens = after.filter((token) => !isWord(token, "the", "key", "键"))
      const key = keyTokens.length === 1 ? KEYS.get(keyTokens[0]!.value) : undefined
      if (
        key !== undefined &&
        (verbRaw.toLowerCase() === "press" || verbRaw.toLowerCase() === "hit" || verbRaw.startsWith("按"))
      )
        return withVerb({ command: { kind: "press", key } })
      const said = after
        .filter((token) => !isWord(token, "the", "a", "button", "link", "按钮", "链接"))
        .map((token) => token.value)
        .join(" ")
      if (["下一页", "next page", "next"].includes(said)) return withVerb({ command: { kind: "nextPage" } })
      if (["上一页", "previous page", "prev page", "previous"].includes(said))
        return withVerb({ command: { kind: "previousPage" } })
      if (before.length > 0) {
        const container = parseTargetPhrase(
          before.filter((token) => !isWord(token, "在", "于", "中", "里", "内", "的")),
        )
        const target = parseTargetPhrase(after)
        return withVerb({ command: { kind: "click", target: { ...target, container } } })
      }
      return withVerb(targetCommand("click", after, verbRaw))
    }
    case "select":
      return withVerb(parseSelect(before, after))
    case "check":
    case "uncheck":
    case "expand":
    case "collapse":
    case "hover":
    case "close":
      return withVerb(targetCommand(verbName, after, verbRaw))
    case "switch": {
      const target = parseTargetPhrase(after)
      return withVerb({
        command: { kind: "click", target: target.role === undefined ? { ...target, role: "tab" } : target },
      })
    }
    case "submit": {
      const form = stripFillers(after)
      if (form.length === 0 || form.every((token) => isWord(token, "the", "form", "表单", "it")))
        return withVerb({ command: { kind: "submit" } })
      return withVerb({ command: { kind: "submit", form: parseTargetPhrase(form) } })
    }
    case "press":
      return withVerb({ command: { kind: "press", key: valueText(after) } })
    case "scroll":
      return withVerb(parseScroll([...before, ...after]))
    case "back":
      return withVerb({ command: { kind: "back" } })
    case "nextPage":
      return withVerb({ command: { kind: "nextPage" } })
    case "previousPage":
      return withVerb({ command: { kind: "previousPage" } })
    case "extract":
      return withVerb(parseExtract(before, after))
  }
}

/**
 * Reads a command typed in English or Chinese into one `Command` per clause.
 *
 * @example
 * ```ts
 * import { parseCommands } from "@sextant/planner"
 * parseCommands('log in as alice@example.com with password wonderland, then search for lantern')
 * // { ok: true, commands: [{ kind: "login", username: "alice@example.com", password: "wonderland" },
 * //                        { kind: "search", query: "lantern" }] }
 * parseCommands("在搜索框中输入台灯，然后点击第一个结果")
 * // { ok: true, commands: [{ kind: "type", value: "台灯", field: … }, { kind: "click", target: { role: "result", ordinal: 1, … } }] }
 * ```
 */
export const parseCommands = (text: string): ParseResult => {
  const tokens = tokenize(text)
  if (tokens.length === 0) return fail("the command is empty: say what to do, e.g. click Sign In")
  const commands: Array<Command> = []
  let previousVerb: readonly [Verb, string] | undefined
  for (const clause of splitClauses(tokens)) {
    const result = parseClause(clause, previousVerb)
    if ("reason" in result) return fail(result.reason)
    commands.push(result.command)
    if (result.verb !== undefined) previousVerb = result.verb
  }
  if (commands.length === 0) return fail(`nothing to do in "${text}"`)
  return { ok: true, commands }
}
