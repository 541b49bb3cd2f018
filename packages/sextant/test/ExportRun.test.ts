import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { readRunTrace } from "@sextant/executor"
import { type FixtureSite, LINK_SIGN_IN_TOKENS, startFixtureSite } from "@sextant/fixture-site"
import { runNode } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAgent } from "../src/index.ts"
import { exportCommand } from "../src/internal/ExplorerCommands.ts"
import { sink } from "./support/Sink.ts"

// Inside the package, so an exported file's `webdriverio`, `vitest` and `zod` imports resolve as in a
// user's project.
const directory = mkdtempSync(join(import.meta.dirname, "..", ".exported-"))
const traces = join(directory, "traces")
// The runs' task records: an export reads from the environment only the secrets a run's task was given.
const store = join(directory, "sextant.db")
const vitest = join(createRequire(import.meta.url).resolve("vitest/package.json"), "..", "vitest.mjs")
let site: FixtureSite

beforeAll(async () => {
  site = await startFixtureSite()
})
afterAll(async () => {
  await site?.close()
  rmSync(directory, { recursive: true, force: true })
})

/** `sextant export` as the CLI runs it, answering its exit code and what it printed. */
const exportRun = async (source: string, to: string, out?: string) => {
  const stdout = sink()
  const stderr = sink()
  const code = await exportCommand(
    { source, to, traceDir: traces, store, ...(out === undefined ? {} : { out }) },
    stdout.stream,
    stderr.stream,
  )
  return { code, out: stdout.text(), err: stderr.text() }
}

/** Runs a goal on the fixture site with the run recorded into `traces`; answers its status and last URL. */
const recordRun = async (runId: string, goal: string, startPath: string, recordTraffic: boolean) => {
  const agent = createAgent({ store: { path: store }, traceDirectory: traces, recordTraffic })
  try {
    const result = await agent.run(
      {
        goal,
        startUrl: `${site.url}${startPath}`,
        inputs: { username: "alice@example.com", password: "wonderland" },
        secretInputs: ["password"],
        constraints: { allowFormSubmission: true },
      },
      { runId },
    )
    const ends = readRunTrace(join(traces, `${runId}.jsonl`)).flatMap((record) =>
      record.type === "step-end" && record.url !== undefined ? [record.url] : [],
    )
    return { status: result.status, endedOn: ends[ends.length - 1] }
  } finally {
    await agent.close()
  }
}

