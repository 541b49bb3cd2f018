import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { Effect, Exit, Fiber, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { connect, defaultChromeArgs, launch, makeDriver } from "../src/index.ts"
import { BROWSER_ENDPOINT, devtoolsSockets } from "../src/internal/DevtoolsSocket.ts"
import { browserProcess, processesMentioning } from "../src/internal/Processes.ts"
import { freePort, pgrep } from "./support/Processes.ts"

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>, scope: Scope.Closeable) =>
  Effect.runPromise(Scope.provide(effect, scope))

describe("launch", () => {
  it("starts Chromium through ChromeDriver and leaves no process or profile behind on close", async () => {
    const scope = await Effect.runPromise(Scope.make())
    const session = await run(launch({}), scope)
    const profileDir = session.profileDir!
    expect(await session.browser.getUrl()).toBe("about:blank")
    expect(browserProcess(profileDir)).toBeTypeOf("number")
    expect(pgrep(profileDir).length).toBeGreaterThan(0)
    await Effect.runPromise(Scope.close(scope, Exit.void))
    expect(pgrep(profileDir)).toEqual([])
    expect(pgrep(`chromedriver.*--port=`).filter((pid) => pid === session.chromedriverPid)).toEqual([])
    expect(existsSync(profileDir)).toBe(false)
  })

  it("gives the page exactly the viewport it was launched with, in both protocols", async () => {
    for (const bidi of [true, false]) {
      const scope = await Effect.runPromise(Scope.make())
      try {
        const session = await run(launch({ bidi, windowSize: { width: 1280, height: 720 } }), scope)
        await session.browser.url("data:text/html,<p>viewport</p>")
        const size = await session.browser.execute("return [window.innerWidth, window.innerHeight]")
        expect(size).toEqual([1280, 720])
      } finally {
        await Effect.runPromise(Scope.close(scope, Exit.void))
      }
    }
    // Two launches, one per protocol.
  }, 60_000)

  it("runs Chromium with Playwright's quiet switches: no field trials, extensions or back-forward cache", async () => {
    const scope = await Effect.runPromise(Scope.make())
    try {
      const session = await run(launch({}), scope)
      const switches = readFileSync(`/proc/${session.browserPid}/cmdline`, "utf8").split("\0")
      expect(switches).toEqual(
        expect.arrayContaining(["--disable-field-trial-config", "--disable-extensions", "--mute-audio"]),
      )
      // ChromeDriver merges its own disabled features with Sextant's.
      const features = switches.filter((entry) => entry.startsWith("--disable-features="))
      expect(features).toHaveLength(1)
      expect(features[0]).toContain("Translate")
      expect(features[0]).toContain("IgnoreDuplicateNavs")
      // Going back loads the page again instead of thawing the old document.
      const driver = await run(makeDriver(session), scope)
      await Effect.runPromise(driver.navigate("data:text/html,<title>first</title>"))
      await Effect.runPromise(driver.evaluate("window.marker = 'kept'"))
      await Effect.runPromise(driver.navigate("data:text/html,<title>second</title>"))
      expect((await Effect.runPromise(driver.back)).title).toBe("first")
      expect(await Effect.runPromise(driver.evaluate("return window.marker ?? 'fresh'"))).toBe("fresh")
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, 60_000)

  it("runs its one tab in a fresh off-the-record browser context, and tabs the page opens join it", async () => {
    const scope = await Effect.runPromise(Scope.make())
    try {
      const session = await run(launch({}), scope)
      const sockets = devtoolsSockets(session.browser)
      const pages = async () => {
        const answer = (await sockets.send(BROWSER_ENDPOINT, "Target.getTargets", {})) as {
          result: { targetInfos: ReadonlyArray<{ targetId: string; type: string; browserContextId: string }> }
        }
        return answer.result.targetInfos.filter((target) => target.type === "page")
      }
      try {
        const [tab, ...others] = await pages()
        expect(others).toEqual([])
        expect(tab?.targetId).toBe(await session.browser.getWindowHandle())
        const contexts = (await sockets.send(BROWSER_ENDPOINT, "Target.getBrowserContexts", {})) as {
          result: { browserContextIds: ReadonlyArray<string> }
        }
        // Target.getBrowserContexts lists the contexts made besides the profile's own.
        expect(contexts.result.browserContextIds).toEqual([tab?.browserContextId])
        const driver = await run(makeDriver(session), scope)
        await Effect.runPromise(driver.navigate("data:text/html,<title>opener</title>"))
        await Effect.runPromise(driver.evaluate("window.open('about:blank', '_blank')"))
        const after = await pages()
        expect(after).toHaveLength(2)
        expect(new Set(after.map((page) => page.browserContextId))).toEqual(new Set([tab?.browserContextId]))
      } finally {
        sockets.close()
      }
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, 60_000)

  it("runs its one tab in a fresh off-the-record user context with BiDi on, and tabs the page opens join it", async () => {
    const scope = await Effect.runPromise(Scope.make())
    try {
      const session = await run(launch({ bidi: true }), scope)
      const tree = async () =>
        (
          (await session.browser.browsingContextGetTree({})) as {
            contexts: ReadonlyArray<{ context: string; userContext: string }>
          }
        ).contexts
      const [tab, ...others] = await tree()
      expect(others).toEqual([])
      expect(tab?.userContext).not.toBe("default")
      expect(tab?.context).toBe(await session.browser.getWindowHandle())
      const driver = await run(makeDriver(session), scope)
      await Effect.runPromise(driver.navigate("data:text/html,<title>opener</title>"))
      await Effect.runPromise(driver.evaluate("window.open('about:blank', '_blank')"))
      const contexts = await tree()
      expect(contexts).toHaveLength(2)
      expect(new Set(contexts.map((context) => context.userContext))).toEqual(new Set([tab?.userContext]))
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, 60_000)

  it.each([
    ["BiDi", true],
    ["Classic and the tab's DevTools socket", false],
  ])(
    "leaves the page's customElements.define and attachShadow as the browser made them, while Sextant's own actor still loads before the page's scripts (%s)",
    async (_, bidi) => {
      const scope = await Effect.runPromise(Scope.make())
      try {
        const session = await run(launch({ bidi }), scope)
        const driver = await run(makeDriver(session), scope)
        await Effect.runPromise(
          driver.navigate(
            "data:text/html,<script>window.seen = [String(customElements.define), String(Element.prototype.attachShadow), typeof globalThis.__sextant?.actor]</script><p>page</p>",
          ),
        )
        const [define, attachShadow, actorFirst] = (await Effect.runPromise(
          driver.evaluate("return window.seen"),
        )) as [string, string, string]
        expect(define).toContain("[native code]")
        expect(attachShadow).toContain("[native code]")
        // The actor Sextant preloads is there before the page's own scripts run.
        expect(actorFirst).toBe("object")
      } finally {
        await Effect.runPromise(Scope.close(scope, Exit.void))
      }
    },
    60_000,
  )

  it("ends Chromium even when ChromeDriver was killed first", async () => {
    const scope = await Effect.runPromise(Scope.make())
    const session = await run(launch({}), scope)
    process.kill(session.chromedriverPid!, "SIGKILL")
    await Effect.runPromise(Scope.close(scope, Exit.void))
    expect(processesMentioning(`--user-data-dir=${session.profileDir}`)).toEqual([])
  })

  it("ends every process when the fiber holding the session is interrupted", async () => {
    let profileDir = ""
    const fiber = Effect.runFork(
      Effect.scoped(
        Effect.flatMap(launch({}), (session) =>
          Effect.flatMap(
            Effect.sync(() => {
              profileDir = session.profileDir!
            }),
            () => Effect.never,
          ),
        ),
      ),
    )
    while (profileDir === "") await new Promise((resolve) => setTimeout(resolve, 50))
    expect(pgrep(profileDir).length).toBeGreaterThan(0)
    await Effect.runPromise(Fiber.interrupt(fiber))
    expect(pgrep(profileDir)).toEqual([])
    expect(existsSync(profileDir)).toBe(false)
  })

  it("names the env var when the Chromium binary is missing", async () => {
    const exit = await Effect.runPromiseExit(Effect.scoped(launch({ chromePath: "/nonexistent/chromium" })))
    expect(Exit.isFailure(exit)).toBe(true)
    const text = JSON.stringify(exit)
    expect(text).toContain("SEXTANT_CHROME")
    expect(text).toContain("/nonexistent/chromium")
  })

  it("names the env var when the ChromeDriver binary is missing", async () => {
    const previous = process.env.SEXTANT_CHROMEDRIVER
    process.env.SEXTANT_CHROMEDRIVER = "/nonexistent/chromedriver"
    try {
      const exit = await Effect.runPromiseExit(Effect.scoped(launch({})))
      expect(JSON.stringify(exit)).toContain("SEXTANT_CHROMEDRIVER")
    } finally {
      if (previous === undefined) delete process.env.SEXTANT_CHROMEDRIVER
      else process.env.SEXTANT_CHROMEDRIVER = previous
    }
  })
})

describe("connect", () => {
  it("opens a session on a ChromeDriver endpoint and ends it on close", async () => {
    const port = await freePort()
    const chromedriver = spawn("/usr/bin/chromedriver", [`--port=${port}`], { stdio: "ignore" })
    try {
      for (let attempt = 0; attempt < 100; attempt++) {
        const ready = await fetch(`http://127.0.0.1:${port}/status`).then(
          (response) => response.ok,
          () => false,
        )
        if (ready) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const scope = await Effect.runPromise(Scope.make())
      const session = await run(
        connect({
          port,
          capabilities: {
            browserName: "chrome",
            "goog:chromeOptions": { binary: "/usr/bin/chromium", args: [...defaultChromeArgs] },
          },
        }),
        scope,
      )
      expect(session.kind).toBe("connected")
      const sessionId = session.browser.sessionId
      expect(await session.browser.getUrl()).toBe("about:blank")
      // The same driver runs on a remote session: navigate, look, act.
      const driver = await run(makeDriver(session), scope)
      await Effect.runPromise(
        driver.navigate(`data:text/html,<button onclick="document.title='clicked'">Press</button>`),
      )
      const snapshot = await Effect.runPromise(driver.look())
      const press = snapshot.actions.find((action) => action.name === "Press")!
      await Effect.runPromise(driver.act({ ref: press.ref }, "click"))
      expect(await Effect.runPromise(driver.title)).toBe("clicked")
      await Effect.runPromise(Scope.close(scope, Exit.void))
      const sessions = await fetch(`http://127.0.0.1:${port}/session/${sessionId}/url`).then((r) => r.json())
      expect((sessions as { value: { error?: string } }).value.error).toBe("invalid session id")
    } finally {
      chromedriver.kill("SIGKILL")
    }
  })

  it("fails with DriverCrashed naming the endpoint when nothing listens", async () => {
    const port = await freePort()
    const exit = await Effect.runPromiseExit(Effect.scoped(connect({ port })))
    const text = JSON.stringify(exit)
    expect(text).toContain("DriverCrashed")
    expect(text).toContain(`127.0.0.1:${port}`)
  })
})
