import { describe, expect, it } from "@effect/vitest"
import { openAiServer, Reply, type ScriptedReply } from "@sextant/testing"
import { Effect } from "effect"
import { z } from "zod"
import { generateObject, make, parseModelJson } from "../src/index.ts"

const PlanShape = z.object({
  steps: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) })),
})
const messages = [{ role: "user" as const, content: "Plan it" }]

const ask = (reply: ScriptedReply, structuredOutput: "json_schema" | "none" = "json_schema") =>
  Effect.gen(function* () {
    const server = yield* openAiServer({ replies: [reply] })
    const model = yield* make({
      baseURL: server.baseURL,
      apiKey: "k",
      model: "m",
      maxRetries: 0,
      structuredOutput,
    })
    const result = yield* Effect.result(generateObject(model, { schema: PlanShape, messages, name: "plan" }))
    return { server, result }
  })

describe("generateObject", () => {
  it.live("returns the validated object, the usage, and sends the schema as structured output", () =>
    Effect.gen(function* () {
      const { server, result } = yield* ask(
        Reply.json({ steps: [{ tool: "navigate", args: { url: "http://x/" } }] }),
      )
      expect(result._tag).toBe("Success")
      if (result._tag !== "Success") return
      expect(result.success.object.steps[0]?.tool).toBe("navigate")
      expect(result.success.response.usage.total).toBeGreaterThan(0)
      const format = server.requests[0]?.responseFormat as {
        type: string
        json_schema: { schema: { required: unknown } }
      }
      expect(format.type).toBe("json_schema")
      expect(format.json_schema.schema.required).toEqual(["steps"])
    }),
  )

  it.live("reads JSON out of a code fence when the endpoint has no structured output", () =>
    Effect.gen(function* () {
      const { server, result } = yield* ask(Reply.fenced({ steps: [] }), "none")
      expect(result._tag).toBe("Success")
      expect(server.requests[0]?.responseFormat).toBeUndefined()
    }),
  )

  it.live("fails with OutputInvalid when the answer has no JSON", () =>
    Effect.gen(function* () {
      const { result } = yield* ask(Reply.malformed('{"steps": [{"tool": "navigate"'))
      expect(result._tag).toBe("Failure")
      if (result._tag !== "Failure") return
      expect(result.failure.reason._tag).toBe("OutputInvalid")
      expect(result.failure.message).toContain("no JSON object in the answer")
    }),
  )

  it.live("fails with OutputInvalid naming the field that does not fit", () =>
    Effect.gen(function* () {
      const { result } = yield* ask(Reply.json({ steps: [{ tool: 7, args: {} }] }))
      expect(result._tag).toBe("Failure")
      if (result._tag !== "Failure") return
      expect(result.failure.reason._tag).toBe("OutputInvalid")
      expect(result.failure.message).toContain("output.steps[0].tool")
    }),
  )
})

describe("parseModelJson", () => {
  it("reads plain JSON, fenced JSON and the first object in prose", () => {
    expect(parseModelJson(' {"a": 1} ')).toEqual({ a: 1 })
    expect(parseModelJson('```json\n{"a": 2}\n```')).toEqual({ a: 2 })
    expect(
      parseModelJson('I think {"a": "brace } inside", "b": [1, {"c": 3}]} is right, or {"a": 4}'),
    ).toEqual({
      a: "brace } inside",
      b: [1, { c: 3 }],
    })
    expect(parseModelJson('first {not json} then {"a": 5}')).toEqual({ a: 5 })
  })

  it("returns undefined when there is no JSON at all", () => {
    expect(parseModelJson("I cannot help with that.")).toBeUndefined()
    expect(parseModelJson('{"unfinished": ')).toBeUndefined()
  })
})
