import { describe, expect, it } from "@effect/vitest"
import { DuplicateTool, defineTool, InvalidToolArgs, ToolRegistry, UnknownTool } from "@sextant/core"
import { Ajv2020 } from "ajv/dist/2020.js"
import { Effect } from "effect"
import { z } from "zod"

const fillDefinition = {
  name: "fill",
  description: "Type text into a field, replacing its value.",
  input: z.object({
    target: z.string().min(1).describe("a ref from look() such as e3, or a CSS selector"),
    text: z.string(),
    submit: z.boolean().default(false),
  }),
  output: z.object({ ok: z.boolean() }),
  effects: { clicks: true },
  run: ({ target }: { target: string }) => Effect.succeed({ ok: target.length > 0 }),
} as const
const fill = defineTool(fillDefinition)

const navigate = defineTool({
  name: "navigate",
  description: "Open a URL in the current tab.",
  input: z.object({ url: z.url() }),
  output: z.object({ url: z.string() }),
  effects: { navigates: true },
  run: ({ url }) => Effect.succeed({ url }),
})

const echoDefinition = {
  name: "echo",
  description: "Repeat the text back.",
  input: z.object({ text: z.string(), times: z.number().int().positive().optional() }),
  output: z.object({ text: z.string() }),
  effects: { reads: true, idempotent: true },
  run: ({ text, times }: { text: string; times?: number | undefined }) =>
    Effect.succeed({ text: text.repeat(times ?? 1) }),
} as const
const echo = defineTool(echoDefinition)

describe("defineTool", () => {
  it("puts a tool that names no group in core, and refuses a group that does not exist", () => {
    expect(echo.group).toBe("core")
    expect(() =>
      defineTool({
        name: "fetchPage",
        description: "Fetch a page.",
        input: z.object({}),
        output: z.object({}),
        group: "network" as never,
        run: () => Effect.succeed({}),
      }),
    ).toThrow(
      "defineTool: tool 'fetchPage' has group \"network\"; use one of core, forms, files, extraction, gestures, session",
    )
  })

  it("fills undeclared effects with false", () => {
    expect(navigate.effects).toEqual({
      navigates: true,
      submits: false,
      clicks: false,
      reads: false,
      idempotent: false,
    })
  })

  it("refuses a name a model could not type reliably", () => {
    expect(() =>
      defineTool({
        name: "click element",
        description: "x",
        input: z.object({}),
        output: z.object({}),
        run: () => Effect.succeed({}),
      }),
    ).toThrow(/must start with a letter and use only letters, digits and '_'/)
  })

  it("refuses an empty description", () => {
    expect(() =>
      defineTool({
        name: "silent",
        description: "   ",
        input: z.object({}),
        output: z.object({}),
        run: () => Effect.succeed({}),
      }),
    ).toThrow(/needs a description/)
  })

  it("keeps the script inputs a tool declares, and refuses one that is not a field of its input", () => {
    const definition = {
      name: "runScript",
      description: "Run a JavaScript expression in the page.",
      input: z.object({ code: z.string() }),
      output: z.object({}),
      run: () => Effect.succeed({}),
    }
    expect(defineTool({ ...definition, scriptInputs: ["code"] }).scriptInputs).toEqual(["code"])
    expect(defineTool(definition).scriptInputs).toBeUndefined()
    expect(() => defineTool({ ...definition, scriptInputs: ["js"] })).toThrow(
      /names the script input "js", which is not a field of its input/,
    )
  })
})

