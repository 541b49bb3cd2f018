import { executorSections, runExecutorBench } from "./ExecutorSection.ts"
import { type ExtractionResult, measureExtraction } from "./Extraction.ts"
import { mcpSection, measureMcpToolList } from "./McpSection.ts"
import { BenchError, type RunPlan } from "./Measure.ts"
import { measureReplay, replaySection } from "./ReplaySection.ts"
import { type TableSection, timeCell } from "./Report.ts"
import type { SextantSession } from "./Sextant.ts"
import { measureTask, taskSection } from "./TaskSection.ts"

/** What the later sections need from the run. */
export interface LaterContext {
  readonly base: string
  readonly plan: RunPlan
  readonly sextant: SextantSession
  readonly progress: (line: string) => void
}

/** The sections measured on pieces that land after the page view and actions. */
export interface LaterResult {
  readonly sections: ReadonlyArray<TableSection>
  readonly data: Record<string, unknown>
}

/** Fewer runs for whole-task measurements, which each take seconds rather than milliseconds. */
export const taskPlan = (plan: RunPlan): RunPlan => ({
  warmup: Math.min(plan.warmup, 1),
  runs: Math.max(3, Math.ceil(plan.runs / 4)),
})

const extractionSection = (results: ReadonlyArray<ExtractionResult>, plan: RunPlan): TableSection => ({
  title: `Extraction of the 60 products from the 5 listing pages (${plan.runs} runs after ${plan.warmup} warm-up)`,
  note: "Every run is checked: all 60 names, prices and ratings must match the shop's data.",
  headers: ["way", "ms (median / p90)", "products / s"],
  rows: results.map((result) => [result.way, timeCell(result.time), result.productsPerSecond.toFixed(0)]),
})

/** The later sections that need Sextant's browser session; run before the bench closes it. */
export const browserLaterSections = async (context: LaterContext): Promise<LaterResult> => {
  const plan = taskPlan(context.plan)
  const extraction = await measureExtraction(context.base, plan, context.sextant)
  context.progress("extraction measured")
  return { sections: [extractionSection(extraction, plan)], data: { extraction } }
}

/**
 * The later sections that start their own browsers; run after the bench has closed its own. A quick
 * run asks the executor benchmark for fewer steps.
 */
export const standaloneLaterSections = async (
  base: string,
  plan: RunPlan,
  quick: boolean,
  progress: (line: string) => void,
): Promise<LaterResult> => {
  const executor = await runExecutorBench({ steps: quick ? 300 : 1000, tasks: 4 }).catch((cause: unknown) => {
    throw new BenchError("the executor benchmark", "packages/executor/bench", cause)
  })
  progress("executor measured")
  const taskRuns = taskPlan(plan)
  const task = await measureTask(base, taskRuns)
  progress("task measured")
  const replay = await measureReplay(base, taskRuns)
  progress("replay measured")
  const mcp = await measureMcpToolList()
  progress("MCP tool list measured")
  return {
    sections: [
      ...executorSections(executor),
      taskSection(task, taskRuns),
      replaySection(replay, taskRuns),
      mcpSection(mcp),
    ],
    data: { executor, task, replay, mcp },
  }
}
