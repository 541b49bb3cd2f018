import { secretIndexIn } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { redactSecrets } from "../src/index.ts"

const PASSWORD = "open sesame+42"
const fullWidth = (text: string): string =>
  [...text].map((c) => (c === " " ? "\u3000" : String.fromCharCode(c.charCodeAt(0) + 0xfee0))).join("")

/** Echoes a page may show of the password, in spellings that look the same or nearly to a reader. */
const ECHOES: ReadonlyArray<readonly [string, string]> = [
  ["full-width", fullWidth(PASSWORD)],
  ["full-width upper case", fullWidth(PASSWORD.toUpperCase())],
  ["four zero-width spaces between letters", [...PASSWORD].join("\u200b\u200b\u200b\u200b")],
  ["zero-width joiners and non-joiners", [...PASSWORD].join("\u200c\u200d")],
  ["word joiners", [...PASSWORD].join("\u2060")],
  ["byte-order marks", [...PASSWORD].join("\ufeff")],
  ["soft hyphens", [...PASSWORD].join("\u00ad\u00ad\u00ad\u00ad\u00ad")],
  ["four spaces between letters", [...PASSWORD].join("    ")],
  ["full-width with zero-width spaces", [...fullWidth(PASSWORD)].join("\u200b\u200b\u200b\u200b\u200b")],
]

describe("an echo of a secret in a spelling that reads the same", () => {
  it.each(ECHOES)("is hidden by the redactor when %s", (_, echo) => {
    const redact = redactSecrets({ password: PASSWORD })
    expect(redact(`before ${echo} after`)).toBe("before <secret:password> after")
  })

  it.each(ECHOES)("is found by secretIndexIn (the request guard) when %s", (_, echo) => {
    expect(secretIndexIn(`p=${echo}`, ["x-unrelated", PASSWORD])).toBe(1)
    expect(secretIndexIn(`p=${encodeURIComponent(echo)}`, [PASSWORD])).toBe(0)
  })

  it("keeps the text around an echo exactly, and ordinary full-width text as it is", () => {
    const redact = redactSecrets({ password: PASSWORD })
    expect(redact(`名前：${fullWidth(PASSWORD)}。ｏｋ`)).toBe("名前：<secret:password>。ｏｋ")
    expect(redact("ｏｐｅｎ　ｔｈｅ　ｄｏｏｒ\u200b")).toBe("ｏｐｅｎ　ｔｈｅ　ｄｏｏｒ\u200b")
    expect(secretIndexIn("ｏｐｅｎ　ｔｈｅ　ｄｏｏｒ", [PASSWORD])).toBeUndefined()
  })
})
