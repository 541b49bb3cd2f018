import { hideUrlCredentials } from "@sextant/core"
import type { Command } from "commander"
import { z } from "zod"
import type { CreateAgentOptions } from "../createAgent.ts"
import type { SextantConfig } from "../SextantConfig.ts"
import { displayStore, storeIssue, storeOption } from "./StoreLocation.ts"

/** The flags every command that builds an agent shares (run, resume, runs). */
export const AgentFlags = z.object({
  model: z.string().trim().min(1, "name the model, e.g. --model gpt-4o-mini").optional(),
  baseUrl: z
    .url({ protocol: /^https?$/, error: "must be an http or https URL, e.g. http://127.0.0.1:11434/v1" })
    .optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "name an environment variable, e.g. --api-key-env GROQ_API_KEY")
    .optional(),
  modelTimeout: z
    .string()
    .regex(/^[1-9]\d*$/, "must be a whole number of milliseconds, e.g. --model-timeout 30000")
    .transform(Number)
    .optional(),
  modelRetries: z
    .string()
    .regex(/^\d+$/, "must be a whole number of retries, e.g. --model-retries 1 (0: no retry)")
    .transform(Number)
    .optional(),
  planner: z.enum(["rules", "model", "hybrid"], { error: "is one of rules, model, hybrid" }).optional(),
  store: z.string().min(1).optional(),
  traceDir: z.string().min(1).optional(),
  chrome: z.string().min(1).optional(),
  chromedriver: z.string().min(1).optional(),
  headless: z.boolean().default(true),
  grid: z
    .url({
      protocol: /^https?$/,
      error: "must be the Selenium Grid's http or https URL, e.g. --grid http://127.0.0.1:4444",
    })
    .optional(),
})
export type AgentFlags = z.output<typeof AgentFlags>

/** Adds the model, planner, store and browser flags to a command. */
export const addAgentFlags = (command: Command, options: { readonly browser?: boolean } = {}): Command => {
  command
    .option(
      "--model <name>",
      "the model to plan with (or SEXTANT_MODEL / OPENAI_MODEL); turns on the hybrid planner",
    )
    .option(
      "--base-url <url>",
      "an OpenAI-compatible endpoint (or OPENAI_BASE_URL; default https://api.openai.com/v1)",
    )
    .option(
      "--api-key-env <name>",
      "the environment variable that holds the API key (default OPENAI_API_KEY)",
    )
    .option(
      "--model-timeout <ms>",
      "time for one model call attempt (or SEXTANT_LLM_TIMEOUT_MS, or model.timeoutMs in the config; default 60000)",
    )
    .option(
      "--model-retries <n>",
      "retries of a model call that timed out or failed (or SEXTANT_LLM_MAX_RETRIES, or model.maxRetries; default 3)",
    )
    .option("--planner <kind>", "rules, model or hybrid (default: hybrid with a model, rules without)")
    .option("--config <path>", "a sextant.config.ts (default: ./sextant.config.ts when it exists)")
    .option(
      "--store <path|url>",
      "the SQLite store file (default .sextant/sextant.db), or a postgres:// URL for a PostgreSQL store",
    )
    .option("--trace-dir <dir>", "where traces, transcripts and screenshots go (default .sextant/traces)")
  if (options.browser !== false) {
    command
      .option("--chrome <path>", "Chromium binary (default SEXTANT_CHROME or /usr/bin/chromium)")
      .option(
        "--chromedriver <path>",
        "ChromeDriver binary (default SEXTANT_CHROMEDRIVER or /usr/bin/chromedriver)",
      )
      .option("--no-headless", "show the browser window")
      .option(
        "--grid <url>",
        "open the browser on a Selenium Grid 4 (its hub or router URL) instead of the local Chromium",
      )
  }
  return command
}

/** The flags of `sextant run` and `sextant resume` that lift a guardrail, each off by default. */
export const GuardFlags = z.object({
  allowUnguardedSecrets: z.boolean().default(false),
  allowDestructive: z.boolean().default(false),
})
export type GuardFlags = z.output<typeof GuardFlags>

