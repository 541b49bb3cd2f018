import { describe, expect, it } from "vitest"
import { documentTarget, linkTarget, MAX_TARGET, shortUrl } from "../../src/page/urls.ts"

const page = new URL("https://shop.example/catalog/shoes?page=2")

describe("link targets", () => {
  it("print a link to the same page as its fragment", () => {
    expect(shortUrl("https://shop.example/catalog/shoes?page=2#reviews", page)).toBe("#reviews")
  })

  it("print a link on the same origin as its path, without tracking parameters", () => {
    expect(shortUrl("/cart?utm_source=mail&id=4&fbclid=x", page)).toBe("/cart?id=4")
    expect(shortUrl("/cart?gclid=1&INTCMP=nav&ref=home&mc_cid=9&size=42", page)).toBe("/cart?size=42")
  })

  it("keep query parameters that choose what a page shows", () => {
    expect(shortUrl("/search?q=red+shoes&page=3&sort=price", page)).toBe(
      "/search?q=red+shoes&page=3&sort=price",
    )
  })

  it("print a link to another site as its host without www and the first segment of its path", () => {
    expect(shortUrl("https://www.other.example/about", page)).toBe("other.example/about")
    expect(shortUrl("https://www.other.example/", page)).toBe("other.example")
    expect(shortUrl("https://news.example/2016/nov/26/us-army-orders-eviction", page)).toBe(
      "news.example/2016/…",
    )
    expect(shortUrl("https://video.example/watch?v=abc", page)).toBe("video.example/watch?…")
    expect(shortUrl("https://jobs.example/?utm_source=nav", page)).toBe("jobs.example")
  })

  it("shorten opaque ids in paths and query values", () => {
    expect(shortUrl("/item/a1b2c3d4e5f6g7h8i9j0?s=abcdefgh12345678xyz", page)).toBe(
      "/item/a1b2c3d4…?s=abcdefgh…",
    )
  })

  it("shorten a long title slug to its first words", () => {
    expect(shortUrl("/news/2016/us-army-orders-eviction-of-dakota-protesters-camp-tribe-says", page)).toBe(
      "/news/2016/us-army-orders-eviction…",
    )
    expect(shortUrl("/guides/short-slug-kept", page)).toBe("/guides/short-slug-kept")
  })

  it("print a URL carried in the query as … and a long query value by its start", () => {
    expect(shortUrl("/share?url=https%3A%2F%2Fshop.example%2Fcatalog&via=shop", page)).toBe(
      "/share?url=…&via=shop",
    )
    expect(shortUrl("/share?text=A%20very%20long%20headline%20about%20shoes%20and%20boots", page)).toBe(
      "/share?text=A+very+long+head…",
    )
  })

  it("print percent-encoded words as the characters they stand for", () => {
    expect(shortUrl("/tags/%E3%83%8B%E3%83%A5%E3%83%BC%E3%82%B9", page)).toBe("/tags/ニュース")
  })

  it("print what a mail, phone or app link opens, without the message it would prefill", () => {
    expect(shortUrl("mailto:news@shop.example?subject=Hello%20there&body=x", page)).toBe(
      "mailto:news@shop.example?…",
    )
    expect(shortUrl("tel:+1-555-0100", page)).toBe("tel:+1-555-0100")
    expect(shortUrl("whatsapp://send?text=Standing+Rock", page)).toBe("whatsapp://send?…")
  })

  it("print nothing for a javascript: link and at most MAX_TARGET characters for anything", () => {
    expect(shortUrl("javascript:void(0)", page)).toBe("")
    const long = shortUrl(`/${"segment/".repeat(20)}`, page)
    expect(long).toHaveLength(MAX_TARGET)
    expect(long.endsWith("…")).toBe(true)
  })
})

describe("the document a link leads to", () => {
  it("is the whole URL without its fragment, tracking parameters and all", () => {
    expect(documentTarget("/item/a1b2c3d4e5f6g7h8i9j0?utm_source=x#top", page)).toBe(
      "https://shop.example/item/a1b2c3d4e5f6g7h8i9j0?utm_source=x",
    )
  })

  it("is empty for a link that stays on the page: a fragment, the page itself, javascript:", () => {
    expect(documentTarget("#reviews", page)).toBe("")
    expect(documentTarget("https://shop.example/catalog/shoes?page=2", page)).toBe("")
    expect(documentTarget("javascript:void(0)", page)).toBe("")
    expect(documentTarget("mailto:news@shop.example", page)).toBe("")
  })
})

describe("a link's target and document, remembered per page address", () => {
  it("answer what shortUrl and documentTarget answer, and again after the page moves to another address", () => {
    const other = new URL("https://shop.example/cart")
    for (const base of [page, other, page])
      for (const href of ["/cart#top", "https://shop.example/catalog/shoes?page=2#reviews", "#reviews"])
        expect(linkTarget(href, base)).toEqual([shortUrl(href, base), documentTarget(href, base)])
    // The same link read from two addresses: the second answer is the second page's, not a remembered one.
    expect(linkTarget("#reviews", page)).toEqual(["#reviews", ""])
    expect(linkTarget("/cart", other)).toEqual(["/cart", ""])
    expect(linkTarget("/cart", page)).toEqual(["/cart", "https://shop.example/cart"])
  })
})
