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
})
