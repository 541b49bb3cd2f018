import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { OpenAiOptions } from "@sextant/openai"
import { startLoopbackServer } from "@sextant/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConfigError, loadConfig, type SextantConfig } from "../src/index.ts"
import {
  type AgentFlags,
  DEFAULT_MODEL_RETRIES,
  DEFAULT_MODEL_TIMEOUT_MS,
  type ResolvedAgent,
  resolveAgent,
} from "../src/internal/AgentFlags.ts"
import { followRun } from "../src/internal/RunOutput.ts"
import { runCli } from "./support/Cli.ts"
import { runMain } from "./support/Main.ts"
import { sink } from "./support/Sink.ts"

// A model endpoint that accepts connections and never answers: what a hung or overloaded server does.
let silent: Server
let silentURL: string
const sockets = new Set<Socket>()
let directory: string

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "sextant-model-limits-"))
  silent = createServer((socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
  silentURL = `http://127.0.0.1:${(silent.address() as { port: number }).port}/v1`
})

afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await new Promise<void>((resolve) => silent.close(() => resolve()))
  rmSync(directory, { recursive: true, force: true })
})

const flags = (extra: Partial<AgentFlags> = {}): AgentFlags => ({ model: "m", headless: true, ...extra })
const environment = { OPENAI_API_KEY: "key" }
const config = (model: Record<string, unknown>): SextantConfig =>
  ({ path: "/project/sextant.config.ts", model }) as SextantConfig

const resolved = (...args: Parameters<typeof resolveAgent>): ResolvedAgent => {
  const answer = resolveAgent(...args)
  if (Array.isArray(answer)) throw new Error(JSON.stringify(answer))
  return answer
}
const limitsOf = (answer: ResolvedAgent) => {
  const model = answer.options.model as { timeoutMs: number; maxRetries: number }
  return {
    timeoutMs: model.timeoutMs,
    maxRetries: model.maxRetries,
    timeoutFrom: answer.modelLimits?.timeoutFrom,
    retriesFrom: answer.modelLimits?.retriesFrom,
  }
}

