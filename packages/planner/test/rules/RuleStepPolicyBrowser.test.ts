import { BrowserDriver, type Target } from "@sextant/core"
import { startLoopbackServer } from "@sextant/testing"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { ToolCall } from "../../src/Planner.ts"
import { decideStep, readProgress } from "../../src/rules/RuleStepPolicy.ts"
import { useBrowserTests } from "./support/Pages.ts"

/**
 * Multi-step goals through the rule step policy with no model, in headless Chromium: look → decide →
 * run the one tool call on the real driver → history line → look again. The loop here stands in for
 * the executor's `runAgent` (which imports this package, so this package's tests cannot import it).
 */

const target = (call: ToolCall): Target => ({ ref: String(call.args.target) })

/** Runs one tool call the way the browser tools do: ref targets, one driver operation. */
const run = (call: ToolCall) =>
  Effect.gen(function* () {
    const driver = yield* BrowserDriver
    switch (call.name) {
      case "navigate":
        return (yield* driver.navigate(String(call.args.url))).url
      case "back":
        return (yield* driver.back).url
      case "click":
        return (yield* driver.act(target(call), "click")).hint
      case "fill":
        return (yield* driver.act(target(call), "input", String(call.args.value))).hint
      case "select":
        return (yield* driver.act(target(call), "select", call.args.values as ReadonlyArray<string>)).hint
      case "setValue":
        return (yield* driver.act(target(call), "set", String(call.args.value))).hint
      case "check":
      case "uncheck":
      case "hover":
      case "focus":
        return (yield* driver.act(target(call), call.name)).hint
      case "press":
        return (yield* driver.act(
          call.args.target === undefined ? { selector: "body" } : target(call),
          "press",
          String(call.args.key),
        )).hint
      default:
        return yield* Effect.die(new Error(`the test loop has no tool '${call.name}'`))
    }
  })

/** The step-wise loop: at most `maxTurns` turns, a short pause on a turn with no action. */
const runGoal = (goal: string, startUrl: string, maxTurns = 20) =>
  Effect.gen(function* () {
    const driver = yield* BrowserDriver
    yield* driver.navigate(startUrl)
    const history: Array<string> = []
    for (let turn = 1; turn <= maxTurns; turn += 1) {
      const snapshot = yield* driver.look()
      const decision = decideStep({ goal, url: snapshot.url, outline: snapshot.tree, history })
      history.push(...decision.history)
      if (decision.method === "close") return { completed: false, history }
      const call = decision.toolCalls[0]
      if (call === undefined) {
        if (decision.taskComplete) return { completed: true, history }
        history.push(`${turn}. (no action)`)
        yield* Effect.sleep("300 millis")
        continue
      }
      const hint = yield* run(call)
      history.push(`${turn}. ${call.name}(${JSON.stringify(call.args)}) -> ok: ${hint}`)
      if (decision.taskComplete) return { completed: true, history }
    }
    return { completed: false, history }
  })

const { runtime, pages } = useBrowserTests()

const pageState = (script: string) => BrowserDriver.use((driver) => driver.evaluate(script))

