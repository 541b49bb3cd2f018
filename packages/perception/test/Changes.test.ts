import { describe, expect, it } from "vitest"
import { diffOutlines } from "../src/index.ts"

describe("diffOutlines", () => {
  const before = [
    "- main:",
    '  - textbox "Email" [ref=e1]',
    '  - button "Sign in" [ref=e2]',
    "  - Welcome back",
    '  - link "Help" [ref=e3] -> /help',
  ].join("\n")

  it("answers nothing for an unchanged outline", () => {
    expect(diffOutlines(before, before)).toEqual([])
  })

  it("pairs lines by ref and marks added, changed and removed ones", () => {
    const after = [
      "- main:",
      '  - textbox "Email" [ref=e1]: ada@example.com',
      '  - button "Sign in" [ref=e2]',
      "  - alert: Invalid email or password",
      "  - Welcome back",
      '  - link "Forgot password?" [ref=e4] -> /reset',
    ].join("\n")
    expect(diffOutlines(before, after)).toEqual([
      '~ textbox "Email" [ref=e1]: ada@example.com',
      "+ alert: Invalid email or password",
      '+ link "Forgot password?" [ref=e4] -> /reset',
      '- link "Help" [ref=e3] -> /help',
    ])
  })

  it("counts repeated plain lines, so a second copy of a text is an addition", () => {
    expect(diffOutlines("- Item", "- Item\n- Item")).toEqual(["+ Item"])
    expect(diffOutlines("- Item\n- Item", "- Item")).toEqual(["- Item"])
  })

  it("reads refs of the interactive view too", () => {
    expect(diffOutlines("e1 textbox Email\ne2 button Go", "e1 textbox Email: a\ne2 button Go")).toEqual([
      "~ e1 textbox Email: a",
    ])
  })
})
