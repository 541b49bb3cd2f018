import { execFile } from "node:child_process"
import { readFile, utimes, writeFile } from "node:fs/promises"
import { promisify } from "node:util"
import { createContext, runInContext } from "node:vm"
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

  it("is one function of the runtime version and key with no module syntax", () => {
    expect(pageRuntimeSource.startsWith("(function(version,key){")).toBe(true)
    expect(pageRuntimeSource).not.toMatch(/(^|[;}])\s*(import|export)[\s{*]/)
    expect(typeof new Function(`return ${pageRuntimeSource}`)()).toBe("function")
  })

  it("attaches the runtime once per document: a host that holds one keeps it, with its refs", () => {
    const page = freshGlobal()
    page.run(`(${pageRuntimeSource})(3, "key")`)
    const host = page.run("globalThis.__sextant")
    expect(page.run("__sextant.version")).toBe(3)
    expect(page.run("typeof __sextant.look")).toBe("function")
    page.run(`(${pageRuntimeSource})(2, "key")`)
    expect(page.run("globalThis.__sextant")).toBe(host)
    expect(page.run("__sextant.version")).toBe(3)
    // A newer runtime cannot replace the one there: the document must be loaded again.
    expect(() => page.run(`(${pageRuntimeSource})(7, "key")`)).toThrow(
      "the page holds Sextant's page runtime version 3, older than 7, which cannot be replaced in this document: reload the page",
    )
  })

  it("defines __sextant so a later page script can neither replace nor patch it", () => {
    const page = freshGlobal()
    page.run(`(${pageRuntimeSource})(1, "key")`)
    const host = page.run("globalThis.__sextant")
    page.run(`globalThis.__sextant = { version: 1e9, look: () => "made up" }`)
    expect(() =>
      page.run(`"use strict"; Object.defineProperty(globalThis, "__sextant", { value: { version: 1e9 } })`),
    ).toThrow(/redefine/)
    page.run(`__sextant.look = () => "made up"; __sextant.version = 1e9`)
    expect(page.run("globalThis.__sextant")).toBe(host)
    expect(page.run("__sextant.version")).toBe(1)
    expect(page.run("String(__sextant.look)")).not.toContain("made up")
    // Without the key the scripts were built with, nothing attaches to the host.
    expect(page.run(`__sextant.attach("actor", { look: () => "made up" }, "a guess")`)).toBe(false)
    expect(page.run("__sextant.actor")).toBeUndefined()
  })

  it.each([
    [
      "assigned",
      `globalThis.__sextant = { version: 1e9, look: () => "made up" }`,
      "a replaceable property, not the fixed one Sextant defines",
    ],
    [
      "declared",
      `var __sextant = { version: 1e9, look: () => "made up" }`,
      "a replaceable property, not the fixed one Sextant defines",
    ],
    [
      "defined, fixed and frozen, but not a host",
      `Object.defineProperty(globalThis, "__sextant", { value: Object.freeze({ version: 1e9, actor: {}, look: () => "made up", attach: () => true }) })`,
      "not an object Sextant made",
    ],
  ])("refuses a __sextant the page %s before it, naming it foreign", (_, script, why) => {
    const page = freshGlobal()
    page.run(script)
    const before = page.run("globalThis.__sextant")
    expect(() => page.run(`(${pageRuntimeSource})(1, "key")`)).toThrow(
      `__sextant_foreign__ the page defines globalThis.__sextant itself (${why}): Sextant will not read a page through an object it did not make`,
    )
    expect(page.run("globalThis.__sextant")).toBe(before)
  })
})

/** A fresh global object to run page scripts in: what one defines for good cannot leak into another test. */
const freshGlobal = () => {
  const context = createContext({})
  return { run: (script: string): unknown => runInContext(script, context) }
}
