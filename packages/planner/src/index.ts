/** @sextant/planner — rule planner, text-to-action, LLM planner and step policy, hybrid planner, validator. */
export * from "./Planner.ts"
