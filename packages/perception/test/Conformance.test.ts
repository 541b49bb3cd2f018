import type { PageSnapshot } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { useHarness } from "./support/Harness.ts"
import { look } from "./support/Look.ts"

/*
 * Accessible names and roles against the fixture site's `/conformance` page: cases written for this
 * project from the rules of W3C accname 1.2, html-aam and wai-aria 1.2, each element carrying
 * `data-expectedlabel` and/or `data-expectedrole`.
 *
 * How a case is read from a look:
 * - an element with a ref in `elements` is judged by its `role` and `name` there;
 * - a container (a landmark, form, group, table, dialog, iframe) or an image, which print no ref, by
 *   its outline line `- label "name"` found by the expected name, the short label mapped back to
 *   its role (`nav` → navigation);
 * - a heading (no ref) by its line `- hN "name"`;
 * - an element the view folds by design — generic wrappers, paragraphs, list items, table cells
 *   printed as a row of ` | ` — has no line of its own. It is judged on whether its text is kept:
 *   its name passes when the expected words appear in the outline, and it has no role to judge
 *   (its cases carry no `data-expectedrole`; one that does and has no line fails).
 */

const harness = useHarness({ seed: 0 })

interface Case {
  readonly index: number
  readonly label: string | null
  readonly role: string | null
  readonly ref: string | null
  readonly html: string
}

interface Reading {
  readonly name: string | undefined
  readonly role: string | undefined
  readonly how: "element" | "container" | "heading" | "folded"
}

/** The outline's short container labels, back to the role they print. */
const ROLE_OF_LABEL: Record<string, string> = {
  header: "banner",
  nav: "navigation",
  footer: "contentinfo",
  aside: "complementary",
}

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim()
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const read = (snapshot: PageSnapshot, item: Case): Reading => {
  const element = item.ref === null ? undefined : snapshot.elements[item.ref]
  if (element !== undefined) return { name: element.name, role: element.role, how: "element" }
  const lines = snapshot.tree.split("\n")
  if (item.label !== null) {
    // A heading or a container prints no ref; its line is found by the name it should have, the
    // line of the expected role first (a region and its heading share a name).
    const named = new RegExp(`^\\s*- ([\\w-]+) "${literal(item.label)}"(?::|$)`)
    const found = lines.flatMap((line) => {
      const label = named.exec(line)?.[1]
      if (label === undefined) return []
      return [/^h[1-6]$/.test(label) ? "heading" : (ROLE_OF_LABEL[label] ?? label)]
    })
    const role = found.find((candidate) => candidate === item.role) ?? found[0]
    if (role !== undefined)
      return { name: item.label, role, how: role === "heading" ? "heading" : "container" }
    if (collapse(snapshot.tree).includes(item.label))
      return { name: item.label, role: undefined, how: "folded" }
  }
  return { name: undefined, role: undefined, how: "folded" }
}

/** Chromium's roles for the few it spells apart from ARIA 1.2. */
const chromiumRole = (role: string): string => (role === "image" ? "img" : role)

describe("accessible names and roles on the conformance page", () => {
  it("gives every case the name and role accname, html-aam and wai-aria say", async () => {
    const browser = harness.browser
    await browser.url(`${harness.site.url}/conformance`)
    const snapshot = await look(browser)
    if (process.env.CONFORMANCE_DUMP) console.info(snapshot.tree)
    const cases: Case[] = await browser.execute(() => {
      const sextant = (
        globalThis as unknown as { __sextant: { refOf: (element: Element) => string | undefined } }
      ).__sextant
      return Array.from(
        document.querySelectorAll("[data-expectedlabel],[data-expectedrole]"),
        (element, index) => {
          element.setAttribute("data-case", String(index))
          return {
            index,
            label: element.getAttribute("data-expectedlabel"),
            role: element.getAttribute("data-expectedrole"),
            ref: sextant.refOf(element) ?? null,
            html: element.outerHTML.slice(0, 120),
          }
        },
      )
    })
    expect(cases.length).toBeGreaterThanOrEqual(60)

    const failures: string[] = []
    const score = { names: 0, nameCases: 0, roles: 0, roleCases: 0 }
    const chromium = { names: 0, roles: 0 }
    const chromiumMisses: string[] = []
    for (const item of cases) {
      const reading = read(snapshot, item)
      const element = browser.$(`[data-case="${item.index}"]`)
      if (item.label !== null) {
        score.nameCases++
        if (reading.name !== undefined && collapse(reading.name) === item.label) score.names++
        else
          failures.push(
            `name ${JSON.stringify(reading.name)} ≠ ${JSON.stringify(item.label)} (${reading.how}): ${item.html}`,
          )
        const label = collapse(await element.getComputedLabel())
        if (label === item.label) chromium.names++
        else chromiumMisses.push(`name ${JSON.stringify(label)} ≠ ${JSON.stringify(item.label)}`)
      }
      if (item.role !== null) {
        score.roleCases++
        if (reading.role === item.role) score.roles++
        else
          failures.push(`role ${JSON.stringify(reading.role)} ≠ ${item.role} (${reading.how}): ${item.html}`)
        const role = chromiumRole(await element.getComputedRole())
        if (role === item.role) chromium.roles++
        else chromiumMisses.push(`role ${role} ≠ ${item.role}`)
      }
    }
    const percent = (count: number, of: number): string => `${((100 * count) / of).toFixed(1)}%`
    console.info(
      `conformance: ${cases.length} cases; names ${score.names}/${score.nameCases} (${percent(score.names, score.nameCases)}), ` +
        `roles ${score.roles}/${score.roleCases} (${percent(score.roles, score.roleCases)}); Chromium names ` +
        `${chromium.names}/${score.nameCases} (${percent(chromium.names, score.nameCases)}), roles ` +
        `${chromium.roles}/${score.roleCases} (${percent(chromium.roles, score.roleCases)}); Chromium differs on ` +
        `${chromiumMisses.join("; ")}`,
    )
    expect(failures).toEqual([])
  })
})
