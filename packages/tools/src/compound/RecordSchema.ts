import { formatIssues } from "@sextant/core"
import { z } from "zod"

/**
 * The field types a JSON record schema may name; text read from the page is converted to them.
 *
 * @example
 * ```ts
 * import { FieldType } from "@sextant/tools"
 * FieldType.options // ["string", "number", "integer", "boolean", "url"]
 * ```
 */
export const FieldType = z.enum(["string", "number", "integer", "boolean", "url"])
export type FieldType = z.output<typeof FieldType>

const JsonProperty = z.object({
  type: z.union([FieldType, z.array(z.union([FieldType, z.literal("null")]))]),
  pattern: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
})

/**
 * A record schema as JSON: either a JSON Schema object (`{ type: "object", properties: { price:
 * { type: "number" } }, required: ["price"] }`) or the shorthand `{ price: "number", note: "string?" }`
 * (every field required unless its type ends with `?`). From code, a zod object works too.
 *
 * @example
 * ```ts
 * import { RecordSchemaInput } from "@sextant/tools"
 * RecordSchemaInput.parse({ name: "string", price: "number", note: "string?" })
 * ```
 */
export const RecordSchemaInput = z.union([
  z.custom<z.ZodType>((value) => value instanceof z.ZodType, "a zod schema"),
  z.object({
    type: z.literal("object"),
    properties: z.record(z.string(), JsonProperty),
    required: z.array(z.string()).optional(),
  }),
  z.record(
    z.string(),
    z
      .string()
      .regex(
        /^(string|number|integer|boolean|url)\??$/,
        "one of string, number, integer, boolean, url (add ? for optional)",
      ),
  ),
])
export type RecordSchemaInput = z.input<typeof RecordSchemaInput>

// Numbers as pages print them: "$1,234.50", "4952 g", "4.5 out of 5".
const numberFrom = (value: unknown): unknown => {
  if (typeof value !== "string") return value
  const match = value.replace(/,(?=\d{3}\b)/g, "").match(/-?\d+(?:\.\d+)?/)
  return match === null ? value : Number(match[0])
}

const booleanFrom = (value: unknown): unknown => {
  if (typeof value !== "string") return value
  const text = value.trim().toLowerCase()
  if (/^(true|yes|y|on|1|in stock|available|checked)$/.test(text)) return true
  if (/^(false|no|n|off|0|out of stock|unavailable|sold out)$/.test(text)) return false
  return value
}

const fieldSchema = (type: FieldType, property?: z.output<typeof JsonProperty>): z.ZodType => {
  switch (type) {
    case "number":
    case "integer": {
      let schema = type === "integer" ? z.number().int() : z.number()
      if (property?.minimum !== undefined) schema = schema.min(property.minimum)
      if (property?.maximum !== undefined) schema = schema.max(property.maximum)
      return z.preprocess(numberFrom, schema)
    }
    case "boolean":
      return z.preprocess(booleanFrom, z.boolean())
    case "url":
      return z.url()
    case "string":
      return property?.pattern === undefined
        ? z.string().min(1)
        : z.string().regex(new RegExp(property.pattern))
  }
}

// A field the page did not have reads as null; an optional field turns that into "absent".
const optional = (schema: z.ZodType): z.ZodType =>
  z.preprocess((value) => (value === null ? undefined : value), schema.optional())

/**
 * Turns a {@link RecordSchemaInput} into the zod schema records are validated with. Throws a
 * `SyntaxError` for a pattern that is not a regular expression.
 *
 * @example
 * ```ts
 * import { toRecordSchema } from "@sextant/tools"
 * toRecordSchema({ name: "string", price: "number" }).parse({ name: "Brass Lantern", price: "$12.99" })
 * // { name: "Brass Lantern", price: 12.99 }
 * ```
 */
export const toRecordSchema = (input: RecordSchemaInput): z.ZodType => {
  if (input instanceof z.ZodType) return input
  if ("type" in input && input.type === "object" && typeof input.properties === "object") {
    const schema = input as {
      properties: Record<string, z.output<typeof JsonProperty>>
      required?: Array<string>
    }
    const required = new Set(schema.required ?? [])
    const shape: Record<string, z.ZodType> = {}
    for (const [name, property] of Object.entries(schema.properties)) {
      const types = Array.isArray(property.type) ? property.type : [property.type]
      const type = types.find((item): item is FieldType => item !== "null") ?? "string"
      const field = fieldSchema(type, property)
      shape[name] = required.has(name) && !types.includes("null") ? field : optional(field)
    }
    return z.object(shape)
  }
  const shape: Record<string, z.ZodType> = {}
  for (const [name, written] of Object.entries(input as Record<string, string>)) {
    const type = FieldType.parse(written.replace(/\?$/, ""))
    shape[name] = written.endsWith("?") ? optional(fieldSchema(type)) : fieldSchema(type)
  }
  return z.object(shape)
}

/**
 * One record that did not fit: its position and one line per failing field.
 *
 * @example
 * ```ts
 * import { RejectedRecord } from "@sextant/tools"
 * RejectedRecord.parse({ index: 3, issues: ["records[3].price: Invalid input"], record: { price: "call us" } })
 * ```
 */
export const RejectedRecord = z.object({
  index: z.number().int(),
  issues: z.array(z.string()).readonly(),
  record: z.record(z.string(), z.unknown()).readonly(),
})
export type RejectedRecord = z.output<typeof RejectedRecord>

/**
 * Validates records, keeping those that fit (converted by the schema) and naming the field of each
 * one that does not: `records[3].price: Invalid input: expected number, received string (got "call us")`.
 *
 * @example
 * ```ts
 * import { toRecordSchema, validateRecords } from "@sextant/tools"
 * const { valid, rejected } = validateRecords(toRecordSchema({ price: "number" }), [{ price: "$5.00" }, { price: "call us" }])
 * // valid: [{ price: 5 }]; rejected[0].issues[0] starts with "records[1].price"
 * ```
 */
export const validateRecords = (
  schema: z.ZodType,
  records: ReadonlyArray<Readonly<Record<string, unknown>>>,
  offset = 0,
): { readonly valid: Array<Record<string, unknown>>; readonly rejected: Array<RejectedRecord> } => {
  const valid: Array<Record<string, unknown>> = []
  const rejected: Array<RejectedRecord> = []
  records.forEach((record, position) => {
    const index = offset + position
    const result = schema.safeParse(record)
    if (result.success) valid.push(result.data as Record<string, unknown>)
    else rejected.push({ index, issues: formatIssues(`records[${index}]`, result.error, record), record })
  })
  return { valid, rejected }
}
