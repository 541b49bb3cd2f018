import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type AttackerOrigin, startAttackerOrigin } from "@sextant/fixture-site"
import { descendantPids, type RunningGrid, startGrid } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest"
import { createAgent, type TraceRecord } from "../src/index.ts"
import { lookAt } from "../src/internal/LookCommand.ts"
import { runGoal } from "../src/internal/RunCommand.ts"
import { summaryLines } from "../src/internal/RunOutput.ts"
import { sink } from "./support/Sink.ts"

// Browsers on a Selenium Grid 4 of a hub and two nodes (system Chromium and ChromeDriver), as a user
// with `browser: { grid }` or `--grid` gets them.

let grid: RunningGrid
let site: AttackerOrigin
beforeAll(async () => {
  // One session per node, as grids in containers run them: two runs at once need both nodes.
  grid = await startGrid({ nodes: 2, sessionsPerNode: 1 })
  // A site that logs every request it gets: what the browser really sent, and how often.
  site = await startAttackerOrigin()
}, 180_000)
afterAll(async () => {
  await site?.close()
  await grid?.stop()
})

interface Status {
  readonly value: {
    readonly nodes: ReadonlyArray<{
      readonly id: string
      readonly availability: string
      readonly slots: ReadonlyArray<{ readonly session: { readonly sessionId: string } | null }>
    }>
  }
}

const status = async (): Promise<Status> => (await fetch(`${grid.url}/status`)).json() as Promise<Status>

/** The ids of the nodes that hold a session now, with how many each holds. */
const busyNodes = async (): Promise<Map<string, number>> => {
  const busy = new Map<string, number>()
  for (const node of (await status()).value.nodes) {
    const sessions = node.slots.filter((slot) => slot.session !== null).length
    if (sessions > 0) busy.set(node.id, sessions)
  }
  return busy
}

/**
 * A plan of `pages` navigations, each a side effect the site logs once per load, each followed by an
 * extract of the page's heading (steps 0, 2, 4, … navigate; 1, 3, 5, … extract).
 */
const pagesPlan = (prefix: string, pages: number) => ({
  steps: Array.from({ length: pages }, (_, page) => [
    {
      tool: "navigate",
      args: { url: `${site.url}/${prefix}-${page + 1}` },
      successCriteria: [{ type: "urlMatches" as const, pattern: `/${prefix}-${page + 1}$` }],
    },
    {
      tool: "extract",
      args: { target: "h1" },
      successCriteria: [{ type: "textPresent" as const, text: "Partner page" }],
    },
  ])
    .flat()
    .map((step, index) => ({ ...step, index })),
})

const loads = (path: string): number =>
  site.requests.filter((request) => request.method === "GET" && request.url === path).length

