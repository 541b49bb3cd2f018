import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAgent, type TraceRecord } from "../src/index.ts"

let site: FixtureSite
beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
})
afterAll(async () => {
  await site.close()
})

const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]

describe("a rejected login", () => {
  it("fails at once with the page's own message, is never re-submitted and blames no quota", async () => {
    await using agent = createAgent({ store: "memory", traceDirectory: false })
    const events: Array<TraceRecord> = []
    const result = await agent.run(
      {
        goal: "log in and extract the products",
        startUrl: `${site.url}/login`,
        inputs: { username: alice.email, password: "not-the-password" },
        secretInputs: ["password"],
        constraints: { allowFormSubmission: true },
      },
      { onEvent: (event) => events.push(event) },
    )
    const steps = events.filter((event) => event.type === "step-start").map((event) => event.tool)
    expect(result.status).toBe("FAILED")
    expect(JSON.stringify(result.summary)).toContain("Invalid email or password")
    expect(JSON.stringify(result.summary)).not.toContain("quota")
    expect(steps.filter((tool) => tool === "login")).toHaveLength(1)
  })
})
