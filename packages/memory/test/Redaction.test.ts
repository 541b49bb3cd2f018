import { describe, expect, it } from "vitest"
import { redactSecrets, secretPlaceholder, toRedact } from "../src/index.ts"

describe("redactSecrets", () => {
  it("hides a secret as typed, URL-encoded and JSON-escaped, the longer secret first", () => {
    const redact = redactSecrets({ password: 'p@ss "word"', pin: "p@ss", empty: "" })
    expect(redact('typed p@ss "word" then p@ss')).toBe("typed <secret:password> then <secret:pin>")
    expect(redact("password=p%40ss%20%22word%22")).toBe("password=<secret:password>")
    expect(redact('{"value":"p@ss \\"word\\""}')).toBe('{"value":"<secret:password>"}')
    expect(redact("nothing secret here")).toBe("nothing secret here")
  })

  it("takes a redaction function or the secrets by name, and names the placeholder the same way", () => {
    expect(toRedact((text) => text.toUpperCase())("abc")).toBe("ABC")
    expect(toRedact({ token: "t0k3n" })("Bearer t0k3n")).toBe(`Bearer ${secretPlaceholder("token")}`)
    expect(toRedact(undefined)("t0k3n")).toBe("t0k3n")
  })

  it("hides echoes of a secret in another case, spaced out or with separators between its characters", () => {
    const redact = redactSecrets({ password: "open sesame+42" })
    expect(redact("You typed: OPEN SESAME+42.")).toBe("You typed: <secret:password>.")
    expect(redact("Spelled out: o p e n s e s a m e")).toBe("Spelled out: <secret:password>")
    expect(redact("O-P-E-N-S-E-S-A-M-E-4-2 end")).toBe("<secret:password> end")
    // Ten of its twelve letters and digits in a row are an echo too; other words in between are not.
    expect(redact("open sesame, said Ali")).toBe("<secret:password>, said Ali")
    expect(redact("open the sesame store")).toBe("open the sesame store")
  })

  it("matches a short secret's echo only whole, and leaves secrets under six letters and digits to exact spellings", () => {
    expect(redactSecrets({ password: "hunter 2" })("HUNTER 2 and hunter")).toBe(
      "<secret:password> and hunter",
    )
    expect(redactSecrets({ pin: "4242" })("PIN 4 2 4 2, code 4242")).toBe("PIN 4 2 4 2, code <secret:pin>")
  })
})
