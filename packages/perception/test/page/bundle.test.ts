import { describe, expect, it } from "vitest"
import { bundleCommand, bundlePageScript, committedFile, generatedFile } from "../../scripts/bundle-page.ts"
import { pageRuntimeSource } from "../../src/internal/PageRuntime.generated.ts"

describe("the page script bundle", () => {
  it("is committed as a fresh bundle of src/page", async () => {
    const fresh = generatedFile(await bundlePageScript())
    const committed = await committedFile()
    expect(
      committed === fresh,
      `src/internal/PageRuntime.generated.ts differs from a fresh bundle of src/page/: run \`${bundleCommand}\` and commit the result`,
    ).toBe(true)
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
})
