import { describe, expect, it } from "vitest"
import { type PageModules, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

const choose = (wanted: ReadonlyArray<string>, selector = "select") =>
  harness.browser.execute(
    (wanted, selector) => {
      const { pick } = (globalThis as unknown as { __page: PageModules }).__page
      const element = document.querySelector(selector)!
      const fired: string[] = []
      element.addEventListener("input", () => fired.push("input"))
      element.addEventListener("change", () => fired.push("change"))
      const choice = pick.chooseOptions(element, wanted)
      const select = element as HTMLSelectElement
      return {
        choice,
        fired,
        values: select.options ? Array.from(select.selectedOptions, (option) => option.value) : [],
      }
    },
    wanted,
    selector,
  )

describe("pick", () => {
  it("chooses an option by its value, or by its label with whitespace collapsed, and fires input then change", async () => {
    await harness.open(
      `<select><option value="de">Germany</option><option value="uk">United   Kingdom</option></select><p>text</p>`,
    )
    expect(await choose(["uk"])).toEqual({
      choice: { ok: true, selected: ["United Kingdom"] },
      fired: ["input", "change"],
      values: ["uk"],
    })
    expect(await choose([" United Kingdom "])).toMatchObject({ choice: { ok: true }, values: ["uk"] })
    expect(await choose(["Germany"])).toMatchObject({ choice: { ok: true }, values: ["de"] })
  })

  it("changes nothing and names the options when an entry matches none", async () => {
    await harness.open(
      `<select><option value="de">Germany</option><option value="fr">France</option></select>`,
    )
    expect(await choose(["Spain"])).toEqual({
      choice: { ok: false, reason: "nooption", wanted: "Spain", options: ["Germany", "France"] },
      fired: [],
      values: ["de"],
    })
  })

  it("takes several options only in a multiple select, and refuses what is not a select", async () => {
    await harness.open(
      `<select id="one"><option>A</option><option>B</option></select>
       <select id="many" multiple><option>A</option><option>B</option><option>C</option></select><p id="text">text</p>`,
    )
    expect((await choose(["A", "B"], "#one")).choice).toEqual({ ok: false, reason: "toomany", count: 2 })
    expect(await choose(["A", "C"], "#many")).toMatchObject({ choice: { ok: true }, values: ["A", "C"] })
    expect((await choose(["A"], "#text")).choice).toEqual({ ok: false, reason: "notselect" })
  })
})
