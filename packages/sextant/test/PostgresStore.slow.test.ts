import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { type RunningService, startPostgres } from "@sextant/testing"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAgent } from "../src/index.ts"
import { runCli } from "./support/Cli.ts"

// A run stored in PostgreSQL through createAgent({ store: "postgres://…" }), then listed by the CLI
// with `sextant runs --store postgres://…`, the way a second machine would see it.
const alice = FIXTURE_USERS[0]!
let site: FixtureSite
let postgres: RunningService

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  postgres = await startPostgres()
})
afterAll(async () => {
  await site?.close()
  await postgres?.stop()
})

describe("a PostgreSQL store through createAgent and the CLI", () => {
  it("stores a run in PostgreSQL with createAgent and lists it with `sextant runs --store postgres://…`", async () => {
    const url = postgres.url as `postgres://${string}`
    const runId = `pg-run-${Date.now()}`
    {
      await using agent = createAgent({ store: url, traceDirectory: false })
      const result = await agent.run(
        {
          goal: `log in, go to ${site.url}/products and extract name and price of the products`,
          startUrl: `${site.url}/login`,
          inputs: { username: alice.email, password: alice.password },
          secretInputs: ["password"],
          constraints: { allowFormSubmission: true },
        },
        { runId },
      )
      expect(result.status).toBe("COMPLETED")
      expect((await agent.runs()).map((run) => run.runId)).toContain(runId)
    }

    // The rows are in PostgreSQL itself, under the `sextant` schema.
    const client = new pg.Client({ connectionString: postgres.url })
    await client.connect()
    const rows = await client.query<{ status: string; task: string }>(
      "SELECT status, task FROM sextant.runs WHERE run_id = $1",
      [runId],
    )
    const observations = await client.query<{ count: string }>(
      "SELECT COUNT(*) AS count FROM sextant.observations WHERE run_id = $1",
      [runId],
    )
    await client.end()
    expect(rows.rows[0]?.status).toBe("COMPLETED")
    expect(rows.rows[0]?.task).not.toContain(alice.password)
    expect(Number(observations.rows[0]?.count)).toBeGreaterThan(0)

    const listed = await runCli(["runs", "--store", postgres.url, "--json"])
    expect(listed.code, listed.stderr).toBe(0)
    const runs = JSON.parse(listed.stdout) as Array<{ runId: string; status: string; goal: string }>
    expect(runs.find((run) => run.runId === runId)).toMatchObject({ status: "COMPLETED" })

    const table = await runCli(["runs", "--store", postgres.url, "--status", "completed"])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain(runId)
  }, 180_000)
})
