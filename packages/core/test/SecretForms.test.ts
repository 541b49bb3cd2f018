import { describe, expect, it } from "vitest"
import { secretForms, secretIndexIn } from "../src/index.ts"

describe("secretIndexIn", () => {
  const values = ["open sesame+42", "4242"]

  it("finds a secret in every spelling of secretForms, in any letter case", () => {
    for (const form of secretForms(values[0] as string)) {
      expect(secretIndexIn(`x=${form}&y=1`, values)).toBe(0)
      expect(secretIndexIn(`x=${form.toUpperCase()}`, values)).toBe(0)
    }
    expect(secretIndexIn('{"p":"open sesame+42"}', values)).toBe(0)
    expect(secretIndexIn("b=b3BlbiBzZXNhbWUrNDI", values)).toBe(0)
  })

  it("finds a secret encoded twice, and one spaced out or upper-cased by a script", () => {
    expect(secretIndexIn(`q=${encodeURIComponent(encodeURIComponent("open sesame+42"))}`, values)).toBe(0)
    expect(secretIndexIn("O P E N - S E S A M E 4 2", values)).toBe(0)
  })

  it("counts a short secret only where it stands alone", () => {
    expect(secretIndexIn("pin=4242&x=1", values)).toBe(1)
    expect(secretIndexIn("total=142420", values)).toBeUndefined()
    expect(secretIndexIn("nothing here", values)).toBeUndefined()
    expect(secretIndexIn("", values)).toBeUndefined()
  })
})
