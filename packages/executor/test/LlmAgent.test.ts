import { tmpdir } from "node:os"
import { decodeAgentTask } from "@sextant/core"
import { type RecordedRequest, Reply, type ScriptedReply } from "@sextant/testing"
import { browserTools } from "@sextant/tools"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { EMAIL, isSummary, startRig, taskFor } from "./support/HostileRig.ts"

/**
 * Every way a step-wise run ends, with the model-backed step policy: the real openai SDK against the
 * scripted OpenAI-compatible server, real headless Chromium on the fixture site. Each test scripts the
 * model's step answers; the summary request is always answered with a valid summary.
 */

const rig = startRig({ attacker: false })

const run = async (
  script: (turn: number, request: RecordedRequest) => ScriptedReply,
  constraints: Record<string, unknown> = {},
) => {
  rig.script(script)
  const before = rig.model.requests.length
  const task = Effect.runSync(
    decodeAgentTask({ goal: "look around the shop", startUrl: `${rig.site.url}/products`, constraints }),
  )
  const result = await rig.runModel(task, { tools: browserTools })
  const requests = rig.model.requests.slice(before)
  return {
    result,
    steps: requests.filter((request) => !isSummary(request)),
    summaries: requests.filter(isSummary),
  }
}

const call = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  Reply.json({ tool_calls: [{ name, args }], ...extra })

describe("runAgent with the model step policy ends", () => {
  it("on taskComplete, running only the first call of the answer", async () => {
    const { result, steps } = await run(() =>
      Reply.json({
        tool_calls: [
          { name: "scrollDown", args: { count: 1 } },
          { name: "navigate", args: { url: "http://127.0.0.1:1/never" } },
        ],
        taskComplete: true,
      }),
    )
    expect(result.endReason).toBe("completed")
    expect(steps).toHaveLength(1)
    expect(result.observations.map((observation) => observation.tool)).toEqual(["scrollDown"])
  })

  it("on method close", async () => {
    const { result, steps } = await run((turn) =>
      turn === 0 ? call("scrollDown", { count: 1 }) : Reply.json({ tool_calls: [], method: "close" }),
    )
    expect(result.endReason).toBe("closed")
    expect(steps).toHaveLength(2)
  })

  it("on an explicit stop", async () => {
    const { result } = await run(() => call("stop", {}))
    expect(result.endReason).toBe("stopped")
  })

  it("after 5 consecutive no-ops, malformed answers counted as no-ops", async () => {
    const { result, steps } = await run((turn) =>
      turn % 2 === 0 ? Reply.json({ tool_calls: [] }) : Reply.malformed(),
    )
    expect(result.endReason).toBe("no-progress")
    expect(steps).toHaveLength(5)
    expect(result.status).toBe("FAILED")
  })

  it("after 3 consecutive generation errors", async () => {
    const { result, steps } = await run(() => Reply.error(400, "the model rejected the request"))
    expect(result.endReason).toBe("generation-errors")
    expect(steps).toHaveLength(3)
    expect(result.status).toBe("FAILED")
  })

  it("at maxSteps", async () => {
    const { result, steps } = await run(() => call("scrollDown", { count: 1 }), { maxSteps: 3 })
    expect(result.endReason).toBe("max-steps")
    expect(steps).toHaveLength(3)
    expect(result.observations).toHaveLength(3)
  })

  it("at maxDurationMs, with the summary still asked", async () => {
    const { result, summaries } = await run(
      () => Reply.delayed(300, Reply.json({ tool_calls: [{ name: "scrollDown", args: { count: 1 } }] })),
      { maxDurationMs: 1_000 },
    )
    expect(result.endReason).toBe("max-duration")
    expect(result.metrics.durationMs).toBeLessThan(5_000)
    expect(summaries).toHaveLength(1)
  })

  it("and reports the tokens of every model call", async () => {
    const { result, steps, summaries } = await run((turn) =>
      turn === 0 ? call("scrollDown", { count: 1 }) : call("stop", {}),
    )
    expect(result.metrics.llmCalls).toBe(steps.length + summaries.length)
    expect(result.metrics.tokens.total).toBeGreaterThan(0)
    expect(result.metrics.tokens.total).toBe(result.metrics.tokens.prompt + result.metrics.tokens.completion)
  })

  it("and counts every model request that reached the endpoint, even ones that reported no usage", async () => {
    const { result, steps, summaries } = await run((turn) => ({
      ...(turn === 0 ? call("scrollDown", { count: 1 }) : call("stop", {})),
      omitUsage: true,
    }))
    expect(steps.length).toBe(2)
    expect(result.metrics.llmCalls).toBe(steps.length + summaries.length)
  })
})

