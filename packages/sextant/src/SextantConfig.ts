import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { causeMessage, TaskConstraints } from "@sextant/core"
import { ConnectOptions, GridOptions, LaunchOptions } from "@sextant/webdriverio"
import { z } from "zod"
import type { AgentTool, BrowserOptions } from "./createAgent.ts"

/** The model part of `sextant.config.ts`: an OpenAI-compatible endpoint. */
const ModelConfig = z
  .object({
    /** The model name the endpoint knows (`gpt-4o-mini`, `qwen2.5:7b`, …). */
    model: z.string().trim().min(1, "name the model, e.g. gpt-4o-mini").optional(),
    /** The endpoint, ending in `/v1` for most servers. */
    baseURL: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).optional(),
    /** The environment variable holding the API key (default `OPENAI_API_KEY`). */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name, e.g. OPENAI_API_KEY")
      .optional(),
    /** The API key itself; prefer `apiKeyEnv` so the key stays out of the file. */
    apiKey: z.string().min(1).optional(),
    /**
     * Time for one model call attempt, in milliseconds (default 60000). `--model-timeout` and
     * `SEXTANT_LLM_TIMEOUT_MS` win over it.
     */
    timeoutMs: z
      .number({ error: "must be a whole number of milliseconds, e.g. 30000" })
      .int("must be a whole number of milliseconds, e.g. 30000")
      .positive("must be a whole number of milliseconds, e.g. 30000")
      .optional(),
    /**
     * Retries of a model call after a timeout, a 429, a 5xx or a broken connection (default 3).
     * `--model-retries` and `SEXTANT_LLM_MAX_RETRIES` win over it.
     */
    maxRetries: z
      .number({ error: "must be a whole number of retries, e.g. 1 (0: no retry)" })
      .int("must be a whole number of retries, e.g. 1 (0: no retry)")
      .nonnegative("must be a whole number of retries, e.g. 1 (0: no retry)")
      .optional(),
    /** Further options of `@sextant/openai` (`structuredOutput`, `supportsImages`, `headers`, …). */
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()

const LaunchConfig = LaunchOptions.strict()
const GridConfig = GridOptions.omit({ url: true }).extend({ grid: GridOptions.shape.url }).strict()
const ConnectConfig = z.object({ connect: ConnectOptions }).strict()

/**
 * The problems of a `browser` that fits none of its forms, from the form its keys choose (`grid`,
 * `connect`, else the launch options): `browser.grid: must be …`, not zod's bare "Invalid input".
 */
const browserIssues = (value: unknown): ReadonlyArray<string> => {
  if (typeof value !== "object" || value === null)
    return ["browser: must be an object of launch options, { grid: … } or { connect: … }"]
  const form = "grid" in value ? GridConfig : "connect" in value ? ConnectConfig : LaunchConfig
  const parsed = form.safeParse(value)
  return parsed.success
    ? []
    : parsed.error.issues.map(
        (issue) => `${["browser", ...issue.path.map(String)].join(".")}: ${issue.message}`,
      )
}

/** What `sextant.config.ts` may hold; every field is optional. */
export const SextantConfigSchema = z
  .object({
    model: ModelConfig.optional(),
    /** Who plans: `rules`, `model` or `hybrid` (default: hybrid with a model, rules without). */
    planner: z.enum(["rules", "model", "hybrid"]).optional(),
    /**
     * The local browser's launch options, `{ grid: "http://host:4444", … }` for a Selenium Grid 4, or
     * `{ connect: … }` for another remote WebDriver endpoint.
     */
    browser: z.union([LaunchConfig, GridConfig, ConnectConfig]).optional(),
    /** Constraints every task gets unless it sets its own. */
    constraints: TaskConstraints.partial().strict().optional(),
    /** The SQLite store file (default `.sextant/sextant.db`), or a `postgres://` URL for a PostgreSQL store. */
    store: z.string().min(1).optional(),
    /** Where traces, transcripts and screenshots go (default `.sextant/traces`). */
    traceDirectory: z.string().min(1).optional(),
    /** Tool packages by name, resolved from the config file's folder: `["@acme/sextant-tools-x"]`. */
    tools: z.array(z.string().trim().min(1, "name a package, e.g. @sextant/tools-table")).optional(),
  })
  .strict()

/** What you write in `sextant.config.ts`. */
export type SextantConfigInput = z.input<typeof SextantConfigSchema>

/** A loaded config: the file's settings and the tools its packages export. */
export type SextantConfig = Omit<z.output<typeof SextantConfigSchema>, "browser"> & {
  readonly browser?: (BrowserOptions & { readonly headless?: boolean }) | undefined
  readonly path?: string | undefined
  readonly loadedTools?: ReadonlyArray<AgentTool> | undefined
}

/**
 * Types a `sextant.config.ts`; the CLI validates it when it loads it and names the field that is wrong.
 *
 * @example
 * ```ts
 * // sextant.config.ts
 * import { defineConfig } from "sextant-agent"
 * export default defineConfig({
 *   model: { model: "gpt-4o-mini", apiKeyEnv: "OPENAI_API_KEY" },
 *   constraints: { maxSteps: 20 },
 *   tools: ["@sextant/tools-table"],
 * })
 * ```
 */
export const defineConfig = (config: SextantConfigInput): SextantConfigInput => config

/** A config file that cannot be used; `issues` name the field (`model.baseURL: …`). */
export class ConfigError extends Error {
  readonly _tag = "ConfigError"
  readonly path: string
  readonly issues: ReadonlyArray<string>
  constructor(path: string, issues: ReadonlyArray<string>) {
    super(`${path}: ${issues.join("; ")}`)
    this.path = path
    this.issues = issues
  }
}

const isTool = (value: unknown): value is AgentTool => {
  const candidate = value as Partial<AgentTool> | null
  return (
    candidate !== null &&
    typeof candidate === "object" &&
    typeof candidate.name === "string" &&
    typeof candidate.description === "string" &&
    typeof (candidate.input as { safeParse?: unknown } | undefined)?.safeParse === "function" &&
    typeof candidate.run === "function"
  )
}

/** The tools a tool package exports (every export made with `defineTool`, and arrays of them). */
export const toolsOfModule = (module: Record<string, unknown>): Array<AgentTool> => {
  const found = new Map<string, AgentTool>()
  for (const value of Object.values(module)) {
    for (const item of Array.isArray(value) ? value : [value]) if (isTool(item)) found.set(item.name, item)
  }
  return [...found.values()]
}

/**
 * Loads tool packages by name, resolved from `from` (a file in the folder whose `node_modules` hold
 * them). Fails with the index and name of the package that is missing or exports no tool.
 */
export const loadToolPackages = async (
  names: ReadonlyArray<string>,
  from: string,
): Promise<Array<AgentTool>> => {
  const require = createRequire(from)
  const tools: Array<AgentTool> = []
  const issues: Array<string> = []
  for (const [index, name] of names.entries()) {
    let module: Record<string, unknown>
    try {
      module = (await import(pathToFileURL(require.resolve(name)).href)) as Record<string, unknown>
    } catch (cause) {
      issues.push(
        `tools[${index}]: cannot load "${name}" (${causeMessage(cause).split("\n")[0]}); install it next to the config`,
      )
      continue
    }
    const exported = toolsOfModule(module)
    if (exported.length === 0)
      issues.push(`tools[${index}]: "${name}" exports no tool made with defineTool from @sextant/core`)
    tools.push(...exported)
  }
  if (issues.length > 0) throw new ConfigError(from, issues)
  return tools
}

/**
 * Loads and validates `sextant.config.ts` (or `.js`/`.mjs`): `path` when given, else the file in `cwd`
 * when there is one. Node runs the TypeScript file itself (type stripping), so no build step is needed.
 * Resolves undefined when there is no config; rejects with a {@link ConfigError} naming the field.
 */
export const loadConfig = async (
  path: string | undefined,
  cwd: string = process.cwd(),
): Promise<SextantConfig | undefined> => {
  const candidates =
    path === undefined
      ? ["sextant.config.ts", "sextant.config.mjs", "sextant.config.js"].map((name) => resolve(cwd, name))
      : [resolve(cwd, path)]
  const file = candidates.find((candidate) => existsSync(candidate))
  if (file === undefined) {
    if (path !== undefined) throw new ConfigError(resolve(cwd, path), ["the file does not exist"])
    return undefined
  }
  let module: { default?: unknown }
  try {
    module = (await import(pathToFileURL(file).href)) as { default?: unknown }
  } catch (cause) {
    throw new ConfigError(file, [`cannot be loaded: ${causeMessage(cause).split("\n")[0]}`])
  }
  const parsed = SextantConfigSchema.safeParse(module.default)
  if (!parsed.success) {
    const config = module.default as { readonly browser?: unknown }
    throw new ConfigError(file, [
      ...new Set(
        parsed.error.issues.flatMap((issue) =>
          issue.path[0] === "browser"
            ? browserIssues(config.browser)
            : [
                issue.path.length === 0
                  ? `export default defineConfig({ … }): ${issue.message}`
                  : `${issue.path.join(".")}: ${issue.message}`,
              ],
        ),
      ),
    ])
  }
  const loadedTools =
    parsed.data.tools === undefined ? undefined : await loadToolPackages(parsed.data.tools, file)
  return { ...parsed.data, path: file, loadedTools } as SextantConfig
}
