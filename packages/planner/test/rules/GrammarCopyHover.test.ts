import { describe, expect, it } from "vitest"
import type { Command } from "../../src/rules/Command.ts"
import { parseCommands } from "../../src/rules/Grammar.ts"

const commands = (text: string): ReadonlyArray<Command> => {
  const parsed = parseCommands(text)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.commands
}

describe("rule grammar: copy and paste, icons, waiting for an element", () => {
  it("reads copy and paste as two clauses: the copied words, then the field the text goes into", () => {
    expect(commands("Copy the invite code and paste it into the Invite code field")).toEqual([
      { kind: "copy", target: { raw: "invite code", text: "invite code" } },
      { kind: "paste", field: { raw: "Invite code field", text: "Invite code", role: "textbox" } },
    ])
    expect(commands("复制邀请码并粘贴到 Invite code 中")).toEqual([
      { kind: "copy", target: { raw: "邀请码", text: "邀请码" } },
      { kind: "paste", field: { raw: "Invite code", text: "Invite code" } },
    ])
    expect(commands("copy the order number to the clipboard")).toEqual([
      { kind: "copy", target: { raw: "order number", text: "order number" } },
    ])
    expect(commands("paste it")).toEqual([{ kind: "paste" }])
  })

  it("reads 'icon' and 图标 as a role word for images, and 悬停在 X 上 as hovering X", () => {
    expect(commands("Hover over the Help icon")).toEqual([
      { kind: "hover", target: { raw: "Help icon", text: "Help", role: "image" } },
    ])
    expect(commands("鼠标悬停在 Help 图标上")).toEqual([
      { kind: "hover", target: { raw: "Help 图标", text: "Help", role: "image" } },
    ])
  })

  it("reads 'Wait for X and click it' as one click on X", () => {
    expect(commands("Wait for Load results and click it")).toEqual([
      { kind: "click", target: { raw: "Load results", text: "Load", role: "result" } },
    ])
  })
})
