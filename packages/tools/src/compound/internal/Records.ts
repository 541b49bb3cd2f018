import type { FieldPlan } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import type { FieldSpec } from "../../session/Crawl.ts"
import { CompoundError, RecordsInvalid, SchemaInvalid } from "../CompoundError.ts"
import { type RecordSchemaInput, toRecordSchema, validateRecords } from "../RecordSchema.ts"

/** Field names read when neither `item`, `fields` nor `schema` names any. */
const defaultFields: ReadonlyArray<string> = ["name", "url"]

const schemaKeys = (schema: RecordSchemaInput | undefined): ReadonlyArray<string> => {
  if (schema === undefined) return []
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape)
  if (schema instanceof z.ZodType) return []
  if ("type" in schema && schema.type === "object" && typeof schema.properties === "object") {
    return Object.keys(schema.properties as object)
  }
  return Object.keys(schema)
}

/** The fields to read: given selectors first, then names to infer; the schema's keys when neither is given. */
export const fieldPlans = (input: {
  readonly item?: Readonly<Record<string, FieldSpec>> | undefined
  readonly fields?: ReadonlyArray<string> | undefined
  readonly schema?: RecordSchemaInput | undefined
}): ReadonlyArray<FieldPlan> => {
  const plans: Array<FieldPlan> = Object.entries(input.item ?? {}).map(([name, spec]) =>
    typeof spec === "string" ? { name, selector: spec } : { name, ...spec },
  )
  const named = new Set(plans.map((plan) => plan.name))
  const inferred =
    input.item === undefined && input.fields === undefined
      ? schemaKeys(input.schema).length > 0
        ? schemaKeys(input.schema)
        : defaultFields
      : (input.fields ?? [])
  for (const name of inferred) if (!named.has(name)) plans.push({ name })
  return plans
}

/** Builds the validator once per call; a bad schema is the caller's mistake, reported as such. */
export const recordValidator = (tool: string, schema: RecordSchemaInput | undefined) =>
  Effect.try({
    try: () => (schema === undefined ? undefined : toRecordSchema(schema)),
    catch: (cause) =>
      new CompoundError({ tool, reason: new SchemaInvalid({ detail: String(cause) }), cause }),
  })

/** Applies the schema and the onInvalid policy to raw records. */
export const checkRecords = (
  tool: string,
  schema: z.ZodType | undefined,
  records: ReadonlyArray<Record<string, unknown>>,
  onInvalid: "skip" | "fail",
  offset = 0,
) => {
  if (schema === undefined) return Effect.succeed({ valid: [...records], rejected: [] })
  const checked = validateRecords(schema, records, offset)
  if (onInvalid === "fail" && checked.rejected.length > 0) {
    return Effect.fail(
      new CompoundError({
        tool,
        reason: new RecordsInvalid({ issues: checked.rejected.flatMap((record) => record.issues) }),
      }),
    )
  }
  return Effect.succeed(checked)
}
