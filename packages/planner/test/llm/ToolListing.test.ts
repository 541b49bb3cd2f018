import { describe, expect, it } from "@effect/vitest"
import { decodeAgentTask, type PageSnapshot, TaskConstraints, ToolRegistry } from "@sextant/core"
import { Reply, type ScriptedReply } from "@sextant/testing"
import { browserTools, compoundTools, sqlTool } from "@sextant/tools"
import { Effect } from "effect"
import { type DecideInput, makeLlmPlanner, makeLlmStepPolicy, toolGroupsFor } from "../../src/index.ts"
import { withScriptedModel } from "./Support.ts"

// The registry createAgent builds, plus a session tool the way a user adds one.
const registry = Effect.runSync(ToolRegistry.make([...browserTools, ...compoundTools, sqlTool]))

const formPage = [
  '- heading "Contact us" [level=1]',
  '- textbox "Email" [ref=e1]',
  '- combobox "Topic" [ref=e2]',
  '- button "Send" [ref=e3]',
].join("\n")
const storyPage = [
  '- heading "Front page" [level=1]',
  '- link "A story" [ref=e1]',
  '- link "More" [ref=e2]',
].join("\n")

const turn = (outline: string, more: Partial<DecideInput> = {}): DecideInput => ({
  goal: "open the first story",
  url: "http://127.0.0.1:4000/",
  outline,
  history: [],
  ...more,
})

/** The system prompt of one step-policy turn, as the scripted server received it through the openai SDK. */
const stepPrompt = (
  input: DecideInput,
  options: Partial<Parameters<typeof makeLlmStepPolicy>[0]> = {},
  replies: ReadonlyArray<ScriptedReply> = [Reply.json({ tool_calls: [] })],
) =>
  withScriptedModel(replies, (server) =>
    Effect.gen(function* () {
      const policy = yield* makeLlmStepPolicy({ registry, ...options })
      const decision = yield* policy.decide(input)
      const system = server.requests[0]!.messages.find((message) => message.role === "system")
      return { system: String(system?.content), decision }
    }),
  )

const listed = (prompt: string, tool: string) => prompt.includes(`\n- ${tool}(`)

