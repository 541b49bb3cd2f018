import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runMain } from "./support/Main.ts"

// The usage errors of the explorer's commands; the whole explore → test → heal → export chain is in
// ExplorerCommands.slow.test.ts (the slow set).
const directory = mkdtempSync(join(tmpdir(), "sextant-explorer-cli-"))
afterAll(() => {
  rmSync(directory, { recursive: true, force: true })
})

describe("sextant explore, test, heal and export", () => {
  it("answers a bad argument with the field and what to do, exit code 2", async () => {
    const badUrl = await runMain(["explore", "not-a-url"])
    expect(badUrl.stderr).toContain("sextant explore: <url>: must be an http or https URL")
    expect(badUrl.code).toBe(2)
    const badTarget = await runMain(["export", "x.yaml", "--to", "cypress"])
    expect(badTarget.stderr).toContain("sextant export: --to: write wdio (a standalone WebdriverIO test)")
    expect(badTarget.code).toBe(2)
    const missing = await runMain(["test", join(directory, "missing.yaml")])
    expect(missing.stderr).toContain(`cannot read the spec ${join(directory, "missing.yaml")}`)
    expect(missing.code).toBe(1)
  })

  it("writes --timeout into the exported WebdriverIO test's waits, and refuses a timeout that is not milliseconds or not for --to wdio", async () => {
    const spec = join(directory, "contact.yaml")
    writeFileSync(
      spec,
      [
        "name: contact",
        "baseUrl: http://127.0.0.1:4000",
        "tests:",
        "  - name: the contact page shows its heading",
        "    startUrl: /forms/contact",
        "    steps:",
        "      - type: Assert",
        "        assertion: { type: TextPresent, text: Contact }",
        "",
      ].join("\n"),
    )
    const short = await runMain(["export", spec, "--to", "wdio", "--timeout", "1500"])
    expect(short.code).toBe(0)
    expect(short.stdout).toContain("const timeout = 1500\n")
    const plain = await runMain(["export", spec, "--to", "wdio"])
    expect(plain.stdout).toContain("const timeout = 5000\n")
    const words = await runMain(["export", spec, "--to", "wdio", "--timeout", "soon"])
    expect(words.stderr).toContain("sextant export: --timeout: give the milliseconds a wait or a check")
    expect(words.code).toBe(2)
    const tiny = await runMain(["export", spec, "--to", "wdio", "--timeout", "5"])
    expect(tiny.stderr).toContain("sextant export: --timeout: give at least 100 ms")
    const notWdio = await runMain(["export", spec, "--to", "spec", "--timeout", "2000"])
    expect(notWdio.stderr).toContain("sextant export: --timeout: only a WebdriverIO test (--to wdio) waits")
    expect(notWdio.code).toBe(2)
  })
})