/** Adds the flags of {@link GuardFlags} to a command. */
export const addGuardFlags = (command: Command): Command =>
  command
    .option(
      "--allow-destructive",
      "allow what the default blocked patterns refuse (sign out, log out, delete, destroy, deactivate, unsubscribe, close account)",
      false,
    )
    .option(
      "--allow-unguarded-secrets",
      "type secrets even where the browser's requests cannot be guarded (a grid, a BiDi or remote browser): a page may then send them elsewhere",
      false,
    )

/**
 * What refusals call the settings of `sextant run`: its flags, and the config file's fields for the
 * quotas, which have no flag.
 */
export const runSettingNames = {
  allowedOrigins: "--allowed-origin",
  allowFormSubmission: "--allow-submit",
  allowedUploadDirs: "--allow-upload-dir DIR",
  blockedPatterns: "--allow-destructive",
  allowUnguardedSecrets: "--allow-unguarded-secrets",
  navigations: "constraints.quotas.navigations in sextant.config.ts",
  clicks: "constraints.quotas.clicks in sextant.config.ts",
  submissions: "constraints.quotas.submissions in sextant.config.ts",
} as const

/** The guardrail options of an agent from the flags of {@link GuardFlags}; refusals name `names`. */
export const guardOptionsOf = (flags: GuardFlags, names: CreateAgentOptions["settingNames"]) => ({
  ...(flags.allowUnguardedSecrets ? { allowUnguardedSecrets: true } : {}),
  ...(flags.allowDestructive ? { allowDestructive: true } : {}),
  settingNames: names,
})

/** `@sextant/openai`'s defaults (not imported, so `--help` does not load the SDK; a test keeps them equal). */
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000
export const DEFAULT_MODEL_RETRIES = 3

/** How long a model call may take, how often it is tried, and where each value came from. */
export interface ModelLimits {
  readonly baseURL: string
  readonly timeoutMs: number
  /** `--model-timeout`, `SEXTANT_LLM_TIMEOUT_MS`, `<config>: model.timeoutMs` or `the default`. */
  readonly timeoutFrom: string
  readonly maxRetries: number
  readonly retriesFrom: string
}

type Issue = { field: string; message: string }

/**
 * One model limit, the first that is set of flag > environment > config > default. A variable that is
 * not a whole number is an issue naming it (the flag and the config are checked by their schemas).
 */
const pickLimit = (
  flag: { readonly name: string; readonly value: number | undefined },
  variable: { readonly name: string; readonly value: string | undefined; readonly minimum: number },
  config: ReadonlyArray<{ readonly name: string; readonly value: unknown }>,
  fallback: number,
  field: string,
  issues: Array<Issue>,
): { readonly value: number; readonly from: string } => {
  if (flag.value !== undefined) return { value: flag.value, from: flag.name }
  const raw = variable.value?.trim()
  if (raw !== undefined && raw !== "") {
    if (/^\d+$/.test(raw) && Number(raw) >= variable.minimum)
      return { value: Number(raw), from: variable.name }
    issues.push({
      field,
      message: `${variable.name} must be a whole number${variable.minimum > 0 ? " above 0" : ""}, got ${JSON.stringify(raw)}: fix or unset it`,
    })
    return { value: fallback, from: "the default" }
  }
  for (const entry of config) {
    if (typeof entry.value === "number" && Number.isInteger(entry.value) && entry.value >= variable.minimum)
      return { value: entry.value, from: entry.name }
    if (entry.value !== undefined)
      issues.push({
        field,
        message: `${entry.name} must be a whole number, got ${JSON.stringify(entry.value)}`,
      })
  }
  return { value: fallback, from: "the default" }
}

const booleanVariable = (value: string | undefined): boolean | undefined =>
  value === undefined
    ? undefined
    : ["true", "1", "yes"].includes(value)
      ? true
      : ["false", "0", "no"].includes(value)
        ? false
        : undefined

/** An agent's options from the flags, the environment and the config file, and which planner runs. */
export interface ResolvedAgent {
  readonly options: CreateAgentOptions
  /** The store as messages show it (a URL's password replaced by `***`). */
  readonly store: string
  /** One line for a person: which planner runs, and with which model. */
  readonly plannerLine: string
  /** The model call limits, when a model is configured. */
  readonly modelLimits?: ModelLimits | undefined
}