describe("rule step policy in Chromium", () => {
  for (const seed of [0, 7]) {
    it(`logs in, searches and opens the first result with no model (seed ${seed})`, async () => {
      const site = pages().site(seed)
      const goal =
        "log in as alice@example.com with password wonderland, then search for lantern, then open the first result"
      const result = await runtime.runPromise(
        Effect.gen(function* () {
          const outcome = yield* runGoal(goal, `${site.url}/login`)
          const driver = yield* BrowserDriver
          const url = yield* driver.currentUrl
          const heading = yield* pageState("return document.querySelector('h1')?.textContent ?? ''")
          const greeting = yield* pageState("return document.cookie")
          return { ...outcome, url, heading, greeting }
        }),
      )
      console.log(`seed ${seed}:\n  ${result.history.join("\n  ")}`)
      expect(result.completed).toBe(true)
      expect(result.url).toMatch(/\/products\/\d+$/)
      expect(String(result.heading)).toMatch(/Lantern$/)
      // It went through the dashboard (signed in) and the search results on the way.
      expect(result.history.join("\n")).toContain('fill({"target"')
      expect(result.history.some((line) => line.includes('search for "lantern"'))).toBe(true)
    }, 120_000)
  }

  it("stops short of the next clause when the login fails (seed 0)", async () => {
    const site = pages().site(0)
    const result = await runtime.runPromise(
      Effect.gen(function* () {
        const outcome = yield* runGoal(
          "log in as alice@example.com with password not-her-password, then search for lantern",
          `${site.url}/login`,
          8,
        )
        return { ...outcome, url: yield* BrowserDriver.use((driver) => driver.currentUrl) }
      }),
    )
    expect(result.completed).toBe(false)
    expect(new URL(result.url).pathname).toBe("/login")
    expect(result.history.join("\n")).toContain("login form is still shown after submitting it")
    expect(readProgress(result.history).done).toBe(0)
  }, 120_000)

  it("fills a form in Chinese and English and sends it (seed 7)", async () => {
    const site = pages().site(7)
    const goal =
      "在姓名中输入 张三，然后 type zhang@example.com into Email，选择 Support，choose Phone，在留言中输入 请寄一份产品目录给我，谢谢，然后提交"
    const result = await runtime.runPromise(
      Effect.gen(function* () {
        const outcome = yield* runGoal(goal, `${site.url}/forms/contact`)
        const confirmation = yield* pageState("return document.querySelector('dl')?.textContent ?? ''")
        return { ...outcome, confirmation: String(confirmation) }
      }),
    )
    expect(result.completed, result.history.join("\n")).toBe(true)
    expect(result.confirmation, result.history.join("\n")).toContain("张三")
    expect(result.confirmation).toContain("zhang@example.com")
    expect(result.confirmation).toContain("Support")
    expect(result.confirmation).toContain("Phone")
  }, 120_000)

  it("opens tabs and sections until the target shows, then clicks it", async () => {
    const result = await runtime.runPromise(
      Effect.gen(function* () {
        const outcome = yield* runGoal("click Contact support", pages().widgetsUrl)
        const expanded = yield* pageState(
          "return document.getElementById('warranty-toggle').getAttribute('aria-expanded')",
        )
        return { ...outcome, expanded }
      }),
    )
    expect(result.completed).toBe(true)
    expect(result.expanded).toBe("true")
    // Each tab and section was opened at most once on the way.
    const opened = result.history
      .filter((line) => line.includes("to look for"))
      .map((line) => /\[(e\d+)\]/.exec(line)?.[1])
    expect(new Set(opened).size).toBe(opened.length)
  }, 120_000)

  it("opens a closed ARIA dropdown, then picks the option it shows", async () => {
    const result = await runtime.runPromise(
      Effect.gen(function* () {
        const outcome = yield* runGoal("从 Fruit 中选择 Banana", pages().widgetsUrl)
        const state = yield* pageState(`return JSON.stringify({
          shown: document.getElementById('fruit').textContent,
          selected: [...document.querySelectorAll('#fruit-list [aria-selected=true]')].map((option) => option.textContent),
        })`)
        return { ...outcome, state: JSON.parse(String(state)) as { shown: string; selected: Array<string> } }
      }),
    )
    expect(result.completed, result.history.join("\n")).toBe(true)
    expect(result.history.join("\n")).toContain('open combobox "Fruit"')
    expect(result.state).toEqual({ shown: "Banana", selected: ["Banana"] })
  }, 120_000)

  it("walks a menu path, selects several options and clears a checkbox group", async () => {
    const result = await runtime.runPromise(
      Effect.gen(function* () {
        const outcome = yield* runGoal(
          "open File > Export > PDF, then select Red, Green and Blue from Colors, then select nothing in Toppings, then click button ONE then button TWO",
          pages().widgetsUrl,
          30,
        )
        const state = yield* pageState(`return JSON.stringify({
          title: document.title,
          colors: [...document.querySelectorAll('#colors [aria-selected=true]')].map((option) => option.textContent),
          toppings: [...document.querySelectorAll('input[type=checkbox]:checked')].length,
        })`)
        return {
          ...outcome,
          state: JSON.parse(String(state)) as { title: string; colors: Array<string>; toppings: number },
        }
      }),
    )
    expect(result.completed).toBe(true)
    expect(result.state).toEqual({ title: "Exported PDF", colors: ["Red", "Green", "Blue"], toppings: 0 })
  }, 120_000)

  it("looks for a hidden item by opening a harmless section, never a collapsed commit control", async () => {
    // Collapsed controls that commit (each records its press) come before a harmless section that
    // hides the wanted link.
    const html = `<!doctype html><title>Cart</title><main>
      ${["Place order", "Delete cart", "提交"]
        .map(
          (name) =>
            `<button aria-expanded="false" onclick="window.pressed = [...(window.pressed ?? []), this.textContent]; this.setAttribute('aria-expanded', 'true')">${name}</button>`,
        )
        .join("\n")}
      <button aria-expanded="false" aria-controls="more" onclick="document.getElementById('more').hidden = false; this.setAttribute('aria-expanded', 'true')">More options</button>
      <div id="more" hidden><a href="#gift" onclick="window.gift = true">Gift wrap</a></div>
    </main>`
    const server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(html)
    })
    try {
      const result = await runtime.runPromise(
        Effect.gen(function* () {
          const outcome = yield* runGoal("click Gift wrap", `${server.url}/cart`, 6)
          return {
            ...outcome,
            pressed: yield* pageState("return window.pressed ?? []"),
            gift: yield* pageState("return window.gift === true"),
          }
        }),
      )
      expect(result.pressed).toEqual([])
      expect(result.gift).toBe(true)
      expect(result.completed).toBe(true)
    } finally {
      await server.close()
    }
  }, 60_000)
})
