import { readRecord } from "@sextant/perception"
import { describe, expect, it } from "vitest"
import { parseDocument } from "../../src/session/internal/Dom.ts"

describe("reading fields without selectors (linkedom, as over HTTP)", () => {
  const html = `<main>
    <h1>Brass Telescope</h1><p>4.2</p><p>$132.25</p>
    <table><tr><th scope="row">Weight</th><td>4952 g</td></tr><tr><th scope="row">SKU</th><td>SX-0003</td></tr></table>
    <dl><dt>Maker</dt><dd>Sextant &amp; Sons</dd></dl>
    <p><strong>Origin:</strong> Lisbon</p>
    <a href="/products/3">View</a><img src="/img/3.png" alt="">
    <span class="product-colour">Gold</span>
  </main>`
  const root = parseDocument(html).querySelector("main")!
  const read = (...names: Array<string>) =>
    readRecord(
      root,
      names.map((name) => ({ name })),
      "http://127.0.0.1:4000/products/3",
    )

  it("infers name, price, rating, url and image from their names", () => {
    expect(read("name", "price", "rating", "url", "image")).toEqual({
      name: "Brass Telescope",
      price: "$132.25",
      rating: "4.2",
      url: "http://127.0.0.1:4000/products/3",
      image: "http://127.0.0.1:4000/img/3.png",
    })
  })

  it("finds a value by the label next to it: table header, dt, a bold label, a class", () => {
    expect(read("weightGrams", "sku", "maker", "origin", "colour", "missing")).toEqual({
      weightGrams: "4952 g",
      sku: "SX-0003",
      maker: "Sextant & Sons",
      origin: "Lisbon",
      colour: "Gold",
      missing: null,
    })
  })

  it("reads by selector, attribute and pattern, the root included", () => {
    expect(
      readRecord(
        root,
        [
          { name: "price", selector: "p", pattern: "^\\$" },
          { name: "link", selector: "a", attribute: "href" },
          { name: "all", selector: "main" },
        ],
        "http://127.0.0.1:4000/",
      ),
    ).toMatchObject({
      price: "$132.25",
      link: "http://127.0.0.1:4000/products/3",
      all: expect.stringContaining("Lisbon"),
    })
  })
})
