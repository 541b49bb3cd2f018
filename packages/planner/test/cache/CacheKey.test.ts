import { describe, expect, it } from "vitest"
import { actionCacheKey, normalizeInstruction, stepInstruction } from "../../src/cache/CacheKey.ts"

describe("normalizeInstruction", () => {
  it("ignores case, runs of whitespace, curly quotes and trailing punctuation", () => {
    expect(normalizeInstruction("  Click  “Sign in”. ")).toBe('click "sign in"')
    expect(normalizeInstruction('Click\n"Sign in"!')).toBe('click "sign in"')
    expect(normalizeInstruction("点击登录。")).toBe("点击登录")
  })

  it("folds full-width characters with NFKC", () => {
    expect(normalizeInstruction("Ｓｅａｒｃｈ for lantern")).toBe("search for lantern")
  })

  it("keeps words, numbers and values apart", () => {
    expect(normalizeInstruction("type alice into Email")).not.toBe(
      normalizeInstruction("type bob into Email"),
    )
    expect(normalizeInstruction("open result 2")).not.toBe(normalizeInstruction("open result 3"))
  })
})

describe("stepInstruction", () => {
  it("numbers the steps of one goal from 1", () => {
    expect(stepInstruction("Log in as Alice.", 0)).toBe("log in as alice #1")
    expect(stepInstruction("Log in as Alice.", 1)).toBe("log in as alice #2")
  })
})

describe("actionCacheKey", () => {
  it("is the same for instructions that normalise alike on the same fingerprint", () => {
    const key = actionCacheKey("Click “Sign in”.", "/login#abc")
    expect(key).toMatch(/^[0-9a-f]{32}$/)
    expect(actionCacheKey('click "sign in"', "/login#abc")).toBe(key)
  })

  it("differs for another instruction or another fingerprint", () => {
    const key = actionCacheKey("click sign in", "/login#abc")
    expect(actionCacheKey("click sign out", "/login#abc")).not.toBe(key)
    expect(actionCacheKey("click sign in", "/login#abd")).not.toBe(key)
    expect(actionCacheKey("log in #1", "/login#abc")).not.toBe(actionCacheKey("log in #2", "/login#abc"))
  })
})