describe("the model call limits: flag > environment > config > default", () => {
  const everywhere = config({ timeoutMs: 7000, maxRetries: 2, options: { timeoutMs: 8000, maxRetries: 5 } })
  const variables = { ...environment, SEXTANT_LLM_TIMEOUT_MS: "5000", SEXTANT_LLM_MAX_RETRIES: "1" }

  it("the flags win over everything", () => {
    expect(limitsOf(resolved(flags({ modelTimeout: 3000, modelRetries: 0 }), variables, everywhere))).toEqual(
      {
        timeoutMs: 3000,
        maxRetries: 0,
        timeoutFrom: "--model-timeout",
        retriesFrom: "--model-retries",
      },
    )
  })

  it("the environment wins over the config", () => {
    expect(limitsOf(resolved(flags(), variables, everywhere))).toEqual({
      timeoutMs: 5000,
      maxRetries: 1,
      timeoutFrom: "SEXTANT_LLM_TIMEOUT_MS",
      retriesFrom: "SEXTANT_LLM_MAX_RETRIES",
    })
  })

  it("model.timeoutMs and model.maxRetries win over model.options", () => {
    expect(limitsOf(resolved(flags(), environment, everywhere))).toEqual({
      timeoutMs: 7000,
      maxRetries: 2,
      timeoutFrom: "/project/sextant.config.ts: model.timeoutMs",
      retriesFrom: "/project/sextant.config.ts: model.maxRetries",
    })
    expect(
      limitsOf(resolved(flags(), environment, config({ options: { timeoutMs: 8000, maxRetries: 5 } }))),
    ).toEqual({
      timeoutMs: 8000,
      maxRetries: 5,
      timeoutFrom: "/project/sextant.config.ts: model.options.timeoutMs",
      retriesFrom: "/project/sextant.config.ts: model.options.maxRetries",
    })
  })

  it("without any, the defaults of @sextant/openai", () => {
    const defaults = OpenAiOptions.parse({ apiKey: "key", model: "m" })
    expect([DEFAULT_MODEL_TIMEOUT_MS, DEFAULT_MODEL_RETRIES]).toEqual([
      defaults.timeoutMs,
      defaults.maxRetries,
    ])
    expect(limitsOf(resolved(flags(), environment, undefined))).toEqual({
      timeoutMs: defaults.timeoutMs,
      maxRetries: defaults.maxRetries,
      timeoutFrom: "the default",
      retriesFrom: "the default",
    })
  })

  it("a variable that is not a whole number is named, with its value", () => {
    expect(
      resolveAgent(
        flags(),
        { ...environment, SEXTANT_LLM_TIMEOUT_MS: "soon", SEXTANT_LLM_MAX_RETRIES: "-1" },
        undefined,
      ),
    ).toEqual([
      {
        field: "modelTimeout",
        message: 'SEXTANT_LLM_TIMEOUT_MS must be a whole number above 0, got "soon": fix or unset it',
      },
      {
        field: "modelRetries",
        message: 'SEXTANT_LLM_MAX_RETRIES must be a whole number, got "-1": fix or unset it',
      },
    ])
  })

  it("the other documented variables win over the config's options", () => {
    const answer = resolved(
      flags(),
      { ...environment, SEXTANT_LLM_STRUCTURED_OUTPUT: "json_object", SEXTANT_LLM_STREAM: "yes" },
      config({ options: { structuredOutput: "none", stream: false, supportsImages: true } }),
    )
    expect(answer.options.model).toMatchObject({
      structuredOutput: "json_object",
      stream: true,
      supportsImages: true,
    })
  })

  it("the key's variable goes with the model, for a 401's hint", () => {
    const answer = resolved(flags({ apiKeyEnv: "GROQ_API_KEY" }), { GROQ_API_KEY: "gsk" }, undefined)
    expect(answer.options.model).toMatchObject({ apiKey: "gsk", apiKeyVariable: "GROQ_API_KEY" })
  })
})

describe("model.timeoutMs and model.maxRetries in sextant.config", () => {
  const write = (name: string, model: string) => {
    const path = join(directory, name)
    writeFileSync(path, `export default { model: ${model} }\n`)
    return path
  }

  it("are accepted", async () => {
    const loaded = await loadConfig(write("good.mjs", `{ model: "m", timeoutMs: 5000, maxRetries: 0 }`))
    expect(loaded?.model).toMatchObject({ timeoutMs: 5000, maxRetries: 0 })
  })

  it("of the wrong type name the field", async () => {
    const path = write("bad.mjs", `{ model: "m", timeoutMs: "5s", maxRetries: 1.5 }`)
    const error = await loadConfig(path).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).issues).toEqual([
      "model.timeoutMs: must be a whole number of milliseconds, e.g. 30000",
      "model.maxRetries: must be a whole number of retries, e.g. 1 (0: no retry)",
    ])
  })
})

describe("the progress line while the model is asked", () => {
  it("says what is waited for: the model at its URL, which attempt, for how long", async () => {
    const err = sink()
    const follow = followRun(err.stream, 300)
    follow.onModelAttempt({
      phase: "start",
      attempt: 2,
      attempts: 2,
      baseURL: silentURL,
      model: "m",
      timeoutMs: 3000,
    })
    await new Promise((resolve) => setTimeout(resolve, 1_300))
    follow.stop()
    expect(err.text()).toMatch(
      new RegExp(
        `^ {2}… waiting for the model at ${silentURL.replaceAll(".", "\\.")} \\(attempt 2 of 2, 1 s\\)$`,
        "m",
      ),
    )
    expect(err.text()).not.toContain("starting the browser")
    expect(follow.model.retries).toBe(1)
  })
})

