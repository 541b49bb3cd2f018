import { z } from "zod"
import { GoalPart } from "./GoalPart.ts"
import { Observation } from "./Observation.ts"
import { decodeWith } from "./Validation.ts"

/**
 * A check made on the page after a step: the step succeeded only if every criterion holds.
 */
export const Criterion = z.discriminatedUnion("type", [
  z.object({ type: z.literal("elementExists"), selector: z.string().min(1) }),
  z.object({ type: z.literal("urlMatches"), pattern: z.string().min(1) }),
  z.object({ type: z.literal("textPresent"), text: z.string().min(1) }),
  z.object({ type: z.literal("minItems"), selector: z.string().min(1), min: z.number().int().positive() }),
  z.object({ type: z.literal("statusCode"), code: z.number().int().min(100).max(599) }),
])
export type Criterion = z.output<typeof Criterion>

/** Where a step is in its life. */
export const StepState = z.enum(["pending", "running", "succeeded", "failed", "skipped"])
export type StepState = z.output<typeof StepState>

/**
 * One tool call of a plan, with the checks that say it worked.
 *
 * @example
 * ```ts
 * import { Step } from "@sextant/core"
 * Step.parse({ index: 0, tool: "navigate", args: { url: "http://127.0.0.1:4000/login" } })
 * ```
 */
export const Step = z.object({
  index: z.number().int().nonnegative(),
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  description: z.string().optional(),
  /** The index in `Plan.parts` of the goal part this step works on. */
  part: z.number().int().nonnegative().optional(),
  successCriteria: z.array(Criterion).default([]),
  state: StepState.default("pending"),
  attempts: z.number().int().nonnegative().default(0),
  observation: Observation.optional(),
  /**
   * What the goal checks read of the page right after the step (its facts and controls), kept with the
   * step so that a resumed run can still judge the parts done before its process died.
   */
  evidence: z.record(z.string(), z.unknown()).optional(),
})
export type Step = z.output<typeof Step>
export type StepInput = z.input<typeof Step>

/** Where a plan is in its life. */
export const PlanStatus = z.enum(["draft", "validated", "running", "completed", "failed", "abandoned"])
export type PlanStatus = z.output<typeof PlanStatus>

/**
 * An ordered list of steps for one task. `revision` grows by one on every replan. `parts` are the goal's
 * parts with their checks: the run is COMPLETED only when every part's check holds.
 */
export const Plan = z
  .object({
    taskId: z.string().min(1),
    revision: z.number().int().nonnegative().default(0),
    status: PlanStatus.default("draft"),
    /**
     * The goal's parts with their checks. When a planner states none, the executor reads them from the
     * goal (`goalPartsOf`) if a model wrote the plan, and sets `[]` otherwise.
     */
    parts: z.array(GoalPart).optional(),
    steps: z.array(Step),
  })
  .superRefine((plan, context) => {
    plan.steps.forEach((step, position) => {
      const parts = plan.parts?.length ?? 0
      if (step.part !== undefined && step.part >= parts) {
        context.addIssue({
          code: "custom",
          path: ["steps", position, "part"],
          message: `names part ${step.part}, but the plan has ${parts} parts`,
        })
      }
      if (step.index !== position) {
        context.addIssue({
          code: "custom",
          path: ["steps", position, "index"],
          message: `step indexes must count from 0 in order: expected ${position}`,
        })
      }
    })
  })
export type Plan = z.output<typeof Plan>
export type PlanInput = z.input<typeof Plan>

/** Decodes a plan from outside input (a file, a model); failures name each bad field. */
export const decodePlan = decodeWith(Plan, "plan", "plan")
