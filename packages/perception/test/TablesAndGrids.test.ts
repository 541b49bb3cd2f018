import { describe, expect, it } from "vitest"
import { useHarness } from "./support/Harness.ts"
import { clickAt, look, refOf } from "./support/Look.ts"

/*
 * How tables, grids and the widgets around them print in the full view: a data table's rows as
 * lines with header cells in bold (and what `printedAs` says each row and cell shows as), a grid's
 * rows and cells a user acts on as controls with refs, an empty tab panel, the groups of a menu,
 * listbox or tree, and an unnamed form on an element with a role of its own.
 */

const harness = useHarness({ seed: 0 })

/** Loads a minimal page written in the test, as a real document from the test page server. */
const show = async (html: string): Promise<void> => {
  await harness.browser.url(`${harness.pages.url}/inline?html=${encodeURIComponent(html)}`)
}

/** What `printedAs` says of each element carrying `data-case`, after a whole-page full look. */
const printedAs = async (): Promise<Record<string, string | null>> =>
  JSON.parse(
    await harness.browser.execute(() => {
      const host = (
        globalThis as unknown as { __sextant: { printedAs: (element: Element) => string | undefined } }
      ).__sextant
      return JSON.stringify(
        Object.fromEntries(
          [...document.querySelectorAll("[data-case]")].map((element) => [
            element.getAttribute("data-case"),
            host.printedAs(element) ?? null,
          ]),
        ),
      )
    }),
  ) as Record<string, string | null>

