import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runGallery } from "../src/gallery/GalleryBench.ts"
import type { Instruction } from "../src/gallery/Instructions.ts"

/**
 * Statements about oneself, meant for the page's form ("I live at …, postcode …"), run by the rule
 * agent through `runAgent` on gallery pages in Chromium and scored by each page's own oracle. The
 * phrasings are this file's own, not a bench set's.
 */

const instruction = (
  id: string,
  page: string,
  lang: "en" | "zh",
  text: string,
  expect: Instruction["expect"],
): Instruction => ({ id, page, family: "statement", lang, text, expect, set: "rest" })

describe("a statement entered into the page's form by the rule agent", () => {
  let site: FixtureSite | undefined
  beforeAll(async () => {
    site = await startFixtureSite({ port: 0, seed: 7 })
  })
  afterAll(async () => {
    await site?.close()
  })

  it("fills the field each fact names, on labelled, unlabelled and counter fields, and says COMPLETED", async () => {
    const outcomes = await runGallery({
      base: site!.url,
      modes: ["agent"],
      instructions: [
        instruction("s001", "delivery-form", "en", "I live at 12 Lindenstraße, postcode 10435", {
          street: "12 Lindenstraße",
          postcode: "10435",
        }),
        instruction("s002", "delivery-form", "zh", "我住在柏林，邮编 10435，电话 030 1234567", {
          city: "柏林",
          postcode: "10435",
          phone: "030 1234567",
        }),
        instruction("s003", "guests-stepper", "en", "Three adults and one child", { adults: 3, children: 1 }),
        instruction("s004", "datetime", "en", "The meeting is at 9:30 am", { meetingTime: "09:30" }),
      ],
    })
    for (const outcome of outcomes) {
      expect(outcome.solved, `${outcome.id}: ${outcome.detail}`).toBe(true)
      expect(outcome.status, `${outcome.id}: ${outcome.message}`).toBe("COMPLETED")
    }
  }, 120_000)

  it("never says COMPLETED for a fact whose value would fit only a field its words do not name", async () => {
    const outcomes = await runGallery({
      base: site!.url,
      modes: ["agent"],
      instructions: [
        // Date fields, but none for a birth date: the day is not put into "Start date".
        instruction("s101", "datetime", "en", "I was born on 4 May 1990", { startDate: "1990-05-04" }),
        // No email field on the delivery form: the address is not typed into another field.
        instruction("s102", "delivery-form", "en", "My email is ann@example.com", {
          notes: "ann@example.com",
        }),
        // Street and ZIP code, but no phone field: the number is not put into the ZIP code.
        instruction("s103", "fields-nearby", "en", "Phone 030 1234567", { zip: "030 1234567" }),
      ],
    })
    for (const outcome of outcomes) {
      expect(outcome.status, `${outcome.id}: ${outcome.message}`).not.toBe("COMPLETED")
      expect(outcome.solved, `${outcome.id}: ${outcome.detail}`).toBe(false)
    }
  }, 120_000)
})
