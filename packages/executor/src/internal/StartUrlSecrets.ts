import {
  type AgentTask,
  respellUrlCredentials,
  secretValuesOf,
  type TaskInputValue,
  type UrlCredential,
  urlCredentials,
} from "@sextant/core"

/**
 * The task with the credentials its start URL carries (the password of `http://alice:pw@…`, a
 * `?token=` or `?api_key=`) made secret inputs of their own, named `start_url_password`,
 * `start_url_token` …: the browser still opens the URL as given, while every prompt, trace, transcript,
 * store row and report shows `<secret:start_url_password>` in its place. A credential a secret input
 * already holds (a resumed run, given it again) is not added twice. The URL is rewritten only so that it
 * spells each credential the way the redaction finds it (percent-encoded).
 */
export const withStartUrlSecrets = (task: AgentTask): AgentTask => {
  if (task.startUrl === undefined) return task
  const held = new Set(secretValuesOf(task).map((secret) => secret.value))
  const all = urlCredentials(task.startUrl)
  const credentials = all.filter((credential) => !held.has(credential.value))
  if (credentials.length === 0) return task
  const inputs: Record<string, TaskInputValue> = { ...task.inputs }
  const secretInputs = [...task.secretInputs]
  for (const { part, value } of credentials) {
    const base = `start_url_${part.replace(/[^A-Za-z0-9_.-]/g, "_")}`
    let name = base
    for (let next = 2; Object.hasOwn(inputs, name); next++) name = `${base}_${next}`
    inputs[name] = value
    secretInputs.push(name)
  }
  return { ...task, startUrl: spelledForRedaction(task.startUrl, all), inputs, secretInputs }
}

/**
 * The URL with its password percent-encoded and the credentials of its query and fragment form-encoded:
 * the spellings the redaction knows.
 */
const spelledForRedaction = (url: string, credentials: ReadonlyArray<UrlCredential>): string => {
  const parsed = new URL(respellUrlCredentials(url))
  const password = credentials.find((credential) => credential.part === "password")
  if (password !== undefined) parsed.password = encodeURIComponent(password.value)
  return parsed.href
}

/**
 * The names of the task's secret inputs that are credentials of its start URL (see
 * {@link withStartUrlSecrets}): the only secrets a `navigate` back to the start origin may carry in its URL.
 */
export const startUrlSecretNames = (task: Pick<AgentTask, "startUrl" | "inputs" | "secretInputs">) => {
  if (task.startUrl === undefined) return new Set<string>()
  const values = new Set(urlCredentials(task.startUrl).map((credential) => credential.value))
  return new Set(
    secretValuesOf(task)
      .filter((secret) => values.has(secret.value))
      .map((secret) => secret.name),
  )
}
