import { describe, expect, it } from "vitest"
import { parseCommands } from "../../src/index.ts"
import { decideStep } from "../../src/rules/RuleStepPolicy.ts"

/**
 * A message of a mail list, said by its sender, its subject or its place ("open Lena's message",
 * "find the mail about the refund", "打开李雷发来的消息"), is opened by pressing that message on the
 * page: never a search, never a guess when no message fits.
 */

const INBOX = `- h1 "Mail"
- clickable "Lena Fischer Your parcel is on its way" [ref=e1]
- clickable "Support Refund approved for order 5521" [ref=e2]
- clickable "李雷 周末爬山" [ref=e3]
- clickable "Newsletter Ten tips for spring" [ref=e4]
- region "Reading pane":
  - Select a message to read it.`

const step = (goal: string) => decideStep({ goal, url: "/mail", outline: INBOX, history: [] })

describe("opening a message of a mail list", () => {
  it.each([
    ["open Lena Fischer's message", "e1"],
    ["Open the third email", "e3"],
    ["open the last message", "e4"],
    ["find the mail about the refund", "e2"],
    ["Find the message from Support", "e2"],
    ["open the newsletter email", "e4"],
    ["打开李雷的邮件", "e3"],
    ["打开 Support 发来的消息", "e2"],
  ])("%s", (goal, ref) => {
    const parsed = parseCommands(goal)
    expect(parsed.ok && parsed.commands).toMatchObject([{ kind: "open", target: { role: "message" } }])
    expect(step(goal).toolCalls).toEqual([{ name: "click", args: { target: ref } }])
  })

  it("presses nothing when no message is from the sender said", () => {
    const decision = step("open Maria's email")
    expect(decision.toolCalls.some((call) => call.name === "click")).toBe(false)
    expect(decision.taskComplete).toBe(false)
  })

  it("keeps a search for a message a search, and an email field a field", () => {
    expect(parseCommands("search for the email about the refund")).toMatchObject({
      ok: true,
      commands: [{ kind: "search", query: "email about the refund" }],
    })
    expect(parseCommands("type hi in the email field")).toMatchObject({
      ok: true,
      commands: [{ kind: "type", value: "hi", field: { text: "email", role: "textbox" } }],
    })
  })
})
