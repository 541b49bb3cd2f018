import type { AgentTask } from "@sextant/core"
import type { RunnerResult, TaskRunner } from "@sextant/queue"
import type { Agent } from "../createAgent.ts"

/**
 * The queue worker's runner on a facade agent: a job whose run id the store does not know starts the
 * run (`agent.run`, the same code as `sextant run`); one the store knows was begun by a worker that died,
 * and is continued (`agent.resume`): finished steps are not repeated, and a click or submission that was
 * in flight is not repeated either (the run then ends FAILED, needs-review). A run that already ended
 * answers its stored result, so a job delivered twice runs once.
 */
export const makeAgentRunner = (
  agent: Agent,
  /** The mode of a task's new run; undefined: the agent's own. */
  modeFor: (task: AgentTask) => "plan" | "agent" | undefined = () => undefined,
): TaskRunner => ({
  run: async (task: AgentTask, { runId, signal, onEvent }): Promise<RunnerResult> => {
    const known = (await agent.runs()).some((run) => run.runId === runId)
    const secrets = Object.fromEntries(
      task.secretInputs.flatMap((name) => {
        const value = task.inputs[name]
        return typeof value === "string" ? [[name, value]] : []
      }),
    )
    const result = known
      ? await agent.resume(runId, { secrets, signal, onEvent })
      : await agent.run(task, { runId, signal, onEvent, ...modeOf(modeFor(task)) })
    return {
      status: result.status,
      endReason: result.endReason,
      summary: result.summary.summary,
      resumed: known,
    }
  },
})

const modeOf = (mode: "plan" | "agent" | undefined) => (mode === undefined ? {} : { mode })
