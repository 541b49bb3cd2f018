import { describe, expect, it } from "@effect/vitest"
import { preparedError } from "../src/internal/Prepared.ts"

describe("preparedError", () => {
  it("calls a stale ref StaleRef, and a selector that no longer matches ElementNotFound", () => {
    expect(preparedError("act", { ref: "e5" }, { error: "stale" }).reason._tag).toBe("StaleRef")
    expect(preparedError("act", { selector: "#go" }, { error: "stale" }).reason._tag).toBe("ElementNotFound")
  })

  it("says why an element found cannot take the input", () => {
    const hidden = preparedError("act", { ref: "e2" }, { error: "hidden" })
    expect(hidden.reason._tag).toBe("NotInteractable")
    expect(hidden.message).toContain("it is hidden")
    const covered = preparedError("act", { ref: "e2" }, { error: "covered", detail: "covered by div.modal" })
    expect(covered.message).toContain("covered by div.modal")
  })

  it("calls an element that takes no text NotEditable (not retried), with the message users saw before", () => {
    const error = preparedError(
      "act",
      { ref: "e4" },
      { error: "noteditable", detail: 'span role=slider "Volume" does not take text' },
    )
    expect(error.reason._tag).toBe("NotEditable")
    expect(error.isRetryable).toBe(false)
    expect(error.message).toBe(
      'BrowserDriver.act: invalid argument: span role=slider "Volume" does not take text',
    )
  })

  it("names the refused origin and the allowed ones", () => {
    const error = preparedError("act", { ref: "e1" }, { error: "origin", detail: "http://evil.test" }, [
      "http://shop.test",
    ])
    expect(error.reason).toMatchObject({
      _tag: "OriginRefused",
      origin: "http://evil.test",
      allowed: ["http://shop.test"],
    })
  })

  it("reports a CSS selector the page could not parse as InvalidArgument for the method asked", () => {
    const error = preparedError("waitFor", { selector: "a[" }, { error: "selector", detail: "bad" })
    expect(error.method).toBe("waitFor")
    expect(error.reason._tag).toBe("InvalidArgument")
    expect(error.message).toContain("is not a valid CSS selector (bad)")
  })
})
