import { describe, expect, it } from "vitest"
import { redactSecrets } from "../src/index.ts"

/**
 * The redaction of prompts, traces, the store and exports (`redactSecrets`) hides a secret in the spellings a
 * URL or a page gives it besides the plain ones: encoded twice (a URL inside another URL's query, as a sign-in
 * redirect writes it), its encoding upper-cased, and as HTML numeric character references.
 */
describe("redactSecrets", () => {
  it("hides a secret inside a URL that is itself encoded in another URL's query", () => {
    const redact = redactSecrets({ password: "P@ssw0rd!" })
    expect(redact("/login?next=%2Faccount%3Fpassword%3DP%2540ssw0rd!")).toBe(
      "/login?next=%2Faccount%3Fpassword%3D<secret:password>",
    )
    const spaced = redactSecrets({ password: "correct horse" })
    expect(spaced("/login?next=%2Fa%3Fq%3Dcorrect%2Bhorse")).toBe("/login?next=%2Fa%3Fq%3D<secret:password>")
  })

  it("hides a secret whose encoding a page or a server upper-cased", () => {
    expect(redactSecrets({ password: "correct horse" })("q=CORRECT%20HORSE&x=1")).toBe(
      "q=<secret:password>&x=1",
    )
  })

  it("hides a secret written as HTML character references, decimal or hexadecimal", () => {
    const redact = redactSecrets({ password: "P@ssw0rd!" })
    expect(redact("value=P&#64;ssw0rd&#33;")).toBe("value=<secret:password>")
    expect(redact("value=P&#x40;ssw0rd&#x21;")).toBe("value=<secret:password>")
  })

  it("hides the head of a secret that a page text was cut inside, right before the cut's …", () => {
    const redact = redactSecrets({ password: "hunter2secret" })
    expect(redact("Your password is hunter2se… (+40 chars: raise maxTextLength to read them)")).toBe(
      "Your password is <secret:password>… (+40 chars: raise maxTextLength to read them)",
    )
    expect(redact("a hunter is … here")).toBe("a hunter is … here")
  })

  it("still leaves a short secret inside a number alone", () => {
    expect(redactSecrets({ pin: "42" })("pin=42, total $168.42")).toBe("pin=<secret:pin>, total $168.42")
  })
})
