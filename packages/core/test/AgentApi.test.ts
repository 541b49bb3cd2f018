import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import {
  type ActResult,
  agentApiOf,
  type BrowserDriverShape,
  DriverError,
  MaskingFailed,
  type PageSnapshot,
  StaleRef,
  type WaitCondition,
} from "../src/index.ts"

const snapshot: PageSnapshot = {
  url: "http://127.0.0.1/login",
  title: "Sign in",
  tree: '- button "Sign in" [ref=e3]',
  elements: {},
  actions: [{ ref: "e3", role: "button", name: "Sign in", ops: ["click"] }],
  forms: [],
  outputs: [],
  stats: { nodes: 1, elements: 1, lines: 1, chars: 28, truncated: false },
}

// Records what the agent API asked the driver for; only the methods these tests reach do anything.
const recordingDriver = () => {
  const waits: Array<WaitCondition> = []
  const scripts: Array<string> = []
  const unused = Effect.die("not used by this test")
  const driver: BrowserDriverShape = {
    navigate: (url) => Effect.succeed({ url, title: "Sign in" }),
    currentUrl: Effect.succeed(snapshot.url),
    title: Effect.succeed(snapshot.title),
    look: () => Effect.succeed(snapshot),
    act: (target) =>
      "ref" in target && target.ref === "e9"
        ? Effect.fail(new DriverError({ method: "act", reason: new StaleRef({ ref: "e9" }) }))
        : Effect.succeed({
            ok: true,
            changed: true,
            signals: ["NavigationOccurred"],
            actions: snapshot.actions,
            hint: "navigation detected: /dashboard",
            url: "http://127.0.0.1/dashboard",
          } satisfies ActResult),
    waitFor: (condition) => {
      waits.push(condition)
      return Effect.succeed({ ok: true, elapsedMs: 12 })
    },
    evaluate: (script) => {
      scripts.push(script)
      return Effect.succeed("result")
    },
    callPage: () => unused,
    screenshot: () => Effect.succeed(new Uint8Array([1, 2, 3])),
    scroll: () => unused,
    back: Effect.succeed({ url: "http://127.0.0.1/", title: "Home" }),
    forward: unused,
    refresh: unused,
    tabs: unused,
    switchTab: () => unused,
    closeTab: () => unused,
    dialog: unused,
    respondToDialog: () => unused,
  }
  return { driver, waits, scripts }
}

const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)

describe("agentApiOf", () => {
  it("answers act with the JSON an agent reads, without the driver's url", async () => {
    const { driver } = recordingDriver()
    expect(await run(agentApiOf(driver).act("e3", "click"))).toEqual({
      ok: true,
      changed: true,
      signals: ["NavigationOccurred"],
      actions: snapshot.actions,
      hint: "navigation detected: /dashboard",
    })
  })

  it("turns a driver failure into an answer with the reason", async () => {
    const { driver } = recordingDriver()
    expect(await run(agentApiOf(driver).act("e9", "click"))).toEqual({
      ok: false,
      error: "ref e9 is stale: call look() to refresh",
      reason: "StaleRef",
      retryable: true,
    })
  })

  it("refuses an unknown operation and names the known ones", async () => {
    const { driver } = recordingDriver()
    const answer = await run(agentApiOf(driver).act("e3", "smash"))
    expect(answer).toMatchObject({ ok: false, reason: "InvalidArgument" })
    expect(JSON.stringify(answer)).toContain("click, input, clear")
  })

  it("tells refs, selectors and JavaScript conditions apart in wait", async () => {
    const { driver, waits } = recordingDriver()
    const agent = agentApiOf(driver)
    for (const text of ["e12", "#done", "li.result", "window.ready", "document.title === 'Done'", "done()"]) {
      await run(agent.wait(text))
    }
    expect(waits).toEqual([
      { ref: "e12" },
      { selector: "#done" },
      { selector: "li.result" },
      { js: "window.ready" },
      { js: "document.title === 'Done'" },
      { js: "done()" },
    ])
    expect(await run(agent.wait("e12"))).toEqual({ ok: true, elapsed: 12, actions: snapshot.actions })
  })

  it("evaluates expressions and function bodies", async () => {
    const { driver, scripts } = recordingDriver()
    const agent = agentApiOf(driver)
    expect(await run(agent.eval("document.title"))).toEqual({
      ok: true,
      result: "result",
      actions: snapshot.actions,
    })
    await run(agent.eval("return 1"))
    await run(agent.eval("const a = 1; return a"))
    expect(scripts).toEqual(["return (document.title)", "return 1", "const a = 1; return a"])
  })

  it("answers go and back with where the page ended and its actions", async () => {
    const { driver } = recordingDriver()
    const agent = agentApiOf(driver)
    expect(await run(agent.go("http://127.0.0.1/login"))).toEqual({
      ok: true,
      url: "http://127.0.0.1/login",
      title: "Sign in",
      actions: snapshot.actions,
    })
    expect(await run(agent.back())).toMatchObject({ ok: true, url: "http://127.0.0.1/" })
  })
})

describe("agentApiOf screenshot", () => {
  // Counts the screenshots the driver took, and records what happened around them.
  const countingDriver = () => {
    const { driver } = recordingDriver()
    const steps: Array<string> = []
    const counted: BrowserDriverShape = {
      ...driver,
      screenshot: () =>
        Effect.sync(() => {
          steps.push("shot")
          return new Uint8Array([1, 2, 3])
        }),
    }
    return { driver: counted, steps }
  }

  it("takes the screenshot inside maskPage and answers it as base64", async () => {
    const { driver, steps } = countingDriver()
    const agent = agentApiOf(driver, {
      maskPage: (take) =>
        Effect.sync(() => steps.push("mask")).pipe(
          Effect.andThen(take),
          Effect.ensuring(Effect.sync(() => steps.push("unmask"))),
        ),
    })
    expect(await run(agent.screenshot())).toEqual({ ok: true, png: "AQID" })
    expect(steps).toEqual(["mask", "shot", "unmask"])
  })

  it("answers MaskingFailed and takes no screenshot when maskPage fails", async () => {
    const { driver, steps } = countingDriver()
    const agent = agentApiOf(driver, {
      maskPage: () =>
        Effect.fail(
          new DriverError({
            method: "screenshot",
            reason: new MaskingFailed({ detail: "maskFields threw" }),
          }),
        ),
    })
    const answer = await run(agent.screenshot("e3"))
    expect(answer).toMatchObject({ ok: false, reason: "MaskingFailed", retryable: false })
    expect(answer).not.toHaveProperty("png")
    expect(steps).toEqual([])
  })

  it("answers MaskingFailed and takes no screenshot when built without maskPage", async () => {
    const { driver, steps } = countingDriver()
    const answer = await run(agentApiOf(driver).screenshot())
    expect(answer).toMatchObject({ ok: false, reason: "MaskingFailed", retryable: false })
    expect(answer.ok ? "" : answer.error).toContain("agentApiOf(driver, { maskPage })")
    expect(steps).toEqual([])
  })
})
