import { describe, expect, it } from "vitest"
import { parseCommands } from "../../src/rules/Grammar.ts"
import { en } from "../../src/rules/lang/en.ts"
import type { Lexicon } from "../../src/rules/lang/Lexicon.ts"
import { zh } from "../../src/rules/lang/zh.ts"
import { tokenize } from "../../src/rules/Tokenizer.ts"

/**
 * Generated from the language data: every example of every sentence template parses to one command of
 * the template's kind (one per item of its `each` slot), with the template's fixed fields and the slots
 * the example declares (a slot named `kind` gives the kind). Adding a
 * phrasing is a data change (a sentence and its examples); this file needs no edit.
 */
const cases = (lexicon: Lexicon) =>
  lexicon.templates.flatMap((template) =>
    template.examples.map(([text, slots]) => ({
      text,
      kind: template.kind,
      fixed: template.fixed ?? {},
      slots,
    })),
  )

describe.each([
  ["en", en],
  ["zh", zh],
])("sentence templates (%s): each example reads to its slots", (_, lexicon) => {
  it.each(cases(lexicon))("$text → $kind", ({ text, kind, fixed, slots }) => {
    const parsed = parseCommands(text)
    expect(parsed.ok ? "" : parsed.reason, text).toBe("")
    if (!parsed.ok) return
    // A template with `each` reads to one command per item, each with the slots its example lists.
    const each: ReadonlyArray<Readonly<Record<string, unknown>>> = Array.isArray(slots) ? slots : [slots]
    expect(parsed.commands, text).toHaveLength(each.length)
    each.forEach((one, index) => {
      expect(parsed.commands[index]).toMatchObject({ kind, ...fixed, ...one })
    })
  })
})

describe("language data", () => {
  it.each(Object.values(zh.verbs).flat())(
    "the Chinese verb %s is one word of the tokenizer's lexicon",
    (verb) => {
      expect(tokenize(verb).map((token) => [token.kind, token.value])).toEqual([["keyword", verb]])
    },
  )

  it("answers a Chinese instruction's refusal in Chinese and an English one in English", () => {
    expect(parseCommands("今天天气很好")).toEqual({
      ok: false,
      reason: zh.messages.noAction("今天天气很好"),
      noActionIn: "今天天气很好",
    })
    expect(parseCommands("the weather is nice")).toEqual({
      ok: false,
      reason: en.messages.noAction("the weather is nice"),
      noActionIn: "the weather is nice",
    })
    expect(parseCommands("搜索")).toEqual({ ok: false, reason: zh.messages.hints.search })
    expect(parseCommands("search")).toEqual({ ok: false, reason: en.messages.hints.search })
    expect(parseCommands("展开")).toEqual({ ok: false, reason: zh.messages.needsWhat("展开") })
  })

  it("refuses a template verb whose words fit no sentence of it, naming the verb", () => {
    expect(parseCommands("expand")).toEqual({ ok: false, reason: en.messages.needsWhat("expand") })
    expect(parseCommands("focus")).toEqual({ ok: false, reason: en.messages.needsWhat("focus") })
    expect(parseCommands("取消勾选")).toEqual({ ok: false, reason: zh.messages.needsWhat("取消勾选") })
    expect(parseCommands("跳转到")).toEqual({ ok: false, reason: zh.messages.needsWhat("跳转到") })
    expect(parseCommands("点击")).toEqual({ ok: false, reason: zh.messages.needsWhat("点击") })
  })
})
