import { DriverError, ElementNotFound } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { errorCode, errorCodeReasons, reasonForCode, toDriverError } from "../src/DriverErrors.ts"

const responseError = (code: string, message = "driver detail\n  (Session info: chrome=156)") =>
  Object.assign(new Error(message), { name: code })

describe("reasonForCode", () => {
  const table: ReadonlyArray<readonly [string, string, boolean]> = [
    ["no such element", "ElementNotFound", true],
    ["stale element reference", "ElementNotFound", true],
    ["element click intercepted", "NotInteractable", true],
    ["element not interactable", "NotInteractable", true],
    ["timeout", "Timeout", true],
    ["script timeout", "Timeout", true],
    ["javascript error", "ScriptError", false],
    ["invalid session id", "SessionClosed", false],
    ["no such window", "SessionClosed", false],
    ["unexpected alert open", "DialogOpen", true],
    ["invalid argument", "InvalidArgument", false],
    ["invalid selector", "InvalidArgument", false],
    ["session not created", "DriverCrashed", true],
  ]
  it.each(table)("maps the W3C code %s to %s", (code, tag, retryable) => {
    const reason = reasonForCode(code, "detail", { target: "#login", timeoutMs: 500 })
    expect(reason._tag).toBe(tag)
    expect(reason.isRetryable).toBe(retryable)
  })

  it("keeps an unknown code in DriverUnknown", () => {
    const reason = reasonForCode("weird new code", "what the driver said")
    expect(reason).toMatchObject({
      _tag: "DriverUnknown",
      code: "weird new code",
      detail: "what the driver said",
    })
  })

  it("turns a stale element on a ref into StaleRef with the refresh advice", () => {
    const reason = reasonForCode("stale element reference", "", { target: "e5" })
    expect(reason._tag).toBe("StaleRef")
    expect(reason.message).toBe("ref e5 is stale: call look() to refresh")
  })

  it("covers every code it lists with a reason that names the target", () => {
    for (const code of Object.keys(errorCodeReasons)) {
      expect(reasonForCode(code, "d", { target: "#x" }).message.length).toBeGreaterThan(0)
    }
  })
})

describe("errorCode", () => {
  it("reads the code from a Classic response error's name, not its message", () => {
    expect(errorCode(responseError("no such element", "element click intercepted somewhere"))).toEqual({
      code: "no such element",
      detail: "element click intercepted somewhere",
    })
  })

  it("reads the code from a BiDi failure frame", () => {
    const error = new Error(
      'WebDriver Bidi command "script.callFunction" failed with error: no such frame - gone',
    )
    expect(errorCode(error)).toEqual({ code: "no such frame", detail: "gone" })
  })

  it("reads the error field of a raw protocol response", () => {
    expect(errorCode({ error: "invalid selector", message: "bad" })).toEqual({
      code: "invalid selector",
      detail: "bad",
    })
  })

  it("ignores a message that merely mentions a code", () => {
    expect(errorCode(new Error("no such element: #login"))).toBeUndefined()
  })

  it("treats a refused connection as a lost driver", () => {
    const error = Object.assign(new Error("fetch failed"), { code: "ECONNREFUSED" })
    expect(errorCode(error)?.code).toBe("connection lost")
  })
})

describe("toDriverError", () => {
  it("wraps a response error with the method, reason and cause", () => {
    const cause = responseError("no such element")
    const error = toDriverError("act", { target: "#login" })(cause)
    expect(error).toBeInstanceOf(DriverError)
    expect(error.method).toBe("act")
    expect(error.reason).toBeInstanceOf(ElementNotFound)
    expect(error.cause).toBe(cause)
    expect(error.message).toBe(
      "BrowserDriver.act: no element matches #login: check the selector or call look() to see the page",
    )
  })

  it("passes a DriverError through unchanged", () => {
    const original = new DriverError({ method: "look", reason: new ElementNotFound({ target: "x" }) })
    expect(toDriverError("act")(original)).toBe(original)
  })

  it("reports a crashed driver when the connection is gone", () => {
    const error = toDriverError("look")(Object.assign(new Error("fetch failed"), { code: "ECONNRESET" }))
    expect(error.reason._tag).toBe("DriverCrashed")
    expect(error.isRetryable).toBe(true)
  })
})
