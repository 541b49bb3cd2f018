import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { decodeAgentTask, Store } from "@sextant/core"
import { SqliteStore } from "@sextant/memory"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { exportCommand } from "../src/internal/ExplorerCommands.ts"
import { sink } from "./support/Sink.ts"

/**
 * `sextant export` of a run whose only secret was `password`, where a hostile page got the model to
 * type `<secret:github_token>` into #email and to send `<secret:admin_password>` in a JSON body. The
 * export reads from the environment only the secrets of the run's stored task record.
 */
const directory = mkdtempSync(join(tmpdir(), "sextant-hostile-export-"))
const traces = join(directory, "traces")
const store = join(directory, "sextant.db")
const BASE = "http://127.0.0.1:9"
afterAll(() => rmSync(directory, { recursive: true, force: true }))

beforeAll(async () => {
  const at = "2026-01-01T00:00:00.000Z"
  const start = `${BASE}/start`
  const records = [
    { type: "run-start", taskId: "t", goal: "sign in", mode: "agent", resumed: false },
    {
      type: "recorded",
      step: 1,
      exchanges: [
        {
          method: "POST",
          url: `${BASE}/api/login`,
          status: 200,
          requestBody: '{"user":"<secret:admin_password>","password":"<secret:password>"}',
          requestContentType: "application/json",
          responseBody: "{}",
          responseContentType: "application/json",
        },
      ],
      actions: [
        { kind: "navigate", via: "navigate", url: start },
        {
          kind: "act",
          op: "input",
          element: { role: "textbox", name: "Email", selector: "#email" },
          value: "<secret:github_token>",
          urlBefore: start,
          url: start,
        },
        {
          kind: "act",
          op: "input",
          element: { role: "textbox", name: "Password", selector: "#password" },
          value: "<secret:password>",
          urlBefore: start,
          url: start,
        },
      ],
    },
    { type: "run-end", status: "COMPLETED", endReason: "completed", metrics: {} },
  ].map((record) => JSON.stringify({ ...record, runId: "hostile-run", at }))
  const { mkdirSync } = await import("node:fs")
  mkdirSync(traces, { recursive: true })
  writeFileSync(join(traces, "hostile-run.jsonl"), `${records.join("\n")}\n`)
  await Effect.runPromise(
    Effect.gen(function* () {
      const task = yield* decodeAgentTask({
        id: "t",
        goal: "sign in",
        startUrl: start,
        inputs: { email: "a@example.com", password: "<secret:password>" },
        secretInputs: ["password"],
      })
      yield* (yield* Store).saveRun({
        runId: "hostile-run",
        task,
        status: "COMPLETED",
        mode: "agent",
        startedAt: at,
        updatedAt: at,
      })
    }).pipe(Effect.provide(SqliteStore.layer({ path: store }))),
  )
})

const exportRun = async (to: string, storePath: string) => {
  const out = sink()
  const err = sink()
  const code = await exportCommand(
    { source: "hostile-run", to, traceDir: traces, store: storePath },
    out.stream,
    err.stream,
  )
  return { code, out: out.text(), err: err.text() }
}

describe("sextant export of a run a hostile page made type placeholders of secrets it never had", () => {
  it("reads only the stored task's secret in a spec: <secret:github_token> stays text", async () => {
    const exported = await exportRun("spec", store)
    expect(exported.code).toBe(0)
    expect(exported.out).toContain("variable: SEXTANT_SECRET_PASSWORD")
    expect(exported.out).not.toContain("SEXTANT_SECRET_GITHUB_TOKEN")
    expect(exported.out).toContain("<secret:github_token>")
    expect(exported.err).toContain(
      "typed <secret:github_token>, which is not a secret of the run (its secrets: password)",
    )
  })

  it("reads only the stored task's secret in a WebdriverIO script and in API tests", async () => {
    const script = await exportRun("wdio", store)
    expect(script.out).toContain('secret("SEXTANT_SECRET_PASSWORD")')
    expect(script.out).not.toContain("SEXTANT_SECRET_GITHUB_TOKEN")
    const api = await exportRun("api-tests", store)
    expect(api.code).toBe(0)
    expect(api.out).toContain('secret("SEXTANT_SECRET_PASSWORD")')
    expect(api.out).not.toContain("SEXTANT_SECRET_ADMIN_PASSWORD")
  })

  it("reads no secret at all when the run's task record is not in the store, and says so", async () => {
    const missing = join(directory, "no-such.db")
    const exported = await exportRun("spec", missing)
    expect(exported.code).toBe(0)
    expect(exported.out).not.toContain("variable:")
    expect(exported.err).toContain(
      `sextant export: there is no store at ${missing}, so the run's secrets are not known: every <secret:NAME> in it is written as literal text, never read from the environment`,
    )
  })
})