describe("tools by capability in the model's prompts", () => {
  it.live("a page with a form gets the form tools in the step prompt", () =>
    Effect.gen(function* () {
      const { system } = yield* stepPrompt(turn(formPage, { goal: "ask about shipping" }))
      for (const tool of ["fill", "select", "check", "fillForm", "click", "scroll"])
        expect(listed(system, tool), tool).toBe(true)
    }),
  )

  it.live("a page without fields lists no form tool, and never a session or upload tool unasked", () =>
    Effect.gen(function* () {
      const { system } = yield* stepPrompt(turn(storyPage))
      for (const tool of ["click", "navigate", "scroll", "look", "extract", "back"])
        expect(listed(system, tool), tool).toBe(true)
      for (const tool of ["fill", "select", "fillForm", "login", "sql", "upload", "drag", "extractList"])
        expect(listed(system, tool), tool).toBe(false)
    }),
  )

  it.live("the folded scroll variants are never listed, and `scroll` takes what they did", () =>
    Effect.gen(function* () {
      const { system, decision } = yield* stepPrompt(turn(storyPage), {}, [
        Reply.json({
          tool_calls: [
            { name: "scroll", args: { screen: 3 } },
            { name: "scroll", args: { ratio: 0.25 } },
            { name: "scrollDown", args: { count: 2 } },
          ],
        }),
      ])
      for (const old of ["scrollDown", "scrollUp", "scrollToTop", "scrollToBottom", "scrollToMiddle"])
        expect(listed(system, old), old).toBe(false)
      // An old name from a stored plan or an old habit still runs: it is an alias kept for one release.
      expect(decision.toolCalls.map((call) => call.name)).toEqual(["scroll", "scroll", "scrollDown"])
    }),
  )

  it.live("session tools are listed only when asked: by the option or by the task's constraints", () =>
    Effect.gen(function* () {
      const unasked = yield* stepPrompt(turn(storyPage, { goal: "count the products" }))
      expect(listed(unasked.system, "sql")).toBe(false)
      const byTask = yield* stepPrompt(
        turn(storyPage, {
          goal: "count the products",
          constraints: TaskConstraints.parse({ toolGroups: ["session"] }),
        }),
      )
      expect(listed(byTask.system, "sql")).toBe(true)
      const byOption = yield* stepPrompt(turn(storyPage, { goal: "count the products" }), {
        toolGroups: ["session"],
      })
      expect(listed(byOption.system, "sql")).toBe(true)
      const byName = yield* stepPrompt(turn(storyPage, { goal: "count the products with sql" }))
      expect(listed(byName.system, "sql")).toBe(true)
    }),
  )

  it.live("upload is listed only when the task allows an upload folder", () =>
    Effect.gen(function* () {
      const none = yield* stepPrompt(turn(formPage))
      expect(listed(none.system, "upload")).toBe(false)
      const allowed = yield* stepPrompt(
        turn(formPage, { constraints: TaskConstraints.parse({ allowedUploadDirs: ["/tmp/uploads"] }) }),
      )
      expect(listed(allowed.system, "upload")).toBe(true)
    }),
  )

  it.live("a tool that exists but was not listed is still accepted when the model calls it", () =>
    Effect.gen(function* () {
      const { system, decision } = yield* stepPrompt(turn(storyPage), {}, [
        Reply.json({ tool_calls: [{ name: "hover", args: { target: "e1" } }] }),
      ])
      expect(listed(system, "hover")).toBe(false)
      expect(decision.toolCalls).toEqual([{ name: "hover", args: { target: "e1" } }])
      expect(decision.history).toEqual([])
    }),
  )

  it.live('`toolGroups: "all"` lists every tool but the deprecated aliases', () =>
    Effect.gen(function* () {
      const { system } = yield* stepPrompt(turn(storyPage), { toolGroups: "all" })
      const catalog = registry.renderCatalog()
      expect(system.endsWith(`\n${catalog}`)).toBe(true)
      expect(catalog.split("\n")).toHaveLength(registry.tools.filter((tool) => !tool.deprecated).length)
      expect(listed(system, "sql")).toBe(true)
      expect(listed(system, "scrollDown")).toBe(false)
    }),
  )

  it.live("the plan prompt lists the form tools for a page with fields and leaves them out without", () =>
    Effect.gen(function* () {
      const planPrompt = (tree: string, goal: string) =>
        withScriptedModel([Reply.json({ steps: [{ tool: "click", args: { target: "e1" } }] })], (server) =>
          Effect.gen(function* () {
            const planner = yield* makeLlmPlanner({ registry })
            const snapshot: PageSnapshot = {
              url: "http://127.0.0.1:4000/",
              title: "Page",
              tree,
              elements: {},
              actions: [],
              forms: [],
              outputs: [],
              stats: { nodes: 3, elements: 2, lines: 3, chars: tree.length, truncated: false },
            }
            yield* planner.plan(Effect.runSync(decodeAgentTask({ goal })), { snapshot })
            return String(server.requests[0]!.messages.find((message) => message.role === "system")?.content)
          }),
        )
      const withForm = yield* planPrompt(formPage, "ask about shipping")
      expect(listed(withForm, "fill")).toBe(true)
      expect(listed(withForm, "fillForm")).toBe(true)
      const without = yield* planPrompt(storyPage, "open the first story")
      expect(listed(without, "click")).toBe(true)
      expect(listed(without, "fill")).toBe(false)
      expect(listed(without, "sql")).toBe(false)
    }),
  )

  it("reads the groups from the page, the inputs, the constraints and the goal", () => {
    expect(toolGroupsFor({ goal: "open the first story", outline: storyPage })).toEqual(["core"])
    expect(toolGroupsFor({ goal: "open the first story", outline: "e1 Story · e2 textbox Search" })).toEqual([
      "core",
      "forms",
    ])
    expect(
      toolGroupsFor({ goal: "open the first story", outline: "textbox:\ne3 Email\ne4 Name\ne5 City" }),
    ).toEqual(["core", "forms"])
    expect(toolGroupsFor({ goal: "open the first story", outline: "e3 Textbox styles" })).toEqual(["core"])
    expect(toolGroupsFor({ goal: "open the first story" })).toEqual(["core", "forms"])
    expect(toolGroupsFor({ goal: "open it", outline: storyPage, inputs: { name: "Ada" } })).toContain("forms")
    expect(toolGroupsFor({ goal: "list the names and prices of the products", outline: storyPage })).toEqual([
      "core",
      "extraction",
    ])
    expect(toolGroupsFor({ goal: "hover over the Menu", outline: storyPage })).toEqual(["core", "gestures"])
    expect(toolGroupsFor({ goal: "x", outline: storyPage, asked: "all" })).toBeUndefined()
  })
})
