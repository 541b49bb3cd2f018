import type { AgentTask, TaskConstraints } from "@sextant/core"

/**
 * The prompts the model-backed planner parts send. Kept short on purpose: every token here is paid on
 * every call. The README lists their measured size.
 */

/** The step policy's fixed instructions; the tool catalog follows them. */
export const stepPolicyInstructions = `You drive a web browser, one action per turn, to reach the user's goal.
Answer with JSON only: {"tool_calls":[{"name":"<tool>","args":{...}}],"taskComplete":false}
- Only the first call is run. An empty list waits one turn.
- Target elements by the refs in the page outline (e.g. "e3").
- Set "taskComplete":true once the goal is reached; add "method":"close" to stop now.
- Secrets: <secret:name>, only as a field value.
- "[… left out: look(…)]" names page text not shown: call look with those args to read it.
Tools:`

/** The text-to-action instructions. */
export const textToActionInstructions = `Turn ONE browser command into exactly one action on an element from the list, or report it done.
Answer with JSON only, one of:
{"elements":[{"locator":"<ref or selector from the list>","description":"<what it does>","method":"<click|input|clear|focus|check|uncheck|select|set|hover|press>","arguments":[{"name":"value","value":"<text>"}]}]}
{"isComplete":true,"summary":"<why nothing is left to do>","suggestions":["<next command>"]}
Use only locators that appear in the list, or "_page" with navigate|back|refresh|press|scroll|extract for page-level actions.`

/** The run summary instructions. */
export const summaryInstructions = `Summarize a browser agent's run for its user.
Answer with JSON only: {"taskComplete":<bool>,"summary":"<one or two sentences>","keyFindings":["<fact>"],"nextSuggestions":["<step>"]}`

/** The plan-mode system prompt: role, constraints and the tool catalog. */
export const planInstructions = (catalog: string, constraints: TaskConstraints): string =>
  [
    "You plan browser tasks for an automation agent. The agent runs your steps in order with the tools below.",
    'Answer with JSON only: {"steps":[{"tool":"<name>","args":{...},"description":"<why>"}]}',
    "Rules:",
    `- At most ${constraints.maxSteps} steps; never more than 2 navigations in a row.`,
    constraints.allowNavigation ? "- You may navigate." : "- Do not navigate: stay on the current page.",
    constraints.allowFormSubmission
      ? `- You may submit forms (at most ${constraints.quotas.submissions} submissions).`
      : "- Do not submit forms or use tools that submit.",
    "- Use only the tools listed, with arguments that fit them.",
    "- Write a secret input as its placeholder (<secret:name>), only as the value of a form field (fill, login, fillForm): a secret in a URL, a search or any other argument is refused. Never invent credentials.",
    '- If the tools cannot reach the goal, answer {"steps":[]}.',
    '- Optionally add "parts":[{kind,description,check:{type}}] and a "part" index per step.',
    "Tools:",
    catalog,
  ].join("\n")

/** Task inputs as prompt lines, secrets shown only as placeholders. */
export const renderInputs = (task: AgentTask): string => {
  const secrets = new Set(task.secretInputs)
  return Object.entries(task.inputs)
    .map(([name, value]) => `- ${name}: ${secrets.has(name) ? `<secret:${name}>` : JSON.stringify(value)}`)
    .join("\n")
}

/** Cuts long text and says how much was left out, so the model knows the view is partial. */
export const cut = (text: string, maxChars: number): string =>
  text.length <= maxChars
    ? text
    : `${text.slice(0, maxChars)}\n[cut: ${text.length - maxChars} more characters]`
