import { defineTool, LanguageModel, ToolRegistry } from "@sextant/core"
import { make, type OpenAiOptionsInput } from "@sextant/openai"
import {
  FakeLanguageModel,
  type FakeModelScript,
  type OpenAiServer,
  openAiServer,
  type ReplyFunction,
  type ScriptedReply,
} from "@sextant/testing"
import { Effect } from "effect"
import { z } from "zod"

const done = () => Effect.succeed({})
const anything = z.object({}).loose()

/** A small tool set with the effects the validator and prompts care about. */
export const tools = [
  defineTool({
    name: "navigate",
    description: "Open a URL.",
    input: z.object({ url: z.url() }),
    output: anything,
    effects: { navigates: true },
    run: done,
  }),
  defineTool({
    name: "click",
    description: "Click an element by ref.",
    input: z.object({ ref: z.string().min(1) }),
    output: anything,
    effects: { clicks: true },
    run: done,
  }),
  defineTool({
    name: "fill",
    description: "Type text into a field.",
    input: z.object({
      ref: z.string().min(1).optional(),
      label: z.string().min(1).optional(),
      value: z.string(),
    }),
    output: anything,
    effects: { clicks: true },
    run: done,
  }),
  defineTool({
    name: "submit",
    description: "Submit the form that holds a field.",
    input: z.object({ ref: z.string().min(1), password: z.string().optional() }),
    output: anything,
    effects: { clicks: true, submits: true },
    run: done,
  }),
  defineTool({
    name: "login",
    description: "Log in with a username and password.",
    input: z.object({ username: z.string().min(1), password: z.string().min(1) }),
    output: anything,
    effects: { clicks: true, submits: true },
    run: done,
  }),
  defineTool({
    name: "search",
    description: "Search the site.",
    input: z.object({ query: z.string().min(1) }),
    output: anything,
    effects: { clicks: true, submits: true },
    run: done,
  }),
  defineTool({
    name: "waitFor",
    description: "Wait for a target's state or text.",
    input: z.object({
      target: z.string().min(1).optional(),
      state: z.enum(["present", "visible", "hidden"]).optional(),
      text: z.string().min(1).optional(),
    }),
    output: anything,
    effects: { reads: true },
    run: done,
  }),
  defineTool({
    name: "back",
    description: "Go back one page.",
    input: z.object({}),
    output: anything,
    effects: { navigates: true },
    run: done,
  }),
  defineTool({
    name: "extract",
    description: "Read text of the elements matching a selector.",
    input: z.object({ selector: z.string().min(1) }),
    output: anything,
    effects: { reads: true, idempotent: true },
    run: done,
  }),
]

export const registry = Effect.runSync(ToolRegistry.make(tools))

/**
 * A scripted server and a real `@sextant/openai` model pointed at it, provided as `LanguageModel`.
 */
export const withScriptedModel = <A, E, R>(
  replies: ReadonlyArray<ScriptedReply> | ReplyFunction,
  body: (server: OpenAiServer) => Effect.Effect<A, E, R>,
  options: Partial<OpenAiOptionsInput> = {},
) =>
  Effect.gen(function* () {
    const server = yield* openAiServer({ replies })
    const model = yield* make({
      baseURL: server.baseURL,
      apiKey: "test-key",
      model: "test-model",
      retryBaseDelayMs: 10,
      ...options,
    })
    return yield* Effect.provideService(body(server), LanguageModel, model)
  })

/**
 * The in-process `FakeLanguageModel` as `LanguageModel`, for planner logic that needs no HTTP (the model
 * paths themselves are tested through the openai SDK with {@link withScriptedModel}).
 */
export const withFakeModel = <A, E, R>(
  script: FakeModelScript,
  body: (fake: FakeLanguageModel) => Effect.Effect<A, E, R>,
) =>
  Effect.suspend(() => {
    const fake = FakeLanguageModel.make(script)
    return Effect.provideService(body(fake), LanguageModel, fake.model)
  })

/** Everything a fake model was asked in its `index`th request, as one text. */
export const askedText = (fake: FakeLanguageModel, index: number): string =>
  JSON.stringify(fake.requests[index]?.messages ?? [])