describe("ToolRegistry", () => {
  it.effect("rejects two tools with the same name", () =>
    Effect.gen(function* () {
      const twin = defineTool({ ...echo, description: "Another echo." })
      const error = yield* Effect.flip(ToolRegistry.make([echo, fill, twin]))
      expect(error.reason).toBeInstanceOf(DuplicateTool)
      expect(error.message).toBe("a tool named 'echo' is already registered: give each tool a unique name")
    }),
  )

  it.effect("rejects a duplicate added later with `with`", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make([echo])
      const error = yield* Effect.flip(registry.with([fill, echo]))
      expect(error.reason).toBeInstanceOf(DuplicateTool)
      expect((yield* registry.with([fill])).names).toEqual(["echo", "fill"])
    }),
  )

  it.effect("renders a catalog whose input schemas are valid JSON Schema that fit the tools' inputs", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make([fill, navigate, echo])
      const catalog = registry.catalog()
      expect(catalog.map((entry) => entry.name)).toEqual(["fill", "navigate", "echo"])
      const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false })
      for (const entry of catalog) {
        expect(ajv.validateSchema(entry.inputSchema), `${entry.name}: ${ajv.errorsText()}`).toBe(true)
        expect(entry.inputSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema")
      }
      const fillSchema = ajv.compile(catalog[0]!.inputSchema)
      expect(fillSchema({ target: "e3", text: "hello" })).toBe(true)
      expect(fillSchema({ target: "", text: "hello" })).toBe(false)
      expect(fillSchema({ text: "hello" })).toBe(false)
      const navigateSchema = ajv.compile(catalog[1]!.inputSchema)
      expect(navigateSchema({ url: 7 })).toBe(false)
      expect(catalog[0]!.inputSchema.properties).toMatchObject({
        target: { description: "a ref from look() such as e3, or a CSS selector" },
      })
    }),
  )

  it.effect("renders one compact prompt line per tool with optional arguments marked", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make([fill, echo])
      expect(registry.renderCatalog()).toBe(
        [
          "- fill(target: string, text: string, submit?: boolean): Type text into a field, replacing its value.",
          "- echo(text: string, times?: integer): Repeat the text back.",
        ].join("\n"),
      )
    }),
  )

  it.effect("renders only the groups and named tools of a selection, and never a deprecated tool", () =>
    Effect.gen(function* () {
      const formFill = defineTool({ ...fillDefinition, group: "forms" })
      const oldEcho = defineTool({ ...echoDefinition, name: "echoOld", deprecated: "echo({ text })" })
      const registry = yield* ToolRegistry.make([formFill, navigate, echo, oldEcho])
      const names = (catalog: string) => catalog.split("\n").map((line) => line.slice(2).split("(")[0])
      expect(names(registry.renderCatalog())).toEqual(["fill", "navigate", "echo"])
      expect(names(registry.renderCatalog({ groups: ["core"] }))).toEqual(["navigate", "echo"])
      expect(names(registry.renderCatalog({ groups: ["core", "forms"] }))).toEqual([
        "fill",
        "navigate",
        "echo",
      ])
      expect(names(registry.renderCatalog({ groups: ["session"], tools: ["fill"] }))).toEqual(["fill"])
      // Left out of every catalog, the deprecated tool still decodes and runs for a stored plan.
      expect(yield* registry.run("echoOld", { text: "hi" })).toEqual({ text: "hi" })
    }),
  )

  it.effect("names the tool, the field and the rule of bad arguments", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make([fill])
      const error = yield* Effect.flip(registry.decodeArgs("fill", { target: "", text: 3 }))
      expect(error.reason).toBeInstanceOf(InvalidToolArgs)
      const issues = (error.reason as InvalidToolArgs).issues
      expect(
        issues.some((issue) => issue.startsWith("args.target: Too small") && issue.endsWith('(got "")')),
      ).toBe(true)
      expect(issues.some((issue) => issue.startsWith("args.text: ") && issue.endsWith("(got 3)"))).toBe(true)
      expect(error.message).toMatch(/^invalid arguments for tool 'fill':/)
    }),
  )

  it.effect("answers an unknown tool with the names it knows", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make([fill, echo])
      const error = yield* Effect.flip(registry.run("clik", {}))
      expect((error as { reason: unknown }).reason).toBeInstanceOf(UnknownTool)
      expect((error as Error).message).toBe("unknown tool 'clik': use one of fill, echo")
    }),
  )

  it.effect("runs a tool with decoded arguments, defaults applied", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make([echo])
      expect(yield* registry.run("echo", { text: "ab", times: 2 })).toEqual({ text: "abab" })
    }),
  )
})

describe("ToolRegistry argument names", () => {
  it.effect("refuses an argument the tool does not take, naming it and the ones it takes", () =>
    Effect.gen(function* () {
      const registry = yield* ToolRegistry.make([fill])
      const error = yield* Effect.flip(registry.decodeArgs("fill", { target: "e3", text: "hi", timeout: 5 }))
      expect(error.reason).toBeInstanceOf(InvalidToolArgs)
      expect((error.reason as InvalidToolArgs).issues).toEqual([
        "args.timeout: 'fill' has no argument 'timeout'; it takes only target, text, submit",
      ])
    }),
  )

  it.effect("lets extra keys through when the tool's schema accepts them", () =>
    Effect.gen(function* () {
      const loose = defineTool({
        name: "annotate",
        description: "Attach any labels.",
        input: z.looseObject({ text: z.string() }),
        output: z.object({ count: z.number() }),
        run: (input) => Effect.succeed({ count: Object.keys(input).length }),
      })
      const registry = yield* ToolRegistry.make([loose])
      expect(yield* registry.run("annotate", { text: "a", colour: "red" })).toEqual({ count: 2 })
    }),
  )
})
