import { describe, expect, it } from "vitest"
import { shortUrl } from "../../src/page/urls.ts"

const page = new URL("https://shop.example/catalog/shoes?page=2")

describe("link targets", () => {
  it("print a link to the same page as its fragment", () => {
    expect(shortUrl("https://shop.example/catalog/shoes?page=2#reviews", page)).toBe("#reviews")
  })

  it("print a link on the same origin as its path, without tracking parameters", () => {
    expect(shortUrl("/cart?utm_source=mail&id=4&fbclid=x", page)).toBe("/cart?id=4")
  })

  it("print a link to another site as its host without www", () => {
    expect(shortUrl("https://www.other.example/about", page)).toBe("other.example/about")
    expect(shortUrl("https://www.other.example/", page)).toBe("other.example")
  })

  it("shorten opaque ids in paths and query values", () => {
    expect(shortUrl("/item/a1b2c3d4e5f6g7h8i9j0?s=abcdefgh12345678xyz", page)).toBe(
      "/item/a1b2c3d4…?s=abcdefgh…",
    )
  })

  it("print nothing for a javascript: link and at most 80 characters for anything", () => {
    expect(shortUrl("javascript:void(0)", page)).toBe("")
    const long = shortUrl(`/${"segment/".repeat(20)}`, page)
    expect(long).toHaveLength(78)
    expect(long.endsWith("…")).toBe(true)
  })
})
