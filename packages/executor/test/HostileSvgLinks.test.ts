import { BrowserDriver, decodeAgentTask } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { TraceRecord } from "../src/index.ts"
import { callsThenStop, guardrails, startRig, type ToolCall } from "./support/HostileRig.ts"

/**
 * `javascript:` links inside inline SVG (`xlink:href` and SVG 2 `href`), clicked by the model step
 * policy in real headless Chromium: the in-page guard must stop them like HTML links, and each
 * refusal must be a guardrail event.
 */

const rig = startRig({ summary: { summary: "scripted" } })

const clickSvgLinks = async (calls: ReadonlyArray<ToolCall>) => {
  rig.script(callsThenStop(calls))
  const since = rig.attacker.requests.length
  const events: Array<TraceRecord> = []
  const task = Effect.runSync(
    decodeAgentTask({
      goal: "claim the prize",
      startUrl: rig.hostile("/hostile/svg-links"),
      constraints: { maxSteps: 8, stepTimeoutMs: 8_000, maxDurationMs: 60_000 },
    }),
  )
  const result = await rig.runModel(task, { screenshots: "never", onEvent: (event) => events.push(event) })
  // Give a link that did run its beacon time to reach the other origin.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const pwned = await rig.runtime.runPromise(
    BrowserDriver.use((driver) =>
      driver.evaluate("return window.__pwned === undefined ? null : window.__pwned", []),
    ),
  )
  return { result, pwned, rules: guardrails(events), paths: rig.attackerSince(since).paths }
}

describe("javascript: links in inline SVG", () => {
  it("does not run an <a xlink:href=javascript:…> when it is clicked, and records a guardrail event", async () => {
    const { pwned, rules, paths } = await clickSvgLinks([{ name: "click", args: { target: "#svg-xlink" } }])
    expect(pwned).toBeNull()
    expect(paths).toEqual([])
    expect(rules).toEqual(["link-target"])
  }, 60_000)

  it("does not run an SVG 2 <a href=javascript:…> when it is clicked, and records a guardrail event", async () => {
    const { pwned, rules, paths } = await clickSvgLinks([{ name: "click", args: { target: "#svg-href" } }])
    expect(pwned).toBeNull()
    expect(paths).toEqual([])
    expect(rules).toEqual(["link-target"])
  }, 60_000)

  it("does not run either link when a tool clicks every SVG link by attribute", async () => {
    const { pwned, rules, paths } = await clickSvgLinks([
      { name: "clickMatches", args: { selector: "svg a", attribute: "id", pattern: "^svg-", count: 2 } },
    ])
    expect(pwned).toBeNull()
    expect(paths).toEqual([])
    expect(rules).toContain("link-target")
    expect(rules.every((rule) => rule === "link-target")).toBe(true)
  }, 60_000)
})
