import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * Quantity slots end to end: the rule step policy through `runAgent`, in headless Chromium, on the
 * fixture site's flight and product lists (two seeds: the markup varies, the order does not). The page's
 * own oracle says which item was chosen; Sextant's status must agree with it, and an item the list does
 * not name alone (a tie) is never guessed.
 */

const { runOnGallery } = useGallery([0, 3])

describe("rule agent: an item of a list by its position or a superlative", () => {
  for (const [goal, flight] of [
    ["reserve the priciest flight", "TP 541"],
    ["Pick the second to last one", "U2 4627"],
    ["choose the first flight of the day", "LX 1023"],
    ["预订价格最低的那班", "FR 3318"],
  ] as const) {
    for (const seed of [0, 3]) {
      it(`chooses exactly the flight named (seed ${seed}): ${goal}`, async () => {
        const { status, verdict } = await runOnGallery(goal, "flights", { flight }, { seed })
        expect(verdict.unmet).toEqual([])
        expect(status).toBe("COMPLETED")
      }, 60_000)
    }
  }

  for (const [goal, cart] of [
    ["put the most recent item into my shopping basket", "Wool throw"],
    ["将倒数第三个商品加入购物车", "Glass vase"],
  ] as const) {
    it(`puts exactly the product named in the cart, once: ${goal}`, async () => {
      const { status, verdict } = await runOnGallery(goal, "products", { cart, cartCount: 1 })
      expect(verdict.unmet).toEqual([])
      expect(status).toBe("COMPLETED")
    }, 60_000)
  }

  it("is FAILED, with no flight chosen, when the superlative names no one item (three flights tie for the shortest)", async () => {
    const { status, verdict, result } = await runOnGallery("book the fastest flight", "flights", {
      flight: null,
    })
    expect(verdict.unmet).toEqual([])
    expect(status).toBe("FAILED")
    expect(result.observations.filter((observation) => observation.tool === "click")).toEqual([])
    expect(result.summary.summary).toContain("0 of 1 parts")
  }, 60_000)
})
