import { describe, expect, it } from "vitest"
import { parseCommands } from "../../src/rules/Grammar.ts"
import { ancestryFromOutline, textScore } from "../../src/rules/Grounding.ts"
import { readIntent } from "../../src/rules/Intent.ts"
import { elementsFromOutline } from "../../src/rules/Outline.ts"
import { clockTime } from "../../src/rules/Words.ts"

/**
 * Times of day and Chinese compound field names, read as the page holds them: a time typed into a time
 * field (or chosen from a list of times) is written HH:MM whichever words said it, a number followed by
 * an hour word (点) is a time and never the verb "click", and a Chinese name whose parts the glossary
 * knows names the field of both parts, never any field of its last word.
 */

const commandsOf = (text: string) => {
  const parsed = parseCommands(text)
  if (!parsed.ok) throw new Error(`"${text}" did not parse: ${parsed.reason}`)
  return parsed.commands
}

describe("a time of day typed into a time field", () => {
  for (const [text, field, value] of [
    ["Set the meeting time to 9:30 a.m.", "meeting time", "09:30"],
    ["set the arrival time to 7 in the evening", "arrival time", "19:00"],
    ["Enter 12 am into the start time", "start time", "00:00"],
    ["把会议时间设为晚上七点", "会议时间", "19:00"],
    ["到达时间填上午九点半", "到达时间", "09:30"],
    ["把开始时间改成下午3点45分", "开始时间", "15:45"],
  ] as const) {
    it(`writes "${text}" as ${value}`, () => {
      expect(commandsOf(text)).toMatchObject([{ kind: "type", field: { text: field }, value }])
    })
  }

  it("chooses a time from a list named by a time in HH:MM ('到达时间选晚上六点' → 18:00)", () => {
    expect(commandsOf("到达时间选晚上六点")).toMatchObject([
      { kind: "select", list: { text: "到达时间" }, options: ["18:00"] },
    ])
  })

  it("leaves a value alone when the field names no time, or the value is no time", () => {
    expect(commandsOf("set the notes to 4 pm")).toMatchObject([{ kind: "type", value: "4 pm" }])
    expect(commandsOf("set the time to 14")).toMatchObject([{ kind: "type", value: "14" }])
    expect(commandsOf("set the start time to 5 items")).toMatchObject([{ kind: "type", value: "5 items" }])
  })

  it("refuses an hour that no half of the day has, rather than writing a time", () => {
    expect(clockTime("13 pm")).toBeUndefined()
    expect(clockTime("25:00")).toBeUndefined()
    expect(clockTime("下午十三点")).toBeUndefined()
    expect(clockTime("7")).toBeUndefined()
  })
})

describe("an hour word after a number", () => {
  it("is a time, not the verb click ('晚上八点到店' has no action word)", () => {
    const parsed = parseCommands("晚上八点到店")
    expect(parsed.ok).toBe(false)
    expect(parsed.ok ? undefined : parsed.noActionIn).toBe("晚上八点到店")
  })

  it("stays the verb click after a comma ('把数量改成3，点提交')", () => {
    expect(commandsOf("把数量改成3，点提交")).toMatchObject([
      { kind: "type", value: "3" },
      { kind: "click", target: { text: "提交" } },
    ])
  })
})

const RENTAL = `- main:
  - textbox "Arrival date" [ref=e2]
  - textbox "Arrival time" [ref=e3]
  - textbox "Departure date" [ref=e4]
  - button "Continue" [ref=e5]`

const read = (clause: string) => readIntent(clause, elementsFromOutline(RENTAL), ancestryFromOutline(RENTAL))

describe("a clause with no action word read on the page", () => {
  it("fills the time field with a Chinese time said beside the field's words ('晚上七点到达' → 19:00)", () => {
    expect(read("晚上七点到达")).toEqual({ command: 'type "19:00" into "Arrival time"' })
  })

  it("fills the date field with a day written in words ('Departure on 5 March 2027' → 2027-03-05)", () => {
    expect(read("Departure on 5 March 2027")).toEqual({ command: 'type "2027-03-05" into "Departure date"' })
  })
})

describe("a field's words then a preposition then a value, with no verb", () => {
  it("is no field named with the preposition ('Arrival at 7:45 pm' is read on the page, into Arrival time)", () => {
    const parsed = parseCommands("Arrival at 7:45 pm")
    expect(parsed.ok ? undefined : parsed.noActionIn).toBe("Arrival at 7:45 pm")
    expect(read("Arrival at 7:45 pm")).toEqual({ command: 'type "19:45" into "Arrival time"' })
  })
})

describe("a Chinese compound field name", () => {
  const elements = elementsFromOutline(RENTAL)
  const score = (name: string, ref: string) =>
    textScore(elements.find((element) => element.ref === ref)!, name)

  it("names the field of both its parts ('离开日期' → Departure date) and not another field of its last word", () => {
    expect(score("离开日期", "e4")).toBeGreaterThan(80)
    expect(score("离开日期", "e2")).toBeLessThan(50)
  })
})
