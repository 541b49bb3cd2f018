import { describe, expect, it } from "vitest"
import { hideUrlCredentials } from "../src/index.ts"

describe("hideUrlCredentials", () => {
  it("hides the password of the user part and of a credential query parameter, and keeps the rest", () => {
    expect(hideUrlCredentials("postgres://sextant:hunter2@db:5432/runs")).toBe(
      "postgres://sextant:***@db:5432/runs",
    )
    expect(
      hideUrlCredentials("postgres://sextant@db/runs?sslmode=require&password=hunter2&application_name=a"),
    ).toBe("postgres://sextant@db/runs?sslmode=require&password=***&application_name=a")
    expect(hideUrlCredentials("redis://cache:6379?sslpassword=x%20y&token=t&api_key=k")).toBe(
      "redis://cache:6379?sslpassword=***&token=***&api_key=***",
    )
  })

  it("hides a password with an @ in it whole", () => {
    expect(hideUrlCredentials("postgres://u:p@ss@host/db")).toBe("postgres://u:***@host/db")
  })

  it("hides by spelling what no URL parser reads (a port out of range)", () => {
    expect(hideUrlCredentials("redis://:hunter2@cache:99999")).toBe("redis://:***@cache:99999")
    expect(hideUrlCredentials("postgres://u@db:70000/x?password=hunter2")).toBe(
      "postgres://u@db:70000/x?password=***",
    )
  })

  it("leaves a URL or a path without credentials as it is", () => {
    for (const text of [
      "postgres://sextant@db/runs",
      "redis://127.0.0.1:6379/2",
      "/var/lib/store.db",
      "postgres:///sextant",
    ])
      expect(hideUrlCredentials(text)).toBe(text)
  })
})
