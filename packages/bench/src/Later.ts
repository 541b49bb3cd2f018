import type { RunPlan } from "./Measure.ts"
import type { TableSection } from "./Report.ts"

/** What the later sections need from the run. */
export interface LaterContext {
  readonly base: string
  readonly plan: RunPlan
  readonly progress: (line: string) => void
}

/** The sections measured on pieces that land after the page view and actions. */
export interface LaterResult {
  readonly sections: ReadonlyArray<TableSection>
  readonly data: Record<string, unknown>
}

export const laterSections = async (_context: LaterContext): Promise<LaterResult> => ({
  sections: [
    {
      title: "Extraction of the 60 products",
      headers: ["way", "products / s"],
      rows: [
        ["session tools (HTTP + sql)", "not yet measured: @sextant/tools not available"],
        ["browser (look/extract per page)", "not yet measured: @sextant/tools not available"],
      ],
    },
    {
      title: "Executor",
      headers: ["measure", "value"],
      rows: [
        ["overhead per step, runMany 1/2/4 agents", "not yet measured: @sextant/executor not available"],
      ],
    },
    {
      title: "Time per task: cold vs replayed",
      headers: ["mode", "time"],
      rows: [["cold (scripted model) vs replayed (action cache)", "not yet measured: planner not available"]],
    },
  ],
  data: {},
})
