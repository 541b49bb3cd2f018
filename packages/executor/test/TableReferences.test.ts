import { BrowserDriver } from "@sextant/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { useGallery } from "./support/Gallery.ts"

/**
 * Values described rather than written ("Pablo Ruiz's e-mail", "王伟的电话", "the mobile of the site
 * manager"), run by the rule agent through `runAgent` on the fixture site's `/people` page in headless
 * Chromium: the agent reads the value from the page's tables, definition list or cards and types that
 * literal, and COMPLETED means the named field holds it. A reference the page answers with nothing or
 * with more than one value ends FAILED with the reference named, and nothing is typed.
 */

const { runGoal, runtime } = useGallery()

/** The values of the `/people` form's fields after a run. */
const fields = () =>
  runtime.runPromise(
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      return (yield* driver.evaluate(
        "return Object.fromEntries(['recipient','subject','reference','note'].map((id) => [id, document.getElementById(id).value]))",
      )) as Record<string, string>
    }),
  )

describe("rule agent reads a described value from the page", () => {
  it("types the e-mail from the owner's table row into the named field", async () => {
    const result = await runGoal("Type Pablo Ruiz's e-mail into the Recipient field", "/people")
    expect(result.status).toBe("COMPLETED")
    expect(await fields()).toMatchObject({ recipient: "pablo.ruiz@sierra.example", subject: "" })
  }, 60_000)

  it("reads a Chinese 的-phrase in the same table (把王伟的电话填到 Subject 里)", async () => {
    const result = await runGoal("把王伟的电话填到 Subject 里", "/people")
    expect(result.status).toBe("COMPLETED")
    expect((await fields()).subject).toBe("+86 27 5550 6612")
  }, 60_000)

  it("picks the row by two of its cells and the column by its header (the invoice of the overdue one)", async () => {
    const result = await runGoal("Enter the invoice number of the overdue invoice in Reference", "/people")
    expect(result.status).toBe("COMPLETED")
    expect((await fields()).reference).toBe("INV-3303")
  }, 60_000)

  it("reads a definition list and a contact card", async () => {
    const manager = await runGoal("Put the mobile of the site manager into Subject", "/people")
    expect(manager.status).toBe("COMPLETED")
    expect((await fields()).subject).toBe("+46 70 555 12 34")
    const desk = await runGoal("Type the help desk's email into Recipient", "/people")
    expect(desk.status).toBe("COMPLETED")
    expect((await fields()).recipient).toBe("help@fjord.example")
  }, 60_000)

  it("is FAILED, names the reference and types nothing when two rows fit (two engineers)", async () => {
    const result = await runGoal("Type the telephone of the engineer into Subject", "/people")
    expect(result.status).toBe("FAILED")
    expect(result.summary.summary).toContain('"the telephone of the engineer": it fits more than one value')
    expect(result.observations).toEqual([])
    expect((await fields()).subject).toBe("")
  }, 60_000)

  it("is FAILED, names the reference and types nothing when no row carries the owner", async () => {
    const result = await runGoal("Type Bruno Alves's phone into Subject", "/people")
    expect(result.status).toBe("FAILED")
    expect(result.summary.summary).toContain('needs a model to work out "Bruno Alves\'s phone"')
    expect((await fields()).subject).toBe("")
  }, 60_000)
})
