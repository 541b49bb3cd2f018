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

/** An agent's options from the flags, the environment and the config file, and which planner runs. */
export interface ResolvedAgent {
  readonly options: CreateAgentOptions
  /** The store as messages show it (a URL's password replaced by `***`). */
  readonly store: string
  /** One line for a person: which planner runs, and with which model. */
  readonly plannerLine: string
}

/**
 * Flags win over the environment, the environment over the config file. A model is configured when a
 * model name is: then the hybrid planner runs (rules first, the model when rules cannot), else the
 * rule planner.
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
    issues.push({ field: "baseUrl", message: `OPENAI_BASE_URL is not an http or https URL: ${baseURL}` })
  const store = flags.store ?? config?.store ?? ".sextant/sextant.db"
  const badStore = storeIssue(store)
  if (badStore !== undefined) issues.push({ field: "store", message: badStore })
  const onGrid = flags.grid !== undefined || (config?.browser !== undefined && "grid" in config.browser)
  if (onGrid && flags.chromedriver !== undefined)
    issues.push({
      field: "chromedriver",
      message: "a grid's nodes run their own ChromeDriver: leave out --chromedriver with --grid",
    })
  if (issues.length > 0) return issues

  const modelOptions =
    model === undefined || apiKey === undefined
      ? undefined
      : { ...(fromConfig?.options ?? {}), model, apiKey, ...(baseURL === undefined ? {} : { baseURL }) }
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
  const endpoint = baseURL ?? "https://api.openai.com/v1"
  return {
    store: displayStore(store),
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
