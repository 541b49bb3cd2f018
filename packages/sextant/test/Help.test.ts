import { describe, expect, it } from "vitest"
import { runMain } from "./support/Main.ts"

/** `sextant <command> --help`, in this process. */
const help = (command: string) => runMain([command, "--help"])

describe("sextant <command> --help", () => {
  it("says a flag's default once, in words, never commander's '(default: [])' or '(default: false)'", async () => {
    for (const command of ["run", "resume", "look", "explore", "test", "enqueue", "worker"]) {
      const ran = await help(command)
      expect(ran.code, command).toBe(0)
      expect(ran.stdout, command).toContain(`Usage: sextant ${command}`)
      expect(ran.stdout, command).not.toContain("(default: [])")
      expect(ran.stdout, command).not.toContain("(default: false)")
    }
    const run = await help("run")
    expect(run.stdout).toMatch(/an origin the agent may visit \(repeatable; default:\s+the start URL's\)\n/)
    // A default that is a real value is still shown.
    expect((await help("fixtures")).stdout).toMatch(
      /--port <n>\s+the port \(0 picks a free one\) \(default: "4000"\)/,
    )
  })
})