/**
 * Flags win over the environment, the environment over the config file, the config over the defaults.
 * A model is configured when a model name is: then the hybrid planner runs (rules first, the model when
 * rules cannot), else the rule planner. The model call limits go the same way: `--model-timeout` >
 * `SEXTANT_LLM_TIMEOUT_MS` > `model.timeoutMs` > `model.options.timeoutMs` > 60000, and `--model-retries` >
 * `SEXTANT_LLM_MAX_RETRIES` > `model.maxRetries` > `model.options.maxRetries` > 3.
 */
export const resolveAgent = (
  flags: AgentFlags,
  environment: Readonly<Record<string, string | undefined>>,
  config: SextantConfig | undefined,
): ResolvedAgent | Array<{ field: string; message: string }> => {
  const issues: Array<{ field: string; message: string }> = []
  const fromConfig = config?.model
  const model = flags.model ?? environment.SEXTANT_MODEL ?? environment.OPENAI_MODEL ?? fromConfig?.model
  const baseURL = flags.baseUrl ?? environment.OPENAI_BASE_URL ?? fromConfig?.baseURL
  const keyVariable = flags.apiKeyEnv ?? fromConfig?.apiKeyEnv ?? "OPENAI_API_KEY"
  const apiKey = environment[keyVariable] ?? (flags.apiKeyEnv === undefined ? fromConfig?.apiKey : undefined)
  const planner = flags.planner ?? config?.planner
  if (model === undefined) {
    if (flags.baseUrl !== undefined || flags.apiKeyEnv !== undefined)
      issues.push({ field: "model", message: "name the model too (--model, SEXTANT_MODEL or OPENAI_MODEL)" })
    if (planner === "model" || planner === "hybrid")
      issues.push({
        field: "planner",
        message: `the ${planner} planner needs a model: give --model (or set SEXTANT_MODEL)`,
      })
  } else if (apiKey === undefined || apiKey.trim() === "") {
    issues.push({
      field: flags.apiKeyEnv === undefined ? "model" : "apiKeyEnv",
      message: `${keyVariable} is not set: put the API key there (any non-empty value for a local server such as Ollama), or name another variable with --api-key-env`,
    })
  }
  if (
    baseURL !== undefined &&
    flags.baseUrl === undefined &&
    !z.url({ protocol: /^https?$/ }).safeParse(baseURL).success
  )
    issues.push({
      field: "baseUrl",
      message: `OPENAI_BASE_URL is not an http or https URL: ${hideUrlCredentials(baseURL)}`,
    })
  const store = flags.store ?? config?.store ?? ".sextant/sextant.db"
  const badStore = storeIssue(store)
  if (badStore !== undefined) issues.push({ field: "store", message: badStore })
  const onGrid = flags.grid !== undefined || (config?.browser !== undefined && "grid" in config.browser)
  if (onGrid && flags.chromedriver !== undefined)
    issues.push({
      field: "chromedriver",
      message: "a grid's nodes run their own ChromeDriver: leave out --chromedriver with --grid",
    })
  const configName = (field: string) => `${config?.path ?? "the config"}: ${field}`
  const timeout = pickLimit(
    { name: "--model-timeout", value: flags.modelTimeout },
    { name: "SEXTANT_LLM_TIMEOUT_MS", value: environment.SEXTANT_LLM_TIMEOUT_MS, minimum: 1 },
    [
      { name: configName("model.timeoutMs"), value: fromConfig?.timeoutMs },
      { name: configName("model.options.timeoutMs"), value: fromConfig?.options?.timeoutMs },
    ],
    DEFAULT_MODEL_TIMEOUT_MS,
    "modelTimeout",
    issues,
  )
  const retries = pickLimit(
    { name: "--model-retries", value: flags.modelRetries },
    { name: "SEXTANT_LLM_MAX_RETRIES", value: environment.SEXTANT_LLM_MAX_RETRIES, minimum: 0 },
    [
      { name: configName("model.maxRetries"), value: fromConfig?.maxRetries },
      { name: configName("model.options.maxRetries"), value: fromConfig?.options?.maxRetries },
    ],
    DEFAULT_MODEL_RETRIES,
    "modelRetries",
    issues,
  )
  // The other variables @sextant/openai documents win over the config's options too.
  const structuredOutput = environment.SEXTANT_LLM_STRUCTURED_OUTPUT?.trim() as
    | "json_schema"
    | "json_object"
    | "none"
    | ""
    | undefined
  if (
    structuredOutput !== undefined &&
    structuredOutput !== "" &&
    !["json_schema", "json_object", "none"].includes(structuredOutput)
  )
    issues.push({
      field: "model",
      message: `SEXTANT_LLM_STRUCTURED_OUTPUT must be json_schema, json_object or none, got ${JSON.stringify(structuredOutput)}`,
    })
  const switches = { SEXTANT_LLM_IMAGES: "supportsImages", SEXTANT_LLM_STREAM: "stream" } as const
  const fromSwitches: Record<string, boolean> = {}
  for (const [name, option] of Object.entries(switches)) {
    const raw = environment[name]?.trim()
    if (raw === undefined || raw === "") continue
    const value = booleanVariable(raw)
    if (value === undefined)
      issues.push({
        field: "model",
        message: `${name} must be true, false, 1, 0, yes or no, got ${JSON.stringify(raw)}`,
      })
    else fromSwitches[option] = value
  }
  if (issues.length > 0) return issues

  const modelOptions =
    model === undefined || apiKey === undefined
      ? undefined
      : {
          ...(fromConfig?.options ?? {}),
          ...(structuredOutput === undefined || structuredOutput === "" ? {} : { structuredOutput }),
          ...fromSwitches,
          model,
          apiKey,
          ...(baseURL === undefined ? {} : { baseURL }),
          timeoutMs: timeout.value,
          maxRetries: retries.value,
          apiKeyVariable: environment[keyVariable] !== undefined ? keyVariable : configName("model.apiKey"),
        }
  const kind = planner ?? (modelOptions === undefined ? "rules" : "hybrid")
  const headless = flags.headless && config?.browser?.headless !== false
  const configBrowser = config?.browser ?? {}
  // --grid replaces the config's browser, keeping the grid options it has when it names a grid too.
  const browser =
    flags.grid !== undefined
      ? {
          ...("grid" in configBrowser ? configBrowser : {}),
          grid: flags.grid,
          headless,
          ...(flags.chrome === undefined ? {} : { chromePath: flags.chrome }),
        }
      : {
          ...configBrowser,
          headless,
          ...(flags.chrome === undefined ? {} : { chromePath: flags.chrome }),
          ...(flags.chromedriver === undefined ? {} : { chromedriverPath: flags.chromedriver }),
        }
  // The endpoint as messages show it: a password or key in the URL (a proxy's `?api-key=`) hidden.
  const endpoint = hideUrlCredentials(baseURL ?? "https://api.openai.com/v1")
  return {
    store: displayStore(store),
    ...(modelOptions === undefined || kind === "rules"
      ? {}
      : {
          modelLimits: {
            baseURL: endpoint,
            timeoutMs: timeout.value,
            timeoutFrom: timeout.from,
            maxRetries: retries.value,
            retriesFrom: retries.from,
          },
        }),
    plannerLine:
      kind === "rules"
        ? modelOptions === undefined
          ? "planner: rules (no model configured; --model or SEXTANT_MODEL turns on the hybrid planner)"
          : "planner: rules (--planner rules; the model is not asked)"
        : kind === "hybrid"
          ? `planner: hybrid (rules first, then the model ${model} at ${endpoint})`
          : `planner: model (${model} at ${endpoint})`,
    options: {
      store: storeOption(store),
      traceDirectory: flags.traceDir ?? config?.traceDirectory ?? ".sextant/traces",
      planner: kind,
      ...(modelOptions === undefined ? {} : { model: modelOptions }),
      browser,
      ...(config?.constraints === undefined ? {} : { constraints: config.constraints }),
      ...(config?.loadedTools === undefined ? {} : { tools: config.loadedTools }),
    },
  }
}
