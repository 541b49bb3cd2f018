import { BrowserDriver, DriverError } from "@sextant/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { navigateTool } from "../../src/browser/Navigation.ts"
import { dayOfText, pickDateTool } from "../../src/browser/PickDate.ts"
import { type Harness, openHarness } from "./Harness.ts"

let harness: Harness
beforeAll(async () => {
  harness = await openHarness([0, 7])
})
afterAll(async () => {
  await harness?.close()
})

const evaluate = (script: string) => harness.run(BrowserDriver.use((driver) => driver.evaluate(script)))
const checkIn = () => evaluate("return document.querySelector('[data-k=checkin]').value")

describe("pickDate in Chromium on the calendar picker of the widget gallery", () => {
  for (const seed of [0, 7]) {
    it(`picks a date in a calendar widget that ignores typing, moving months both ways (seed ${seed})`, async () => {
      await harness.run(navigateTool.run({ url: harness.url("/gallery/datepicker", seed) }))
      // The field is read-only: typing leaves it empty, and the fill says so rather than succeed.
      const typed = await harness.run(
        BrowserDriver.use((driver) =>
          Effect.flip(driver.act({ selector: "[data-k=checkin]" }, "input", "2024-05-14")),
        ),
      )
      expect(typed.reason._tag).toBe("ValueNotTaken")
      expect(await checkIn()).toBe("")

      // By ref from a look, in the month the calendar opens on.
      const ref = await harness.run(
        BrowserDriver.use((driver) =>
          driver
            .look()
            .pipe(
              Effect.map(
                (snapshot) =>
                  Object.values(snapshot.elements).find((element) => element.name === "Check-in")?.ref,
              ),
            ),
        ),
      )
      const same = await harness.run(pickDateTool.run({ target: String(ref), date: "2024-05-14" }))
      expect(await checkIn()).toBe("2024-05-14")
      expect(same.hint).toContain('the field shows "2024-05-14"')

      // By label, two months on and in words; then back to March.
      await harness.run(pickDateTool.run({ label: "Check-in", date: "July 4, 2024" }))
      expect(await checkIn()).toBe("2024-07-04")
      await harness.run(pickDateTool.run({ label: "Check-in", date: "31 March 2024" }))
      expect(await checkIn()).toBe("2024-03-31")
      // The picker's marks are gone once the tool is done.
      expect(await evaluate("return document.querySelectorAll('[data-sextant-date]').length")).toBe(0)
    }, 60_000)
  }

  it("sets a native date input directly and refuses a text that is no date", async () => {
    await harness.run(navigateTool.run({ url: harness.url("/gallery/datetime") }))
    await harness.run(pickDateTool.run({ label: "End date", date: "June 3, 2024" }))
    expect(await evaluate("return document.querySelector('[data-k=endDate]').value")).toBe("2024-06-03")
    const error = await harness.fail(pickDateTool.run({ label: "End date", date: "next Tuesday" }))
    expect(error).toBeInstanceOf(DriverError)
    expect((error as DriverError).reason._tag).toBe("InvalidArgument")
  }, 60_000)

  it("fails with ElementNotFound when the field opens no calendar", async () => {
    await harness.run(navigateTool.run({ url: harness.url("/gallery/fields-label") }))
    const error = await harness.fail(pickDateTool.run({ target: "input[type=text]", date: "2024-05-14" }))
    expect((error as DriverError).reason._tag).toBe("ElementNotFound")
  }, 60_000)
})

describe("pickDate limits", () => {
  it("stops with NotInteractable after maxMonths month clicks, leaving the field as it was", async () => {
    await harness.run(navigateTool.run({ url: harness.url("/gallery/datepicker") }))
    const error = await harness.fail(
      pickDateTool.run({ label: "Check-in", date: "2024-09-01", maxMonths: 2 }),
    )
    expect((error as DriverError).reason._tag).toBe("NotInteractable")
    expect((error as DriverError).message).toContain("after 2 moves towards 2024-09-01")
    expect(await checkIn()).toBe("")
  }, 60_000)
})

describe("dayOfText", () => {
  it("reads a day in numbers, in English words either way round and in Chinese", () => {
    expect(dayOfText("2024-05-14")).toBe("2024-05-14")
    expect(dayOfText("2024/5/4")).toBe("2024-05-04")
    expect(dayOfText("June 14, 2024")).toBe("2024-06-14")
    expect(dayOfText("Sept 3rd 2024")).toBe("2024-09-03")
    expect(dayOfText("14 June 2024")).toBe("2024-06-14")
    expect(dayOfText("2024年5月20日")).toBe("2024-05-20")
    expect(dayOfText("2024-02-30")).toBeUndefined()
    expect(dayOfText("June 2024")).toBeUndefined()
  })
})
