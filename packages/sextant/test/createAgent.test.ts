import { execFile, execFileSync } from "node:child_process"
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  FIXTURE_PRODUCTS,
  FIXTURE_USERS,
  type FixtureSite,
  PRODUCTS_PER_PAGE,
  startFixtureSite,
} from "@sextant/fixture-site"
import { SqliteStore } from "@sextant/memory"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AgentTaskInput, createAgent, isAgentError, type TraceRecord } from "../src/index.ts"

let site: FixtureSite
let directory: string
const alice = FIXTURE_USERS[0] as (typeof FIXTURE_USERS)[number]

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-facade-"))
})

afterAll(async () => {
  await site.close()
  rmSync(directory, { recursive: true, force: true })
})

/** Chromium and ChromeDriver processes started by this test process. */
/** The Chromium and ChromeDriver processes this test process started (its descendants), by pid. */
const browserProcesses = (): ReadonlySet<number> => {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,comm="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
  const children = new Set([process.pid])
  let grew = true
  while (grew) {
    grew = false
    for (const [pid, ppid] of rows) {
      if (children.has(Number(ppid)) && !children.has(Number(pid))) {
        children.add(Number(pid))
        grew = true
      }
    }
  }
  return new Set(
    rows
      .filter(([pid, , command]) => children.has(Number(pid)) && /chrom/i.test(command ?? ""))
      .map(([pid]) => Number(pid)),
  )
}

/**
 * The browser processes that are here now and were not at `before`: what a run left behind. (A count
 * would be fooled by an earlier test's browser still exiting while the run's own stays.)
 */
const startedSince = (before: ReadonlySet<number>): ReadonlyArray<number> =>
  [...browserProcesses()].filter((pid) => !before.has(pid))

const loginTask = (): AgentTaskInput => ({
  goal: "log in and extract the products",
  startUrl: `${site.url}/login`,
  inputs: { username: alice.email, password: alice.password },
  secretInputs: ["password"],
  constraints: { allowFormSubmission: true },
})

// The login + extract plan over the primitive browser tools of @sextant/tools.
const loginPlan = () => ({
  steps: [
    { index: 0, tool: "navigate", args: { url: `${site.url}/login` } },
    { index: 1, tool: "fill", args: { target: "#email", value: "{{inputs.username}}" } },
    { index: 2, tool: "fill", args: { target: "#password", value: "<secret:password>" } },
    {
      index: 3,
      tool: "click",
      args: { target: "#login-btn" },
      successCriteria: [{ type: "textPresent" as const, text: `Welcome, ${alice.name}` }],
    },
    { index: 4, tool: "navigate", args: { url: `${site.url}/products` } },
    {
      index: 5,
      tool: "extract",
      args: { target: "li[data-product-id] h2", all: true },
      successCriteria: [
        { type: "minItems" as const, selector: "li[data-product-id]", min: PRODUCTS_PER_PAGE },
      ],
    },
  ],
})

