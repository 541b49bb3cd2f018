import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * Instructions whose verb is the name of a control and whose other words name the item it acts on
 * ("Share the holiday photos", "下载 2025 年的发票"), run by the rule agent in headless Chromium on the
 * gallery's `file-actions` page; the page's own oracle says whether the action happened.
 */

const { runOnGallery } = useGallery()

describe("a control's name said as the verb, the rest naming the item it acts on", () => {
  it("presses the row's own control for the item named ('Share the holiday photos'), COMPLETED once the row shows it", async () => {
    const { status, verdict } = await runOnGallery("Share the holiday photos", "file-actions", {
      "shared:Holiday photos.zip": true,
    })
    expect(verdict.unmet).toEqual([])
    expect(verdict.achieved).toBe(true)
    expect(status).toBe("COMPLETED")
  }, 60_000)

  for (const [goal, file] of [
    ["Download the tenancy agreement", "Tenancy agreement.pdf"],
    ["下载 2025 年的发票", "2025 年发票.pdf"],
  ] as const) {
    it(`ticks the item, then presses the toolbar control acting on the selection: ${goal}`, async () => {
      const { status, verdict } = await runOnGallery(goal, "file-actions", { [`downloaded:${file}`]: true })
      expect(verdict.unmet).toEqual([])
      expect(verdict.achieved).toBe(true)
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  it("is FAILED, not COMPLETED, when the row's control shows nothing ('Pin the tenancy agreement')", async () => {
    const { status, verdict } = await runOnGallery("Pin the tenancy agreement", "file-actions", {
      "pinned:Tenancy agreement.pdf": true,
    })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
  }, 60_000)
})

describe("a press the page does not show", () => {
  it("is FAILED, not COMPLETED, when the toolbar control acting on the ticked item shows nothing ('Print the tenancy agreement')", async () => {
    const { status, verdict, result } = await runOnGallery("Print the tenancy agreement", "file-actions", {
      "printed:Tenancy agreement.pdf": true,
    })
    expect(verdict.achieved).toBe(false)
    expect(status).toBe("FAILED")
    expect(JSON.stringify(result.summary)).toMatch(/Not done: click \\"Print\\".*\(no visible change\)/)
  }, 60_000)

  it("is FAILED, not COMPLETED, for a plain press of a named button that shows nothing ('Click Print')", async () => {
    const { status, result } = await runOnGallery("Click Print", "file-actions", { "printed:any": true })
    expect(status).toBe("FAILED")
    expect(JSON.stringify(result.summary)).toMatch(/Not done: click \\"Print\\".*\(no visible change\)/)
  }, 60_000)
})

describe("a table row holding more than one control", () => {
  it("reaches a control that is not the row's first ('Archive Team photo.jpg'), COMPLETED once the row shows it", async () => {
    const { status, verdict } = await runOnGallery("Click Archive Team photo.jpg", "file-table", {
      "archived:Team photo.jpg": true,
    })
    expect(verdict.unmet).toEqual([])
    expect(verdict.achieved).toBe(true)
    expect(status).toBe("COMPLETED")
  }, 60_000)
})
