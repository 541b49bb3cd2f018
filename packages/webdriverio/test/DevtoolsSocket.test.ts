import type { BrowserDriverShape } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DriverSession, launch, makeDriver } from "../src/index.ts"
import { devtoolsSockets } from "../src/internal/DevtoolsSocket.ts"
import { countMessages, type MessageCounts } from "./support/Messages.ts"

let site: FixtureSite
let scope: Scope.Closeable
let session: DriverSession
let driver: BrowserDriverShape
let counts: MessageCounts

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
  scope = await Effect.runPromise(Scope.make())
  session = await Effect.runPromise(Scope.provide(launch({}), scope))
  counts = countMessages(session.browser)
  driver = await Effect.runPromise(Scope.provide(makeDriver(session), scope))
}, 60_000)

afterAll(async () => {
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
  await site?.close()
})

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

describe("devtoolsSockets", () => {
  it("answers a command on the tab's own DevTools socket and nothing for an unknown tab or after close", async () => {
    const sockets = devtoolsSockets(session.browser)
    const handle = await session.browser.getWindowHandle()
    const answer = await sockets.send(handle, "Runtime.evaluate", {
      expression: "6 * 7",
      returnByValue: true,
    })
    expect(answer?.result).toMatchObject({ result: { value: 42 } })
    expect(await sockets.send("no-such-target", "Runtime.evaluate", { expression: "1" })).toBeUndefined()
    sockets.close()
    expect(await sockets.send(handle, "Runtime.evaluate", { expression: "1" })).toBeUndefined()
  })

  it("answers nothing on a session that does not say where Chrome's debugger listens", async () => {
    const remote = { capabilities: { browserName: "chrome" } } as unknown as WebdriverIO.Browser
    expect(await devtoolsSockets(remote).send("any", "Runtime.evaluate", { expression: "1" })).toBeUndefined()
  })
})

describe("look over the tab's DevTools socket", () => {
  it("sends each look as one socket message, no HTTP request, and follows the tab it switched to", async () => {
    await run(driver.navigate(`${site.url}/login`))
    await run(driver.look())
    const before = { ...counts }
    const login = await run(driver.look())
    expect(counts.socket - before.socket).toBe(1)
    expect(counts.http - before.http).toBe(0)
    expect(login.url).toBe(`${site.url}/login`)

    await run(driver.evaluate(`window.open(${JSON.stringify(`${site.url}/products`)}, "_blank")`))
    const other = (await run(driver.tabs)).find((tab) => !tab.active)!
    await run(driver.switchTab(other.handle))
    const products = await run(driver.look())
    expect(products.url).toBe(`${site.url}/products`)

    await run(driver.closeTab(other.handle))
    const back = await run(driver.look())
    expect(back.url).toBe(`${site.url}/login`)
  })
})
