import { describe, expect, it } from "vitest"
import { z } from "zod"
import { RecordSchemaInput, toRecordSchema, validateRecords } from "../../src/compound/RecordSchema.ts"

describe("record schemas", () => {
  it("converts page text in the shorthand: prices, weights, booleans and URLs", () => {
    const schema = toRecordSchema({
      price: "number",
      weight: "integer",
      inStock: "boolean",
      url: "url",
      note: "string?",
    })
    expect(
      schema.parse({
        price: "$1,234.50",
        weight: "4952 g",
        inStock: "In stock",
        url: "http://127.0.0.1/p/1",
        note: null,
      }),
    ).toEqual({ price: 1234.5, weight: 4952, inStock: true, url: "http://127.0.0.1/p/1" })
  })

  it("reads a JSON Schema object with required fields and bounds", () => {
    const schema = toRecordSchema({
      type: "object",
      properties: {
        rating: { type: "number", minimum: 0, maximum: 5 },
        sku: { type: "string", pattern: "^SX-" },
      },
      required: ["rating"],
    })
    expect(schema.parse({ rating: "4.5", sku: null })).toEqual({ rating: 4.5 })
    expect(schema.safeParse({ rating: "7.5" }).success).toBe(false)
    expect(schema.safeParse({ rating: "1", sku: "AB-1" }).success).toBe(false)
  })

  it("takes a zod schema as it is", () => {
    const zod = z.object({ name: z.string() })
    expect(toRecordSchema(zod)).toBe(zod)
  })

  it("refuses an unknown field type, naming the field", () => {
    const parsed = RecordSchemaInput.safeParse({ price: "money" })
    expect(parsed.success).toBe(false)
  })

  it("names the record and the field that does not fit, keeping the others", () => {
    const { valid, rejected } = validateRecords(
      toRecordSchema({ name: "string", price: "number" }),
      [
        { name: "Brass Lantern", price: "$12.99" },
        { name: "Oak Compass", price: "call us" },
        { name: null, price: "$3.00" },
      ],
      10,
    )
    expect(valid).toEqual([{ name: "Brass Lantern", price: 12.99 }])
    expect(rejected.map((record) => record.index)).toEqual([11, 12])
    expect(rejected[0]?.issues[0]).toMatch(/^records\[11\]\.price: .*\(got "call us"\)$/)
    expect(rejected[1]?.issues[0]).toMatch(/^records\[12\]\.name: /)
  })
})
