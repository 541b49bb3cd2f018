import { type AnyTool, BrowserDriver, decodeAgentTask, type Store } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { makeRuleStepPolicy, RulePlanner, type StepPolicyShape } from "@sextant/planner"
import { MemoryStore } from "@sextant/testing"
import { browserTools, compoundTools } from "@sextant/tools"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll } from "vitest"
import { type ExecutorRunResult, planAndRun, runAgent } from "../../src/index.ts"

/** What the gallery page's oracle says of a registered run. */
export interface GalleryVerdict {
  readonly achieved: boolean
  readonly unmet: ReadonlyArray<{ readonly key: string; readonly actual?: unknown }>
}

export interface GalleryRunOptions {
  readonly seed?: number
  /** `plan`: the rule planner's whole plan through `planAndRun` (the CLI's default); default `agent`. */
  readonly mode?: "agent" | "plan"
  readonly policy?: StepPolicyShape
  readonly tools?: ReadonlyArray<AnyTool>
}

/**
 * One fixture site per seed and one headless Chromium with an in-memory store, started before the file's
 * tests and stopped after them; `runGoal` runs a goal step-wise (rule step policy by default) and
 * `runOnGallery` does so on a gallery page whose own oracle then judges the run.
 */
export const useGallery = (seeds: ReadonlyArray<number> = [0]) => {
  const sites = new Map<number, FixtureSite>()
  const runtime = ManagedRuntime.make(Layer.merge(WebdriverioDriver.layerShared({}), MemoryStore.layerTest))
  beforeAll(async () => {
    for (const seed of seeds) sites.set(seed, await startFixtureSite({ port: 0, seed }))
    await runtime.runPromise(Effect.void)
  })
  afterAll(async () => {
    await runtime.dispose()
    await Promise.all([...sites.values()].map((site) => site.close()))
  })
  const site = (seed = seeds[0] ?? 0): FixtureSite => {
    const found = sites.get(seed)
    if (found === undefined) throw new Error(`no fixture site was started for seed ${seed}`)
    return found
  }

  const runGoal = (
    goal: string,
    path: string,
    options: GalleryRunOptions = {},
  ): Promise<ExecutorRunResult> => {
    const task = Effect.runSync(
      decodeAgentTask({
        goal,
        startUrl: `${site(options.seed).url}${path}`,
        constraints: { allowFormSubmission: true, maxSteps: 10, maxDurationMs: 30_000 },
      }),
    )
    if (options.mode === "plan")
      return runtime.runPromise(
        planAndRun(task, { tools: options.tools ?? [...browserTools, ...compoundTools] }).pipe(
          Effect.provide(RulePlanner.layer),
        ) as Effect.Effect<ExecutorRunResult, unknown, BrowserDriver | Store>,
      )
    return runtime.runPromise(
      runAgent(task, options.policy ?? makeRuleStepPolicy(), {
        tools: options.tools ?? [...browserTools, ...compoundTools],
        maxConsecutiveNoOps: 3,
        noOpBackoffMs: 250,
      }) as Effect.Effect<ExecutorRunResult, unknown, BrowserDriver | Store>,
    )
  }

  const runOnGallery = async (
    goal: string,
    page: string,
    expected: Record<string, unknown>,
    options: GalleryRunOptions = {},
  ): Promise<{
    readonly status: string
    readonly verdict: GalleryVerdict
    readonly result: ExecutorRunResult
  }> => {
    const base = site(options.seed).url
    const registered = await fetch(`${base}/gallery/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ page, expect: expected }),
    })
    const { run, path } = (await registered.json()) as { run: string; path: string }
    const result = await runGoal(goal, path, options)
    // The page posts its state when it changes, checked every 150 ms: have it post now and wait for the
    // server's answer, so the verdict holds the page's last state. A page the run left, or one that
    // cannot run the script (a dialog open), gets the old allowance for its last report to land.
    const flushed = await runtime.runPromise(
      BrowserDriver.use((driver) =>
        driver.evaluate(
          "return typeof window.__galleryFlush === 'function' ? window.__galleryFlush() : false",
        ),
      ).pipe(
        Effect.timeout("3 seconds"),
        Effect.catch(() => Effect.succeed(false)),
      ),
    )
    let verdict = (await (await fetch(`${base}/gallery/runs/${run}`)).json()) as GalleryVerdict
    for (let waited = 0; flushed !== true && !verdict.achieved && waited < 900; waited += 150) {
      await new Promise((resolve) => setTimeout(resolve, 150))
      verdict = (await (await fetch(`${base}/gallery/runs/${run}`)).json()) as GalleryVerdict
    }
    return { status: result.status, verdict, result }
  }

  return { site, runtime, runGoal, runOnGallery }
}
