import { isoMonthDay, readMonthDay } from "@sextant/core"
import { describe, expect, it } from "vitest"
import { isoDay, readCalendarDay } from "../../src/index.ts"

describe("readCalendarDay", () => {
  it("reads a whole day in numbers, in English words either way round and in Chinese", () => {
    expect(readCalendarDay("2024-05-14")).toEqual({ year: 2024, month: 5, day: 14 })
    expect(readCalendarDay("2024/5/4")).toEqual({ year: 2024, month: 5, day: 4 })
    expect(readCalendarDay("June 14, 2024")).toEqual({ year: 2024, month: 6, day: 14 })
    expect(readCalendarDay("Jun 14th 2024")).toEqual({ year: 2024, month: 6, day: 14 })
    expect(readCalendarDay("14 June 2024")).toEqual({ year: 2024, month: 6, day: 14 })
    expect(readCalendarDay("3rd of March, 2025")).toEqual({ year: 2025, month: 3, day: 3 })
    expect(readCalendarDay("the 14th of June 2024")).toEqual({ year: 2024, month: 6, day: 14 })
    expect(readCalendarDay("2024年5月20日")).toEqual({ year: 2024, month: 5, day: 20 })
    expect(isoDay({ year: 2024, month: 7, day: 4 })).toBe("2024-07-04")
  })

  it("reads no day in other text or in a day no calendar has", () => {
    for (const text of [
      "2024-02-30",
      "June 2024",
      "14 pages",
      "Ma 3, 2024",
      "call me on 2024-05-14",
      "12:30",
    ])
      expect(readCalendarDay(text)).toBeUndefined()
  })
})

describe("readMonthDay", () => {
  it("reads a day of the year said with no year, as ISO's recurring day", () => {
    expect(readMonthDay("31 December")).toEqual({ month: 12, day: 31 })
    expect(readMonthDay("Dec 31st")).toEqual({ month: 12, day: 31 })
    expect(readMonthDay("the 2nd of January")).toEqual({ month: 1, day: 2 })
    expect(readMonthDay("12月20日")).toEqual({ month: 12, day: 20 })
    expect(readMonthDay("29 February")).toEqual({ month: 2, day: 29 })
    expect(isoMonthDay({ month: 1, day: 2 })).toBe("--01-02")
  })

  it("reads no day of the year in a whole day, another text or a day no year has", () => {
    for (const text of ["31 December 2026", "30 February", "December", "14 pages", "12月", "the 32nd of May"])
      expect(readMonthDay(text)).toBeUndefined()
  })
})
