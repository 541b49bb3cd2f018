import { z } from "zod"
import { causeMessage } from "./CauseMessage.ts"
import { ToolGroup } from "./Tool.ts"
import { decodeWith, strictFields } from "./Validation.ts"

/**
 * Per-action quotas a task may use. Exceeding one is a guardrail violation.
 */
export const TaskQuotas = strictFields("quotas", {
  navigations: z.number().int().nonnegative().default(20),
  clicks: z.number().int().nonnegative().default(100),
  submissions: z.number().int().nonnegative().default(2),
})
export type TaskQuotas = z.output<typeof TaskQuotas>

/**
 * The limits a task runs under. Every field has a default, so `TaskConstraints.parse({})` is valid; an
 * unknown key is refused with the key it most likely meant (`maxStep` → `maxSteps`).
 *
 * @example
 * ```ts
 * import { TaskConstraints } from "@sextant/core"
 * TaskConstraints.parse({ maxSteps: 10 }).stepTimeoutMs // 30000
 * ```
 */
export const TaskConstraints = strictFields("constraints", {
  maxSteps: z.number().int().positive().default(40),
  maxDurationMs: z.number().int().positive().default(300_000),
  stepTimeoutMs: z.number().int().positive().default(30_000),
  allowNavigation: z.boolean().default(true),
  allowFormSubmission: z.boolean().default(false),
  /** http(s) origins the task may visit, e.g. `https://shop.example`. */
  allowedOrigins: z
    .array(
      z.url().refine((value) => /^https?:\/\/[^/]/i.test(value), {
        message: "must be an http(s) origin such as https://shop.example",
      }),
    )
    .optional(),
  /** Regular expressions (case-insensitive) of URLs the task must not visit. */
  blockedUrlPatterns: z
    .array(
      z
        .string()
        .min(1)
        .superRefine((value, context) => {
          try {
            new RegExp(value, "i")
          } catch (error) {
            context.addIssue({
              code: "custom",
              message: `is not a valid regular expression (${causeMessage(error)})`,
            })
          }
        }),
    )
    .default([]),
  /**
   * Absolute folders the `upload` action may take files from. A file is allowed when its real path
   * (symlinks followed) lies inside one of these folders' real paths. Default: none, so every upload
   * is refused until the task names a folder.
   */
  allowedUploadDirs: z
    .array(
      z
        .string()
        .min(1)
        .refine((value) => /^(\/|[A-Za-z]:[\\/])/.test(value), {
          message: "must be an absolute folder path such as /home/me/uploads",
        }),
    )
    .default([]),
  quotas: TaskQuotas.prefault({}),
  /**
   * Tool groups the task asks a model-backed planner to list beside those its page and goal call
   * for, e.g. `["session"]` for the HTTP fetch and SQL tools (see `ToolGroup`). Listing is not
   * permission: a registered tool the model names runs whether it was listed or not.
   */
  toolGroups: z.array(ToolGroup).optional(),
})
export type TaskConstraints = z.output<typeof TaskConstraints>
export type TaskConstraintsInput = z.input<typeof TaskConstraints>

/** A value a task hands to its tools (a username, a search term). */
export const TaskInputValue = z.union([z.string(), z.number(), z.boolean(), z.null()])
export type TaskInputValue = z.output<typeof TaskInputValue>

/**
 * A goal in plain language plus everything needed to reach it.
 * Inputs named in `secretInputs` reach tools as values but every prompt, trace and log shows
 * only a placeholder such as `<secret:password>`. Unknown keys, here and in `constraints` and
 * `quotas`, are refused with the key they most likely meant: a misspelt `secretInput` would otherwise
 * leave the password in clear.
 *
 * @example
 * ```ts
 * import { decodeAgentTask } from "@sextant/core"
 * const task = decodeAgentTask({ goal: "log in and list the products", startUrl: "http://127.0.0.1:4000/login" })
 * ```
 */
export const AgentTask = strictFields("task", {
  id: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9._:-]+$/, "use letters, digits, '.', '_', ':' or '-'")
    .default(() => crypto.randomUUID()),
  goal: z.string().trim().min(1, "describe the goal in words"),
  startUrl: z.url({ protocol: /^https?$/ }).optional(),
  inputs: z.record(z.string(), TaskInputValue).default({}),
  secretInputs: z.array(z.string().min(1)).default([]),
  expectedSchema: z.record(z.string(), z.unknown()).optional(),
  constraints: TaskConstraints.prefault({}),
  createdAt: z.iso.datetime().default(() => new Date().toISOString()),
}).superRefine((task, context) => {
  // A misspelt name would leave the real secret unredacted in every prompt, trace and store row.
  task.secretInputs.forEach((name, index) => {
    if (!Object.hasOwn(task.inputs, name)) {
      const known = Object.keys(task.inputs)
      context.addIssue({
        code: "custom",
        path: ["secretInputs", index],
        message: `${JSON.stringify(name)} is not one of the inputs (${known.length === 0 ? "there are none" : known.map((key) => JSON.stringify(key)).join(", ")}): name the input that holds the secret`,
      })
    }
  })
})
export type AgentTask = z.output<typeof AgentTask>
export type AgentTaskInput = z.input<typeof AgentTask>

/**
 * The secret inputs of a task that hold a value, as text: what a redaction hides and what must never
 * be stored in clear. An input that is empty (or null) holds no secret and is left out.
 *
 * @example
 * ```ts
 * import { secretValuesOf } from "@sextant/core"
 * secretValuesOf({ inputs: { password: "wonderland", pin: 4711, note: "" }, secretInputs: ["password", "pin", "note"] })
 * // [{ name: "password", value: "wonderland" }, { name: "pin", value: "4711" }]
 * ```
 */
export const secretValuesOf = (
  task: Pick<AgentTask, "inputs" | "secretInputs">,
): ReadonlyArray<{ readonly name: string; readonly value: string }> =>
  task.secretInputs.flatMap((name) => {
    const value = task.inputs[name]
    return value === null || value === undefined || String(value) === ""
      ? []
      : [{ name, value: String(value) }]
  })

/**
 * Decodes a task from outside input. Failures are an `AgentError` whose `InvalidInput` reason names
 * every bad field and its rule, e.g. `task.constraints.maxSteps: Too small: expected number to be >0 (got -3)`.
 */
export const decodeAgentTask = decodeWith(AgentTask, "task", "task")
