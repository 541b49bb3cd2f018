import { mkdtempSync, rmSync } from "node:fs"
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
})
