import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runMain } from "./support/Main.ts"

/**
 * A password given as a plain `--input` instead of `--secret`, as a user following a login example is
 * likely to write it: the value would go in clear into the trace, the transcript, the store (and the
 * prompts of a model), or into Redis for `enqueue`. The CLI refuses it before anything starts, names
 * `--secret` and the variable, and never repeats the value.
 */

const PASSWORD = "wonderland-in-clear"
const directory = mkdtempSync(join(tmpdir(), "sextant-credential-input-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe("an --input named like a credential", () => {
  it("is refused by sextant run, naming --secret, before a browser, a trace or a store is opened", async () => {
    const traces = join(directory, "traces")
    const store = join(directory, "sextant.db")
    for (const name of ["password", "api_key", "accessToken"]) {
      const run = await runMain([
        "run",
        "log in",
        "--start-url",
        "http://127.0.0.1:9/login",
        "--input",
        "username=alice@example.com",
        "--input",
        `${name}=${PASSWORD}`,
        "--store",
        store,
        "--trace-dir",
        traces,
      ])
      expect(run.code).toBe(2)
      const said = `${run.stdout}${run.stderr}`
      expect(said).toContain(`--input: ${name} is named like a credential`)
      expect(said).toContain(
        `give it with --secret ${name} (its value from SEXTANT_SECRET_${name.toUpperCase()}`,
      )
      expect(said).not.toContain(PASSWORD)
    }
    expect(existsSync(traces) ? readdirSync(traces) : []).toEqual([])
    expect(existsSync(store)).toBe(false)
  })

  it("is refused by sextant enqueue before Redis is asked, naming the variable each worker reads", async () => {
    const run = await runMain([
      "enqueue",
      "--queue",
      "redis://127.0.0.1:9",
      "--goal",
      "log in",
      "--input",
      `password=${PASSWORD}`,
    ])
    expect(run.code).toBe(2)
    const said = `${run.stdout}${run.stderr}`
    expect(said).toContain(
      "--input: password is named like a credential, and an input travels in clear through Redis",
    )
    expect(said).toContain(
      "give it with --secret password, and each worker reads its value from SEXTANT_SECRET_PASSWORD",
    )
    expect(said).not.toContain(PASSWORD)
  })
})