describe("data tables", () => {
  it("prints a row as one line, header cells in bold, and printedAs says what each row and cell shows as", async () => {
    await show(`<table><caption>Plans</caption>
<thead><tr data-case="head"><th data-case="plan">Plan</th><th data-case="price">Price</th></tr></thead>
<tbody><tr data-case="row"><th data-case="basic">Basic</th><td data-case="five">$5</td></tr>
<tr><th scope="row">Pro</th><td>$9 <a href="/pro">Buy</a></td></tr></tbody></table>
<table><tr><th>Size</th><th>Weight</th></tr><tr><td>50 mm</td><td>62 g</td></tr></table>`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toContain(
      [
        '- table "Plans":',
        "  - **Plan** | **Price**",
        "  - **Basic** | $5",
        `  - **Pro** | $9 link "Buy" [ref=${refOf(snapshot, "link", "Buy")}] -> /pro`,
      ].join("\n"),
    )
    // A <th> beside data cells with words heads its row; in a row of <th> alone, its column.
    expect(snapshot.tree).toContain("- table:\n  - **Size** | **Weight**\n  - 50 mm | 62 g")
    expect(await printedAs()).toEqual({
      head: "row",
      plan: 'columnheader "Plan"',
      price: 'columnheader "Price"',
      row: "row",
      basic: 'rowheader "Basic"',
      five: 'cell "$5"',
    })
  })

  it("prints a header cell holding a control without bold markers, so no ref sits inside them", async () => {
    await show(`<table><tr><th><input type="checkbox" aria-label="All rows"></th><th>Name <button>Sort</button></th><th>Phone</th></tr>
<tr><td><input type="checkbox" aria-label="Row one"></td><td>Ann</td><td>555</td></tr></table>`)
    const snapshot = await look(harness.browser)
    const head = snapshot.tree.split("\n").find((line) => line.includes("Sort"))
    expect(head).toBe(
      `  - checkbox "All rows" [ref=${refOf(snapshot, "checkbox", "All rows")}] | Name button "Sort" [ref=${refOf(snapshot, "button", "Sort")}] | **Phone**`,
    )
  })

  it("prints a data cell the table around it does not make with its role", async () => {
    // Rows of a rowgroup that stands in no table: a grid cell there is no table's plain cell.
    await show(`<div role="rowgroup"><div role="row"><span role="rowheader">Seat</span>
<span role="gridcell" data-case="gridcell">A1</span><span role="cell" data-case="cell">Window</span></div></div>`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toBe('- **Seat** | gridcell "A1" | Window')
    expect(await printedAs()).toEqual({ gridcell: 'gridcell "A1"', cell: 'cell "Window"' })
  })

  it("prints a cell outside a row as a row of its own", async () => {
    await show(`<div role="grid" aria-label="Board"><div role="gridcell" data-case="lone">Free cell</div>
<div role="row"><div role="gridcell">A</div><div role="gridcell">B</div></div></div>`)
    expect((await look(harness.browser)).tree).toBe('- grid "Board":\n  - Free cell\n  - A | B')
    expect((await printedAs()).lone).toBe('gridcell "Free cell"')
  })

  it("keeps a focusable row of a data table a clickable box named by its words", async () => {
    await show(`<table><tr><th>From</th><th>Subject</th></tr>
<tr tabindex="0"><td>Dev team</td><td>Deploy finished</td></tr></table>`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toMatch(/- clickable "Dev team Deploy finished" \[ref=e\d+\]/)
  })
})

describe("grids and treegrids", () => {
  it("gives a focusable grid cell a ref, prints it as a grid cell and clicks it by that ref", async () => {
    await show(`<div role="grid" aria-label="Seats">
<div role="row"><span role="columnheader">Row</span><span role="columnheader">A</span><span role="columnheader">B</span></div>
<div role="row"><span role="rowheader">1</span><span role="gridcell" tabindex="0" aria-selected="false">1A</span>
<span role="gridcell" tabindex="-1" aria-selected="false">1B</span></div></div>
<p id="picked">none</p>
<script>for (const cell of document.querySelectorAll("[role=gridcell]")) cell.addEventListener("click", () => {
  cell.setAttribute("aria-selected", "true"); document.getElementById("picked").textContent = "picked " + cell.textContent })</script>`)
    const snapshot = await look(harness.browser)
    const first = refOf(snapshot, "gridcell", "1A")
    const second = refOf(snapshot, "gridcell", "1B")
    expect(snapshot.tree).toContain(
      [
        '- grid "Seats":',
        "  - **Row** | **A** | **B**",
        `  - **1** | gridcell "1A" [ref=${first}] | gridcell "1B" [ref=${second}]`,
      ].join("\n"),
    )
    expect(snapshot.actions.find((action) => action.ref === second)?.ops).toContain("click")
    await clickAt(harness.browser, second)
    const after = await look(harness.browser)
    expect(after.tree).toContain("picked 1B")
    expect(after.tree).toContain(`gridcell "1B" [ref=${second}] [selected]`)
  })

  it("leaves the ref to the control a grid cell holds, and prints a grid's plain cells as its cells", async () => {
    await show(`<table role="grid" aria-label="May 2024"><tr><th>Mo</th><th>Tu</th></tr>
<tr><td data-case="first"><button type="button">1</button></td><td data-case="second" tabindex="-1"><button type="button">2</button></td></tr>
<tr><td data-case="plain">3</td><td>4</td></tr></table>`)
    const snapshot = await look(harness.browser)
    expect(Object.values(snapshot.elements).map((element) => `${element.role} ${element.name}`)).toEqual([
      "button 1",
      "button 2",
    ])
    expect(snapshot.tree).toContain(
      [
        '- grid "May 2024":',
        "  - **Mo** | **Tu**",
        `  - button "1" [ref=${refOf(snapshot, "button", "1")}] | button "2" [ref=${refOf(snapshot, "button", "2")}]`,
        "  - 3 | 4",
      ].join("\n"),
    )
    // A <td> of a grid is a grid cell.
    expect((await printedAs()).plain).toBe('gridcell "3"')
  })

  it("gives a treegrid's row that opens and closes a ref with its state, and a click on it opens it", async () => {
    await show(`<table role="treegrid" aria-label="Files"><tbody>
<tr role="row" aria-expanded="false" aria-level="1"><td role="gridcell">src</td><td role="gridcell">folder</td></tr>
<tr role="row" aria-level="2" hidden><td role="gridcell">index.ts</td><td role="gridcell">2 KB</td></tr>
<tr role="row" aria-level="1" data-case="plain"><td role="gridcell">README.md</td><td role="gridcell">1 KB</td></tr>
</tbody></table>
<script>const folder = document.querySelector("[aria-expanded]"); folder.addEventListener("click", () => {
  folder.setAttribute("aria-expanded", "true"); folder.nextElementSibling.hidden = false })</script>`)
    const snapshot = await look(harness.browser)
    const row = refOf(snapshot, "row", "src folder")
    expect(snapshot.tree).toContain(
      ['- treegrid "Files":', `  - row [ref=${row}] [collapsed]: src | folder`, "  - README.md | 1 KB"].join(
        "\n",
      ),
    )
    expect(snapshot.elements[row]?.expanded).toBe(false)
    expect((await printedAs()).plain).toBe("row")
    const interactive = await look(harness.browser, { mode: "interactive" })
    expect(interactive.tree).toContain(`${row} row src folder [collapsed]`)
    await clickAt(harness.browser, row)
    const after = await look(harness.browser)
    expect(after.tree).toContain(`- row [ref=${row}] [expanded]: src | folder\n  - index.ts | 2 KB`)
  })
})

describe("tab panels, widget groups and unnamed forms", () => {
  it("prints an empty tab panel as a line of its own, without a colon", async () => {
    await show(`<div role="tablist"><div role="tab" tabindex="0" aria-selected="true" aria-controls="p1">Reviews</div></div>
<div role="tabpanel" id="p1" aria-label="Reviews"></div><div role="tabpanel">Loaded words</div>`)
    const snapshot = await look(harness.browser)
    expect(snapshot.tree).toContain('- tabpanel "Reviews"\n- tabpanel: Loaded words')
  })

  it("prints the unnamed groups of a menu, a listbox and a tree, and no unnamed group elsewhere", async () => {
    await show(`<div role="menu" aria-label="View"><div role="menuitem">Zoom in</div>
<div role="group"><div role="menuitemradio" aria-checked="true">Light</div><div role="menuitemradio" aria-checked="false">Dark</div></div></div>
<div role="listbox" aria-label="Fruit"><div role="group"><div role="option">Apple</div></div></div>
<ul role="tree" aria-label="Files"><li role="treeitem" aria-expanded="true">src<ul role="group"><li role="treeitem">main.ts</li></ul></li></ul>
<div role="group"><p>Loose words</p></div>`)
    const snapshot = await look(harness.browser)
    const tree = snapshot.tree
    expect(tree).toContain(
      [
        '- menu "View":',
        `  - menuitem "Zoom in" [ref=${refOf(snapshot, "menuitem", "Zoom in")}]`,
        "  - group:",
        `    - menuitemradio "Light" [ref=${refOf(snapshot, "menuitemradio", "Light")}] [checked]`,
        `    - menuitemradio "Dark" [ref=${refOf(snapshot, "menuitemradio", "Dark")}]`,
      ].join("\n"),
    )
    expect(tree).toMatch(/- listbox "Fruit" \[ref=e\d+\][^\n]*\n {2}- group:\n {4}- option "Apple"/)
    expect(tree).toMatch(/- treeitem "src" \[ref=e\d+\] \[expanded\]\n {4}- group:\n {6}- treeitem "main.ts"/)
    expect(tree).toContain("- Loose words")
    expect(tree.match(/- group:/g)).toHaveLength(3)
  })

  it("reads an unnamed role=form on a nav as the navigation; a named one, or one on a box, stays a form", async () => {
    await show(`<nav role="form" data-case="nav"><a href="/a">Home</a></nav>
<nav role="form" aria-label="Search site"><input aria-label="Query"></nav>
<div role="form"><input aria-label="Email"></div>`)
    const tree = (await look(harness.browser)).tree
    expect(tree).toMatch(/^- nav:\n {2}- link "Home"/)
    expect(tree).toContain('- form "Search site":')
    expect(tree).toMatch(/- form:\n {2}- textbox "Email"/)
  })
})