describe("sextant export RUN --to wdio", () => {
  it("writes a script from a recorded login that plain WebdriverIO runs to the same end state, the password read from the environment", async () => {
    const run = await recordRun("export-login", "log in", "/login", false)
    expect(run.status).toBe("COMPLETED")
    expect(run.endedOn).toBe(`${site.url}/dashboard`)

    const file = join(directory, "login.wdio.ts")
    const exported = await exportRun("export-login", "wdio", file)
    expect(exported.err).toBe("")
    expect(exported.code).toBe(0)
    const script = readFileSync(file, "utf8")
    expect(script).not.toMatch(/@sextant\//)
    expect(script).not.toContain("wonderland")
    expect(script).toContain('secret("SEXTANT_SECRET_PASSWORD")')
    // Elements by selector with role and name to fall back on, never by a ref of the run.
    expect(script).toContain('await find("#password", "textbox", "Password")')
    expect(script).not.toMatch(/"e\d+"/)

    // The two replays are separate Node processes with their own Chromium: they run side by side.
    const [replay, wrong] = await Promise.all([
      runNode([file], { BASE_URL: site.url, SEXTANT_SECRET_PASSWORD: "wonderland" }),
      runNode([file], { BASE_URL: site.url, SEXTANT_SECRET_PASSWORD: "not-the-password" }),
    ])
    expect(replay.output).toContain(`(ended on ${site.url}/dashboard)`)
    expect(replay.code).toBe(0)

    expect(wrong.output).toMatch(/FAILED log in: expected the URL contains "\/dashboard"/)
    expect(wrong.code).toBe(1)
  }, 240_000)

  it("writes the same run as a test spec `sextant test` reads, with the goal's verified end state asserted", async () => {
    const exported = await exportRun("export-login", "spec")
    expect(exported.code).toBe(0)
    expect(exported.out).toContain("startUrl: /login")
    expect(exported.out).toContain("variable: SEXTANT_SECRET_PASSWORD")
    expect(exported.out).toMatch(/type: UrlContains\n\s+text: \/dashboard/)
  })
})

describe("sextant export of a run that did not reach its goal", () => {
  it("refuses to write a test named after the goal, and with --unfinished writes a replay named as one", async () => {
    const goal = "log in and then click the Archive everything button"
    const run = await recordRun("export-unmet", goal, "/login", false)
    // It logged in, then found no such button.
    expect(run.status).toBe("FAILED")
    expect(run.endedOn).toBe(`${site.url}/dashboard`)

    const file = join(directory, "unmet.wdio.ts")
    const refused = await exportRun("export-unmet", "wdio", file)
    expect(refused.code).toBe(1)
    expect(refused.err).toContain(
      `export-unmet ended FAILED (plan-failed) and did not verify "click "Archive everything" button": a test of "${goal}" would pass without the goal reached`,
    )
    expect(refused.err).toContain("--unfinished")
    expect(existsSync(file)).toBe(false)
    expect((await exportRun("export-unmet", "spec")).code).toBe(1)

    const replayed = await exportCommand(
      { source: "export-unmet", to: "wdio", traceDir: traces, store, out: file, unfinished: true },
      sink().stream,
      sink().stream,
    )
    expect(replayed).toBe(0)
    const replay = await runNode([file], { BASE_URL: site.url, SEXTANT_SECRET_PASSWORD: "wonderland" })
    expect(replay.code).toBe(0)
    expect(replay.output).toContain(
      `ok replay of an unfinished run (ended FAILED (plan-failed)), its goal not asserted: ${goal}`,
    )
    expect(replay.output).not.toContain(`ok ${goal}`)
  }, 240_000)
})

describe("a run on a site that puts its session in a URL and in its JSON calls", () => {
  it("keeps the tokens out of the trace and the exported API tests, which still call the endpoint", async () => {
    const run = await recordRun("link-tokens", "click Open my account", "/hostile/link-sign-in", true)
    expect(run.status).toBe("COMPLETED")
    expect(run.endedOn).toBe(
      `${site.url}/hostile/link-sign-in/home?session_token=<secret:page_url_session_token>#access_token=<secret:page_url_access_token>&state=ok`,
    )
    const trace = readFileSync(join(traces, "link-tokens.jsonl"), "utf8")
    // The page's call was recorded, with the token it was answered as a placeholder.
    expect(trace).toContain('\\"access_token\\":\\"<secret:page_json_access_token>\\"')
    const api = await exportRun("link-tokens", "api-tests")
    expect(api.code).toBe(0)
    expect(api.out).toContain('it("POST /api/link-session answers 200 with the observed shape"')
    const showing = Object.entries({ trace, api: api.out }).flatMap(([where, text]) =>
      Object.values(LINK_SIGN_IN_TOKENS).some((token) => text.includes(token)) ? [where] : [],
    )
    expect(showing).toEqual([])
  }, 240_000)
})

describe("sextant export RUN --to api-tests", () => {
  it("writes vitest tests from a search and add-to-cart run that pass, and fail when the API changes a field's type", async () => {
    const run = await recordRun(
      "export-cart",
      'type "brass" into the search box, then open /products/3 and click "Add to cart"',
      "/search",
      true,
    )
    expect(run.status).toBe("COMPLETED")
    const file = join(directory, "cart.api.test.ts")
    const exported = await exportRun("export-cart", "api-tests", file)
    expect(exported.code).toBe(0)
    const source = readFileSync(file, "utf8")
    expect(source).toContain('it("GET /api/suggest?q=brass answers 200 with the observed shape"')
    expect(source).toContain('it("POST /api/cart answers 200 with the observed shape"')
    expect(source).toContain('body: "{\\"productId\\":3,\\"quantity\\":1}"')

    writeFileSync(
      join(directory, "vitest.config.mjs"),
      `export default { test: { include: ["*.test.ts"] } }\n`,
    )
    const passing = await runNode([vitest, "run", "--root", directory, file], { API_BASE_URL: site.url })
    expect(passing.output).toMatch(/Tests\s+2 passed/)
    expect(passing.code).toBe(0)

    const changed = await startFixtureSite({ drift: ["cart-quantity-text"] })
    try {
      const failing = await runNode([vitest, "run", "--root", directory, file], { API_BASE_URL: changed.url })
      expect(failing.output).toContain("items.0.quantity: Invalid input: expected number, received string")
      expect(failing.code).toBe(1)
    } finally {
      await changed.close()
    }
  }, 240_000)

  it("says what to do when the run kept no traffic, the source is a spec, or there is no such run", async () => {
    const untracked = await exportRun("export-login", "api-tests")
    expect(untracked.err).toContain(
      "export-login recorded no JSON traffic: run it again with --record-traffic",
    )
    expect(untracked.code).toBe(1)

    const spec = join(directory, "login.yaml")
    writeFileSync(spec, (await exportRun("export-login", "spec")).out)
    const fromSpec = await exportRun(spec, "api-tests")
    expect(fromSpec.err).toContain("--to: api-tests needs a recorded run, not a spec file")
    expect(fromSpec.code).toBe(2)

    await expect(exportRun("no-such-run", "wdio")).rejects.toThrow(
      `no-such-run: no such spec file, and no trace of a run with that id at ${join(traces, "no-such-run.jsonl")}`,
    )
    const badTarget = await exportRun("export-login", "selenium")
    expect(badTarget.err).toContain("sextant export: --to: write wdio")
    expect(badTarget.code).toBe(2)
  })
})
