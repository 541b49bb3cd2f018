import { execFile } from "node:child_process"
import { readFile, utimes, writeFile } from "node:fs/promises"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import {
  bundleCommand,
  bundlePageScripts,
  currentFile,
  generatedFile,
  generatedPath,
} from "../../scripts/bundle-page.ts"
import { pageRuntimeSource } from "../../src/internal/PageRuntime.generated.ts"

describe("the page script bundle", () => {
  it("is a fresh bundle of src/page when tests run (vitest's global setup generates it)", async () => {
    const fresh = generatedFile(await bundlePageScripts())
    expect(
      (await currentFile()) === fresh,
      `src/internal/PageRuntime.generated.ts differs from a fresh bundle of src/page/: the global setup did not run; run \`${bundleCommand}\``,
    ).toBe(true)
  })

  it("is not tracked by git", async () => {
    const { stdout } = await promisify(execFile)("git", ["ls-files", "--", generatedPath])
    expect(stdout.trim()).toBe("")
  })

  it("is rewritten by the bundle command when it is stale, even when newer than its sources", async () => {
    const fresh = await readFile(generatedPath, "utf8")
    const stale = fresh.replace("(function(version){", "(function(version){/* stale */")
    try {
      await writeFile(generatedPath, stale)
      const future = new Date(Date.now() + 3_600_000)
      await utimes(generatedPath, future, future)
      await promisify(execFile)(process.execPath, [
        new URL("../../scripts/bundle-page.ts", import.meta.url).pathname,
      ])
      expect(await readFile(generatedPath, "utf8")).toBe(fresh)
    } finally {
      await writeFile(generatedPath, fresh)
    }
  })

  it("is one function of the runtime version with no module syntax", () => {
    expect(pageRuntimeSource.startsWith("(function(version){")).toBe(true)
    expect(pageRuntimeSource).not.toMatch(/(^|[;}])\s*(import|export)[\s{*]/)
    expect(typeof new Function(`return ${pageRuntimeSource}`)()).toBe("function")
  })

  it("installs __sextant once per version, keeping a newer runtime in place", () => {
    const host = globalThis as { __sextant?: { version: number; look?: unknown } }
    const install = new Function(`return ${pageRuntimeSource}`)() as (version: number) => void
    try {
      host.__sextant = { version: 5 }
      install(3)
      expect(host.__sextant).toEqual({ version: 5 })
      install(7)
      expect(host.__sextant.version).toBe(7)
      expect(typeof host.__sextant.look).toBe("function")
    } finally {
      delete host.__sextant
    }
  })

  it("keeps the actor a driver installed before it (the actor holds the document's watch)", () => {
    const host = globalThis as { __sextant?: { version?: number; look?: unknown; actor?: unknown } }
    const install = new Function(`return ${pageRuntimeSource}`)() as (version: number) => void
    const actor = { prepare: () => "{}" }
    try {
      host.__sextant = { actor }
      install(1)
      expect(host.__sextant.version).toBe(1)
      expect(typeof host.__sextant.look).toBe("function")
      expect(host.__sextant.actor).toBe(actor)
    } finally {
      delete host.__sextant
    }
  })
})