describe("sextant run against a model endpoint that never answers", () => {
  it("--model-timeout 1000 --model-retries 1: FAILED in under 10 s, naming the timeout", {
    timeout: 60_000,
  }, async () => {
    const started = Date.now()
    const ran = await runCli(
      [
        "run",
        "summarise the page",
        "--model",
        "m",
        "--base-url",
        silentURL,
        "--planner",
        "model",
        "--model-timeout",
        "1000",
        "--model-retries",
        "1",
      ],
      { cwd: directory, env: environment },
    )
    const wall = Date.now() - started
    expect(ran.code).toBe(1)
    const outcome =
      /^FAILED \(plan-failed\) in (\d+) ms, 0 steps, 1 retry \(1 of model calls\), 0 replans$/m.exec(
        ran.stdout,
      )
    expect(outcome, ran.stdout).not.toBeNull()
    expect(Number(outcome?.[1])).toBeLessThan(10_000)
    expect(ran.stdout).toContain("the model call did not finish within 1000 ms")
    expect(ran.stdout).toContain(
      `model: 2 attempts at ${silentURL} got no answer within 1000 ms each (timeout from --model-timeout, 1 retry from --model-retries)`,
    )
    expect(ran.stderr).toContain(
      `model call to ${silentURL} failed (attempt 1 of 2): no answer within 1000 ms; trying again`,
    )
    expect(ran.stderr).toContain(
      `model call to ${silentURL} failed (attempt 2 of 2): no answer within 1000 ms\n`,
    )
    // The process (Node's start and the module load included) stays well under the old 4 min 9 s.
    expect(wall).toBeLessThan(30_000)
  })

  it("SEXTANT_LLM_TIMEOUT_MS and SEXTANT_LLM_MAX_RETRIES bound it when no flag does", {
    timeout: 60_000,
  }, async () => {
    const ran = await runCli(
      ["run", "summarise the page", "--model", "m", "--base-url", silentURL, "--planner", "model"],
      {
        cwd: directory,
        env: { ...environment, SEXTANT_LLM_TIMEOUT_MS: "1500", SEXTANT_LLM_MAX_RETRIES: "0" },
      },
    )
    expect(ran.code).toBe(1)
    expect(ran.stdout).toMatch(/^FAILED \(plan-failed\) in \d+ ms, 0 steps, 0 retries, 0 replans$/m)
    expect(ran.stdout).toContain(
      `model: 1 attempt at ${silentURL} got no answer within 1500 ms each (timeout from SEXTANT_LLM_TIMEOUT_MS, 0 retries from SEXTANT_LLM_MAX_RETRIES)`,
    )
  })

  it("a --model-timeout that is not a whole number is a usage error naming the flag", async () => {
    const ran = await runMain(
      ["run", "x", "--model", "m", "--base-url", silentURL, "--model-timeout", "3s"],
      {
        cwd: directory,
        env: environment,
      },
    )
    expect(ran.code).toBe(2)
    expect(ran.stderr).toContain(
      "sextant run: --model-timeout: must be a whole number of milliseconds, e.g. --model-timeout 30000",
    )
  })
})

describe("sextant run against a wrong base URL that answers a 404 page", () => {
  it("says it once, in one line: the page's title and the base URL to check", {
    timeout: 60_000,
  }, async () => {
    const page = `<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>${"<p>nothing here</p>".repeat(300)}</body></html>`
    const server = await startLoopbackServer((_request, response) => {
      response.writeHead(404, { "content-type": "text/html" })
      response.end(page)
    })
    try {
      const baseURL = `${server.url}/v2`
      const ran = await runCli(
        ["run", "summarise the page", "--model", "m", "--base-url", baseURL, "--planner", "model"],
        {
          cwd: directory,
          env: environment,
        },
      )
      expect(ran.code).toBe(1)
      const said = `HTTP 404 (404 Not Found): check the base URL ${baseURL}: nothing answers at ${baseURL}/chat/completions`
      expect(`${ran.stdout}${ran.stderr}`.split(said)).toHaveLength(2)
      expect(`${ran.stdout}${ran.stderr}`).not.toContain("<p>")
      expect(ran.stdout).toContain("    seen: (the error above)")
    } finally {
      await server.close()
    }
  })
})
