import { describe, expect, it } from "vitest"
import { causeMessage } from "../src/index.ts"

describe("causeMessage", () => {
  it("reads an Error's message and a string as they are", () => {
    expect(causeMessage(new TypeError("socket hang up"))).toBe("socket hang up")
    expect(causeMessage("the page closed")).toBe("the page closed")
  })

  it("reads a plain object's own message, then the object as JSON, never [object Object]", () => {
    expect(causeMessage({ _tag: "DriverError", message: "no such element" })).toBe("no such element")
    expect(causeMessage({ code: "E_BUSY", retry: false })).toBe('{"code":"E_BUSY","retry":false}')
    expect(causeMessage({ _tag: "Interrupted" })).toBe('{"_tag":"Interrupted"}')
  })

  it("cuts a long object to 300 characters and names what JSON cannot write", () => {
    const long = causeMessage({ detail: "x".repeat(1000) })
    expect(long).toHaveLength(300)
    expect(long.endsWith("…")).toBe(true)
    const cyclic: { self?: unknown; _tag: string } = { _tag: "Loop" }
    cyclic.self = cyclic
    expect(causeMessage(cyclic)).toBe("Loop")
    expect(causeMessage(Object.create(null))).toBe("{}")
  })

  it("writes other values as String does", () => {
    expect(causeMessage(42)).toBe("42")
    expect(causeMessage(undefined)).toBe("undefined")
    expect(causeMessage(null)).toBe("null")
  })
})
