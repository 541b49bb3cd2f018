import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, runNode } from "@sextant/testing"
import { afterAll, describe, expect, it } from "vitest"
import { createAgent, isAgentError, isStoreError } from "../src/index.ts"
import { runMain } from "./support/Main.ts"

// The store option's PostgreSQL side that needs no server: bad URLs, a server that is not there, and
// SQLite users never loading the PostgreSQL client. The slow set stores runs in a real server.
const folder = mkdtempSync(join(tmpdir(), "sextant-store-option-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const thrown = (body: () => unknown): unknown => {
  try {
    body()
  } catch (error) {
    return error
  }
  throw new Error("expected a throw")
}

describe("createAgent's store option for PostgreSQL", () => {
  it("rejects a postgres:// URL without a host at once, naming the field and the form to write", () => {
    const error = thrown(() => createAgent({ store: "postgres:///sextant", traceDirectory: false }))
    expect(isAgentError(error)).toBe(true)
    expect((error as Error).message).toContain("options.store: postgres:///sextant is not a PostgreSQL URL")
    expect((error as Error).message).toContain("postgres://user:password@host:5432/database")
    const nested = thrown(() =>
      createAgent({ store: { url: "postgresql://:5432/x" }, traceDirectory: false }),
    )
    expect((nested as Error).message).toContain("options.store.url:")
  })

  it("rejects a store string that is neither memory nor a PostgreSQL URL, naming the forms it takes", () => {
    const error = thrown(() =>
      createAgent({ store: "mysql://root@127.0.0.1/db" as "memory", traceDirectory: false }),
    )
    expect(isAgentError(error)).toBe(true)
    expect((error as Error).message).toContain(
      'options.store: must be "memory", { path: "store.db" }, or a PostgreSQL URL',
    )
  })

  it("fails to open a PostgreSQL store nobody serves with a StoreError naming the option, what to do, and no password", async () => {
    const port = await freePort()
    const agent = createAgent({
      store: `postgres://sextant:hunter2@127.0.0.1:${port}/sextant`,
      traceDirectory: false,
    })
    const error = await agent.runs().then(
      () => undefined,
      (rejection: unknown) => rejection,
    )
    await agent.close()
    expect(isStoreError(error)).toBe(true)
    const message = (error as Error).message
    expect(message).toContain(`postgres://sextant:***@127.0.0.1:${port}/sextant (options.store)`)
    expect(message).toContain("is the PostgreSQL server running")
    expect(message).toContain("scripts/services start postgres")
    expect(message).not.toContain("hunter2")
  })

  it("never loads the PostgreSQL client for an SQLite or in-memory store, and loads it for a postgres:// one", async () => {
    const script = join(import.meta.dirname, "support", "store-modules.ts")
    const run = async (store: string) => {
      const result = await runNode(["--conditions=sextant-source", script, store])
      expect(result.code, result.output).toBe(0)
      return JSON.parse(result.output.trim().split("\n").at(-1) ?? "{}") as {
        opened: string
        pgLoaded: boolean
      }
    }
    expect(await run("memory")).toEqual({ opened: "ok", pgLoaded: false })
    expect(await run(join(folder, "plain.db"))).toEqual({ opened: "ok", pgLoaded: false })
    // Nothing listens there: opening fails, but only after the PostgreSQL store (and pg) was loaded.
    const port = await freePort()
    expect(await run(`postgres://127.0.0.1:${port}/sextant`)).toEqual({
      opened: "StoreUnavailable",
      pgLoaded: true,
    })
  }, 60_000)
})

describe("sextant runs --store with a URL", () => {
  it("refuses a URL scheme it does not know as a usage error naming --store", async () => {
    const result = await runMain(["runs", "--store", "mysql://root@127.0.0.1/db"], { cwd: folder })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("sextant runs: --store: mysql:// is not a store Sextant knows")
  })

  it("says which --store could not be opened and how to start a server when nothing listens there", async () => {
    const port = await freePort()
    const result = await runMain(
      ["runs", "--store", `postgres://sextant:hunter2@127.0.0.1:${port}/sextant`],
      {
        cwd: folder,
      },
    )
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      `sextant runs: --store postgres://sextant:***@127.0.0.1:${port}/sextant: cannot open the store`,
    )
    expect(result.stderr).toContain("scripts/services start postgres")
    expect(result.stderr).not.toContain("hunter2")
  })
})
