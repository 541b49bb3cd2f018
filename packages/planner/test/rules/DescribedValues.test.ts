import { describe, expect, it } from "vitest"
import { parseCommands } from "../../src/rules/Grammar.ts"

const refused = (text: string): string => {
  const result = parseCommands(text)
  if (result.ok) throw new Error(`expected a refusal of ${text}, got ${JSON.stringify(result.commands)}`)
  return result.reason
}
const typed = (text: string): ReadonlyArray<readonly [string, string]> => {
  const result = parseCommands(text)
  if (!result.ok) throw new Error(`expected ${text} to parse, got: ${result.reason}`)
  return result.commands.flatMap((command) =>
    command.kind === "type" ? [[(command.field?.text ?? "").toLowerCase(), command.value] as const] : [],
  )
}

describe("a value described by its kind is a reference, never typed", () => {
  it("refuses an English possessive ending in a kind noun, naming the reference", () => {
    expect(refused("Enter Tom Baker's phone number in the Phone field")).toContain(
      'needs a model to work out "Tom Baker\'s phone number"',
    )
    expect(refused("Put Priya Nair's postcode into the ZIP field")).toContain(
      'needs a model to work out "Priya Nair\'s postcode"',
    )
    expect(refused("Type the customer's ID into Reference")).toContain("needs a model to work out")
    expect(refused("Fill the Order field with John's order number")).toContain("needs a model to work out")
  })

  it("refuses a 的-phrase ending in a kind noun, in Chinese", () => {
    expect(refused("把王伟的地址填到 Address 里")).toContain("需要模型来算出“王伟的地址”")
    expect(refused("请把 Lucas Meyer 的手机号填到 Phone 里")).toContain(
      "需要模型来算出“Lucas Meyer 的手机号”",
    )
    expect(refused("把那张发票的金额填到 Amount 里")).toContain("需要模型来算出")
  })

  it("refuses 'the <kind> of X'", () => {
    expect(refused("Type the email address of Jonas Berg into the To field")).toContain(
      "needs a model to work out",
    )
  })

  it("still types plain literals: names, e-mails, numbers, places and quoted values with 's", () => {
    expect(typed("Type Sam Rivera into Name")).toEqual([["name", "Sam Rivera"]])
    expect(typed("Type O'Brien into Last name")).toEqual([["last name", "O'Brien"]])
    expect(typed("Type jo.park@example.org into the To field")).toEqual([["to", "jo.park@example.org"]])
    expect(typed("Type 4242 into Amount")).toEqual([["amount", "4242"]])
    expect(typed("Fill in City with Berlin")).toEqual([["city", "Berlin"]])
    expect(typed(`Type "Tom Baker's phone number" into Notes`)).toEqual([
      ["notes", "Tom Baker's phone number"],
    ])
    expect(typed(`把“王伟的地址”填到 Notes 里`).map(([, value]) => value)).toEqual(["王伟的地址"])
  })
})

describe("a full stop ends a clause", () => {
  it("reads 'A: X. B: Y' as two pairs", () => {
    expect(typed("Name: Sam Rivera. City: Berlin")).toEqual([
      ["name", "Sam Rivera"],
      ["city", "Berlin"],
    ])
  })

  it("reads 'A: X. The B is Y' as two values, never one running on", () => {
    expect(typed("Team: Blue Heron. The billing email is pay@blueheron.io")).toEqual([
      ["team", "Blue Heron"],
      ["billing email", "pay@blueheron.io"],
    ])
  })
})