describe("createAgent({ browser: { grid } })", () => {
  it("two agents at once get sessions on both nodes of the grid, and both runs complete", {
    timeout: 180_000,
  }, async () => {
    const seen = new Map<string, number>()
    let polling = true
    const poller = (async () => {
      while (polling) {
        for (const [node, sessions] of await busyNodes())
          seen.set(node, Math.max(seen.get(node) ?? 0, sessions))
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
    await using first = createAgent({ browser: { grid: grid.url }, store: "memory", traceDirectory: false })
    await using second = createAgent({ browser: { grid: grid.url }, store: "memory", traceDirectory: false })
    // Six page loads each: the two runs overlap, and the poller sees where their sessions are.
    const results = await Promise.all(
      [first, second].map((agent, index) =>
        agent.run(
          { goal: "open the pages one after another", startUrl: `${site.url}/spread-${index}-1` },
          { plan: pagesPlan(`spread-${index}`, 6) },
        ),
      ),
    )
    polling = false
    await poller
    expect(
      results.map((result) => result.status),
      JSON.stringify(results.map((result) => [result.endReason, result.summary])),
    ).toEqual(["COMPLETED", "COMPLETED"])
    // Both nodes held a session while the two runs ran.
    expect([...seen.keys()].sort(), JSON.stringify([...seen])).toEqual(
      grid.nodes.map((node) => node.id).sort(),
    )
  })

  it("a node killed mid-run ends the run FAILED with DriverCrashed naming the node; resume completes it on the other node without running a finished step again", {
    timeout: 240_000,
  }, async () => {
    await using agent = createAgent({ browser: { grid: grid.url }, store: "memory", traceDirectory: false })
    let holder: string | undefined
    let polling = true
    const poller = (async () => {
      while (polling) {
        const busy = [...(await busyNodes()).keys()]
        if (busy.length === 1) holder = busy[0]
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    })()
    let killed: { id: string; at: number; after: number } | undefined
    let killing: Promise<void> | undefined
    const onEvent = (event: TraceRecord) => {
      // After the second page loaded, the node holding the run's session dies (SIGKILL).
      if (event.type === "step-end" && event.step === 2 && killed === undefined && holder !== undefined) {
        const node = grid.nodes.find((candidate) => candidate.id === holder)
        if (node === undefined) return
        const below = descendantPids(node.pid)
        killed = { id: node.id, at: Date.now(), after: site.requests.length }
        killing = node.kill().then(() => {
          // Its ChromeDriver and Chromium, orphaned by the kill, are ended too (this test started them).
          for (const pid of below) {
            try {
              process.kill(pid, "SIGKILL")
            } catch {
              // already gone
            }
          }
        })
      }
    }
    const plan = pagesPlan("crash", 5)
    const failed = await agent.run(
      { goal: "open the pages one after another", startUrl: `${site.url}/crash-1` },
      { plan, runId: "grid-node-lost", onEvent },
    )
    const endedAt = Date.now()
    polling = false
    await poller
    await killing
    expect(
      killed,
      `the test found the node that held the session: ${JSON.stringify(failed.observations.map((o) => [o.tool, o.ok, o.message]))}`,
    ).toBeDefined()
    expect(failed.status).toBe("FAILED")
    const lost = failed.observations.find((observation) => !observation.ok)
    expect(lost?.error?.reason).toBe("DriverCrashed")
    expect(lost?.message, JSON.stringify(failed.observations)).toContain(`Selenium Grid node`)
    expect(lost?.message).toContain(`(id ${killed?.id})`)
    // What `sextant run --grid` prints under it: how to continue, on the grid again.
    expect(summaryLines(failed, { screenshots: [] }, ".sextant/sextant.db", grid.url)).toContain(
      `the browser was lost mid-run; continue it on a new browser with: sextant resume grid-node-lost --grid ${grid.url}`,
    )
    // Seen within seconds, not after the step's time limit.
    expect(endedAt - (killed?.at ?? 0)).toBeLessThan(15_000)
    expect(loads("/crash-1")).toBe(1)
    expect(loads("/crash-2")).toBe(1)
    expect(loads("/crash-3")).toBe(0)

    const resumed = await agent.resume("grid-node-lost")
    expect(
      resumed.status,
      JSON.stringify(resumed.observations.map((observation) => [observation.tool, observation.message])),
    ).toBe("COMPLETED")
    // No step ran twice: each navigation step ran once, across the lost session and the new one.
    expect(
      resumed.observations
        .filter((observation) => observation.tool === "navigate" && observation.ok)
        .map((observation) => observation.url),
    ).toEqual([1, 2, 3, 4, 5].map((page) => `${site.url}/crash-${page}`))
    // The site saw each page once, and /crash-2 once more: the new browser loading the page the run
    // stood on (a GET, which never re-sends a form) before the next step reads it.
    expect([1, 2, 3, 4, 5].map((page) => loads(`/crash-${page}`))).toEqual([1, 2, 1, 1, 1])
    // The surviving node ran the rest.
    const alive = grid.nodes.find((node) => node.id !== killed?.id)
    expect((await status()).value.nodes.find((node) => node.id === alive?.id)?.availability).toBe("UP")
  })

  it("a run with a secret refuses to type it on a grid session, where requests cannot be guarded", {
    timeout: 120_000,
  }, async () => {
    const secret = "grid-secret-4411"
    await using agent = createAgent({ browser: { grid: grid.url }, store: "memory", traceDirectory: false })
    const before = site.requests.length
    const result = await agent.run(
      {
        goal: "sign in",
        startUrl: `${site.url}/login`,
        inputs: { email: "alice@example.com", password: secret },
        secretInputs: ["password"],
      },
      {
        plan: {
          steps: [
            { index: 0, tool: "navigate", args: { url: `${site.url}/login` } },
            { index: 1, tool: "fill", args: { target: "#email", value: "{{inputs.email}}" } },
            { index: 2, tool: "fill", args: { target: "#password", value: "<secret:password>" } },
          ],
        },
      },
    )
    expect(result.status).toBe("FAILED")
    const refused = result.observations.find(
      (observation) => observation.error?.reason === "GuardrailViolation",
    )
    expect(refused?.message).toContain("secret-unguarded")
    expect(refused?.message).toContain("cannot be guarded")
    // The page (which sends every keystroke home) never saw the secret in any request.
    const sent = site.requests.slice(before)
    expect(sent.some((request) => request.url.startsWith("/keys"))).toBe(true)
    for (const request of sent) expect(`${request.url}\n${request.body}`).not.toContain(secret)
  })

  it("sextant run --grid and sextant look --grid open their browser on the grid", {
    timeout: 120_000,
  }, async () => {
    const before = site.requests.length
    const traces = mkdtempSync(join(tmpdir(), "sextant-grid-cli-"))
    onTestFinished(() => rmSync(traces, { recursive: true, force: true }))
    const out = sink()
    const err = sink()
    const code = await runGoal(
      {
        goal: `go to ${site.url}/cli-run`,
        startUrl: `${site.url}/cli-run`,
        mode: "plan",
        input: [],
        secret: [],
        allowSubmit: false,
        allowedOrigin: [],
        store: ":memory:",
        traceDir: traces,
        json: false,
        headless: true,
        grid: grid.url,
      },
      out.stream,
      err.stream,
    )
    expect(code, `${out.text()}\n${err.text()}`).toBe(0)
    expect(out.text()).toContain("COMPLETED")
    const look = sink()
    const lookCode = await lookAt(
      { url: `${site.url}/cli-look`, interactive: false, json: false, headless: true, grid: grid.url },
      look.stream,
      sink().stream,
    )
    expect(lookCode).toBe(0)
    expect(look.text()).toContain(`- h1 "Partner page"`)
    // The grid's browsers loaded them (the site logs each load).
    expect(site.requests.slice(before).map((request) => request.url)).toEqual(
      expect.arrayContaining(["/cli-run", "/cli-look"]),
    )
  })
})