describe("createAgent", () => {
  it("createAgent() with no options logs in and extracts the products, keeping its store and traces under .sextant/", async () => {
    // In a child process started in an empty folder, the way a user's script runs with the defaults.
    const folder = mkdtempSync(join(tmpdir(), "sextant-defaults-"))
    try {
      const script = join(import.meta.dirname, "support", "default-agent.ts")
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ["--conditions=sextant-source", script, site.url, alice.email, alice.password],
          { cwd: folder, timeout: 120_000 },
          (error, out, err) =>
            error === null ? resolve(out) : reject(new Error(`${error.message}\n${err}`)),
        ),
      )
      const answer = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
        runId: string
        status: string
        output: ReadonlyArray<{ name: string }>
      }
      expect(answer.status).toBe("COMPLETED")
      expect(answer.output.map((record) => record.name).sort()).toEqual(
        FIXTURE_PRODUCTS.slice(0, PRODUCTS_PER_PAGE)
          .map((product) => product.name)
          .sort(),
      )
      const database = join(folder, ".sextant", "sextant.db")
      expect(existsSync(database)).toBe(true)
      const stored = await Effect.runPromise(
        Effect.scoped(
          Effect.flatMap(SqliteStore.make({ path: database }), (store) => store.getRun(answer.runId)),
        ),
      )
      expect(stored.status).toBe("COMPLETED")
      const trace = readFileSync(join(folder, ".sextant", "traces", `${answer.runId}.jsonl`), "utf8")
      expect(trace).toContain("run-end")
      expect(trace).not.toContain(alice.password)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 150_000)

  it("runs a given login + extract plan on the local Chromium and an SQLite file, writing no secret to its files", async () => {
    const traces = join(directory, "traces")
    await using agent = createAgent({
      store: { path: join(directory, "sextant.db") },
      traceDirectory: traces,
    })
    const result = await agent.run(loginTask(), { plan: loginPlan(), runId: "facade-login" })
    expect(result.status, JSON.stringify(result.observations.map((o) => [o.tool, o.ok, o.message]))).toBe(
      "COMPLETED",
    )
    expect([...(result.output as ReadonlyArray<string>)].sort()).toEqual(
      FIXTURE_PRODUCTS.slice(0, PRODUCTS_PER_PAGE)
        .map((product) => product.name)
        .sort(),
    )
    const trace = readFileSync(join(traces, "facade-login.jsonl"), "utf8")
    const transcript = readFileSync(join(traces, "facade-login.transcript.txt"), "utf8")
    for (const sink of [trace, transcript, JSON.stringify(result)]) expect(sink).not.toContain(alice.password)
    expect(trace).toContain("<secret:password>")
  })

  it("with no plan given, the rule planner and the compound tools log in and extract the products", async () => {
    const traces = join(directory, "traces-rules")
    await using agent = createAgent({ store: { path: join(directory, "rules.db") }, traceDirectory: traces })
    const result = await agent.run(
      {
        ...loginTask(),
        goal: `log in, go to ${site.url}/products and extract name and price of the products`,
      },
      { runId: "facade-rules" },
    )
    expect(result.status, JSON.stringify(result.observations.map((o) => [o.tool, o.ok, o.message]))).toBe(
      "COMPLETED",
    )
    // The validator puts its login guard (wait until the password field is gone) after the login.
    expect(result.plan?.steps.map((step) => step.tool)).toEqual([
      "navigate",
      "login",
      "waitFor",
      "navigate",
      "extractList",
    ])
    const names = (result.output as ReadonlyArray<{ name: string }>).map((record) => record.name).sort()
    expect(names).toEqual(
      FIXTURE_PRODUCTS.slice(0, PRODUCTS_PER_PAGE)
        .map((product) => product.name)
        .sort(),
    )
    const files = [
      readFileSync(join(traces, "facade-rules.jsonl"), "utf8"),
      readFileSync(join(traces, "facade-rules.transcript.txt"), "utf8"),
    ]
    for (const sink of files) expect(sink).not.toContain(alice.password)
  })

  it("runMany runs each task in its own session and answers in task order", async () => {
    await using agent = createAgent({ store: "memory", traceDirectory: false })
    const pages = [2, 3]
    const outcomes = await agent.runMany(
      pages.map((page) => ({
        goal: "extract name and price of the products",
        startUrl: `${site.url}/products?page=${page}`,
      })),
      { concurrency: 2 },
    )
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true])
    pages.forEach((page, index) => {
      const outcome = outcomes[index]
      const names =
        outcome?.ok === true
          ? (outcome.result.output as ReadonlyArray<{ name: string }>).map((record) => record.name)
          : []
      expect(names.sort()).toEqual(
        FIXTURE_PRODUCTS.slice((page - 1) * PRODUCTS_PER_PAGE, page * PRODUCTS_PER_PAGE)
          .map((product) => product.name)
          .sort(),
      )
    })
  })

  it("runMany owns exactly one browser per task", async () => {
    // A ChromeDriver that logs each start, so the test counts the browsers the batch launched.
    const log = join(directory, "chromedriver-starts.log")
    const wrapper = join(directory, "counting-chromedriver")
    writeFileSync(wrapper, `#!/bin/sh\necho start >> "${log}"\nexec /usr/bin/chromedriver "$@"\n`)
    chmodSync(wrapper, 0o755)
    const previous = process.env.SEXTANT_CHROMEDRIVER
    process.env.SEXTANT_CHROMEDRIVER = wrapper
    try {
      await using agent = createAgent({ store: "memory", traceDirectory: false })
      const outcomes = await agent.runMany(
        [1, 2, 3].map((page) => ({
          goal: "extract name and price of the products",
          startUrl: `${site.url}/products?page=${page}`,
        })),
        { concurrency: 2 },
      )
      expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true, true])
      expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(3)
    } finally {
      if (previous === undefined) delete process.env.SEXTANT_CHROMEDRIVER
      else process.env.SEXTANT_CHROMEDRIVER = previous
    }
  })

  it("rejects bad input with a tagged AgentError that names the field", async () => {
    await using agent = createAgent({ store: "memory", traceDirectory: false })
    const error = await agent
      .run({ goal: "", constraints: { maxSteps: -3 } })
      .catch((caught: unknown) => caught)
    expect(isAgentError(error)).toBe(true)
    expect(String((error as Error).message)).toContain("task.constraints.maxSteps")
    expect(() => createAgent({ concurrency: 0 })).toThrow(/options.concurrency/)
    const notATool = { name: "shout", description: "", input: {}, output: {}, effects: {}, run: () => 1 }
    expect(() => createAgent({ tools: [notATool] })).toThrow(
      /options\.tools\[0\]\.input: must be a zod schema/,
    )
  })

  it("streams the trace events of a run", async () => {
    await using agent = createAgent({ store: "memory", traceDirectory: false })
    const seen: Array<TraceRecord["type"]> = []
    for await (const event of agent.events(
      { goal: "open the products page", startUrl: `${site.url}/products` },
      { plan: { steps: [{ index: 0, tool: "navigate", args: { url: `${site.url}/products` } }] } },
    )) {
      seen.push(event.type)
    }
    expect(seen[0]).toBe("run-start")
    expect(seen).toContain("step-end")
    expect(seen.at(-1)).toBe("run-end")
  })

  it("leaving the events loop early aborts the run and closes its browser", async () => {
    await using agent = createAgent({ store: "memory", traceDirectory: false })
    const before = browserProcesses()
    const seen: Array<string> = []
    for await (const event of agent.events(
      { goal: "wait on the products page", startUrl: `${site.url}/products` },
      {
        plan: {
          steps: [
            { index: 0, tool: "navigate", args: { url: `${site.url}/products` } },
            { index: 1, tool: "delay", args: { ms: 20_000 } },
          ],
        },
      },
    )) {
      seen.push(event.type)
      if (event.type === "step-start" && event.step === 1) break
    }
    expect(seen).toContain("step-end")
    const settleBy = Date.now() + 5_000
    while (startedSince(before).length > 0 && Date.now() < settleBy)
      await new Promise((resolve) => setTimeout(resolve, 100))
    expect(startedSince(before)).toEqual([])
  })

  it("an aborted run rejects with Cancelled and leaves no Chromium or ChromeDriver behind", async () => {
    await using agent = createAgent({ store: "memory", traceDirectory: false })
    const before = browserProcesses()
    const controller = new AbortController()
    const running = agent.run(
      { goal: "wait on the products page", startUrl: `${site.url}/products` },
      {
        signal: controller.signal,
        plan: {
          steps: [
            { index: 0, tool: "navigate", args: { url: `${site.url}/products` } },
            { index: 1, tool: "delay", args: { ms: 20_000 } },
          ],
        },
        onEvent: (event) => {
          if (event.type === "step-start" && event.tool === "delay") controller.abort()
        },
      },
    )
    const error = await running.catch((caught: unknown) => caught)
    expect(isAgentError(error) && error.reason._tag, String(error)).toBe("Cancelled")
    const settleBy = Date.now() + 5_000
    while (startedSince(before).length > 0 && Date.now() < settleBy)
      await new Promise((resolve) => setTimeout(resolve, 100))
    expect(startedSince(before)).toEqual([])
  })
})
