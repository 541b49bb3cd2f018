import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runMain } from "./support/Main.ts"

/**
 * `sextant run --start-url http://alice:wonderland@…/staff` in real headless Chromium on the fixture
 * site's pages behind HTTP Basic authentication: the browser signs in with the URL's password, and
 * nothing Sextant writes — the output, the store, the trace, the transcript, the HTML report — holds it.
 */

const PASSWORD = "wonderland"
let site: FixtureSite
let directory: string

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-cli-start-url-"))
})

afterAll(async () => {
  await site.close()
  rmSync(directory, { recursive: true, force: true })
})

/** Every file under `folder`, read as bytes and searched for `text`. */
const filesHolding = (folder: string, text: string): ReadonlyArray<string> =>
  readdirSync(folder, { recursive: true, encoding: "utf8" })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile() && readFileSync(path).includes(text))

describe("a password in sextant run's start URL", () => {
  it.each(["plan", "agent"])(
    "signs the browser in and is written nowhere, in %s mode",
    async (mode) => {
      const folder = join(directory, mode)
      const startUrl = site.url.replace("http://", `http://alice:${PASSWORD}@`)
      const ran = await runMain([
        "run",
        "click Rota",
        "--start-url",
        `${startUrl}/staff`,
        "--mode",
        mode,
        "--json",
        "--store",
        join(folder, "sextant.db"),
        "--trace-dir",
        join(folder, "traces"),
      ])
      expect(ran.code, ran.stderr).toBe(0)
      const result = JSON.parse(ran.stdout) as {
        status: string
        runId: string
        observations: ReadonlyArray<{ url?: string }>
      }
      // Past the HTTP Basic sign-in, on the page the link led to.
      expect(result.status).toBe("COMPLETED")
      expect(result.observations.at(-1)?.url).toMatch(/\/staff\/rota$/)
      const report = await runMain([
        "report",
        result.runId,
        "--store",
        join(folder, "sextant.db"),
        "--trace-dir",
        join(folder, "traces"),
        "--out",
        join(folder, "report.html"),
      ])
      expect(report.code, report.stderr).toBe(0)
      expect(readFileSync(join(folder, "report.html"), "utf8")).toContain("&lt;secret:start_url_password&gt;")
      expect(filesHolding(folder, PASSWORD)).toEqual([])
      // The store and the trace name it by its placeholder (the report HTML-escapes it, above).
      const naming = filesHolding(folder, "<secret:start_url_password>")
      expect(naming).toContain(join(folder, "sextant.db"))
      expect(naming.some((path) => path.endsWith(".jsonl"))).toBe(true)
      expect(ran.stdout + ran.stderr + report.stdout + report.stderr).not.toContain(PASSWORD)
    },
    60_000,
  )
})