describe("runAgent with the model step policy and task inputs", () => {
  it("shows the model the task's inputs (a secret as its placeholder), so a log-in with them completes", async () => {
    const before = rig.model.requests.length
    rig.script((turn) =>
      turn === 0
        ? call("login", { username: EMAIL, password: "<secret:password>" }, { taskComplete: true })
        : Reply.json({ tool_calls: [], method: "close" }),
    )
    // Alice's real password on the fixture site, a secret input.
    const result = await rig.runModel(taskFor("log in", `${rig.site.url}/login`, "wonderland"))
    const first = rig.model.requests.slice(before).find((request) => !isSummary(request))
    expect(first?.text).toContain(`- email: "${EMAIL}"`)
    expect(first?.text).toContain("- password: <secret:password>")
    expect(JSON.stringify(rig.model.requests.slice(before))).not.toContain("wonderland")
    expect(result.status).toBe("COMPLETED")
  }, 60_000)
})

describe("runAgent with the model step policy and commit controls", () => {
  it("never presses a commit control (Delete) the goal does not ask for, while looking for something", async () => {
    const before = rig.model.requests.length
    let deleteRef: string | undefined
    rig.script((turn, request) => {
      if (turn === 0) {
        deleteRef = /"Delete"[^\n]*\[ref=(e\d+)\]/.exec(request.text)?.[1]
        return call("click", { target: deleteRef ?? "e0" })
      }
      return Reply.json({ tool_calls: [], method: "close" })
    })
    const result = await rig.runModel(
      Effect.runSync(
        decodeAgentTask({ goal: "find the Archive option", startUrl: `${rig.site.url}/gallery/buttons` }),
      ),
      { tools: browserTools },
    )
    expect(deleteRef).toMatch(/^e\d+$/)
    expect(result.observations.map((observation) => observation.tool)).not.toContain("click")
    const second = rig.model.requests.slice(before).filter((request) => !isSummary(request))[1]
    expect(second?.text).toContain(
      `skip 'click': "Delete" commits something and the goal does not ask for it`,
    )
  }, 60_000)

  it("presses it when the goal asks for it", async () => {
    rig.script((turn, request) =>
      turn === 0
        ? call("click", { target: /"Delete"[^\n]*\[ref=(e\d+)\]/.exec(request.text)?.[1] ?? "e0" })
        : Reply.json({ tool_calls: [], method: "close" }),
    )
    const result = await rig.runModel(
      Effect.runSync(decodeAgentTask({ goal: "click Delete", startUrl: `${rig.site.url}/gallery/buttons` })),
      { tools: browserTools },
    )
    expect(result.observations.map((observation) => observation.tool)).toContain("click")
  }, 60_000)
})

describe("the model step policy's tool catalog in a run", () => {
  const systemOf = (request: RecordedRequest | undefined) =>
    String(request?.messages.find((message) => message.role === "system")?.content ?? "")

  it("lists upload only when the task's constraints allow an upload folder", async () => {
    const close = () => Reply.json({ tool_calls: [], method: "close" })
    const without = await run(close)
    expect(systemOf(without.steps[0])).toContain("\n- click(")
    expect(systemOf(without.steps[0])).not.toContain("\n- upload(")
    const allowed = await run(close, { allowedUploadDirs: [tmpdir()] })
    expect(systemOf(allowed.steps[0])).toContain("\n- upload(")
  }, 60_000)
})
