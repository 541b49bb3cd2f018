import { homedir } from "node:os"
import { isAbsolute, join } from "node:path"
import { TaskConstraints } from "@sextant/core"
import type { GuardrailSettingNames } from "@sextant/executor"
import { LaunchOptions } from "@sextant/webdriverio"
import { z } from "zod"

/**
 * A quota an MCP session has unless a flag or option sets one: no cap. A person driving a browser
 * through a client for an hour loads more than 20 pages and sends more than 2 forms; the executor's
 * defaults (20 navigations, 100 clicks, 2 submissions) are for one unattended run.
 */
export const NO_QUOTA = Number.MAX_SAFE_INTEGER

const sessionQuota = z.number().int().nonnegative().default(NO_QUOTA)

/** The session's quotas: each one uncapped unless given (`--max-navigations`, `--max-clicks`, `--max-submissions`). */
const SessionQuotas = z
  .strictObject({ navigations: sessionQuota, clicks: sessionQuota, submissions: sessionQuota })
  .prefault({})

/**
 * The flags of `sextant mcp` that change each guardrail, with the option behind it: every refusal the
 * server answers names the one to change (`… is used up: raise it with --max-navigations …`).
 */
export const mcpSettingNames: GuardrailSettingNames = {
  allowedOrigins: "--allowed-origin (option constraints.allowedOrigins)",
  allowFormSubmission: "--allow-submit (option constraints.allowFormSubmission)",
  navigations: "--max-navigations (option constraints.quotas.navigations)",
  clicks: "--max-clicks (option constraints.quotas.clicks)",
  submissions: "--max-submissions (option constraints.quotas.submissions)",
  blockedPatterns: "--allow-destructive (option allowDestructive)",
  allowedUploadDirs: "--allow-upload-dir DIR (option allowUploadDirs)",
}

/**
 * Where `sextant mcp --trace` writes the traces of its `run` calls: `$XDG_CACHE_HOME/sextant/traces`, else
 * `~/.cache/sextant/traces` — a per-user folder, never the client's working directory.
 */
export const defaultTraceDirectory = (env: NodeJS.ProcessEnv = process.env): string => {
  const cache = env.XDG_CACHE_HOME
  return join(cache?.startsWith("/") ? cache : join(homedir(), ".cache"), "sextant", "traces")
}

/**
 * Options of the Sextant MCP server. The guardrails are the executor's: `constraints` are the task
 * constraints every browser call and every `run` is checked against (allowed origins, form submission,
 * quotas); secrets are named here and their values come from the environment, never from the client.
 */
export const ServerOptions = z.object({
  /**
   * Task constraints the guardrails enforce on every call (allowed origins, submissions, quotas). The
   * quotas are per client session and uncapped unless given ({@link NO_QUOTA}).
   */
  constraints: TaskConstraints.partial().extend({ quotas: SessionQuotas }).prefault({}),
  /** Secret input names; each value is read from `SEXTANT_SECRET_<NAME>` (or given in `secretValues`). */
  secrets: z.array(z.string().regex(/^[A-Za-z0-9_.-]+$/, "use letters, digits, '.', '_' or '-'")).default([]),
  /** Secret values by name, for embedding the server in a program; the environment is read otherwise. */
  secretValues: z.record(z.string(), z.string()).optional(),
  /**
   * The origins secrets may be typed on (e.g. `["http://127.0.0.1:4000"]`), known before any call. Default:
   * `constraints.allowedOrigins`. With neither, typing a secret is refused: a secret is never bound to
   * whatever page a client happens to open.
   */
  secretOrigins: z
    .array(
      z
        .string()
        .refine(
          (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
          "use an http(s) origin such as http://127.0.0.1:4000",
        )
        .transform((value) => new URL(value).origin),
    )
    .optional(),
  /**
   * Lift the default blocked patterns (sign out, log out, delete, destroy, deactivate, unsubscribe,
   * close account): the session may then click and load what they match. Off by default.
   */
  allowDestructive: z.boolean().default(false),
  /**
   * Where the traces of `run` calls go (`<runId>.jsonl` and a transcript). Default: none are written.
   * `sextant mcp --trace` sets it to {@link defaultTraceDirectory}.
   */
  traceDirectory: z.string().min(1).optional(),
  /**
   * Once `act` types a secret, the session's pages may reach only the secret's origins (`secretOrigins`)
   * until the session ends: every request to another origin is blocked, whatever it carries, so an
   * encoded or split spelling of the secret cannot leave either — as a `run` does. On by default;
   * `false` (`--lenient-after-secret`) blocks only the requests that carry a secret in a spelling the
   * guard knows, for sites that need other origins after log-in (add those to `secretOrigins` instead
   * when they are trusted).
   */
  strictAfterSecret: z.boolean().default(true),
  /**
   * Absolute folders `act` with `op: "upload"` (and the `upload` steps of a `run`) may take files from
   * (`--allow-upload-dir DIR`). A file is uploaded only when its real path (symlinks followed, `..`
   * gone) lies inside one of them. Default: none, so every upload is refused with a message naming
   * the flag.
   */
  allowUploadDirs: z
    .array(
      z
        .string()
        .min(1)
        .refine((value) => isAbsolute(value), "use an absolute folder path such as /home/me/uploads"),
    )
    .default([]),
  /** Offer the `eval` tool (JavaScript in the page). Off by default. */
  allowEval: z.boolean().default(false),
  /** How the browser of each client session is launched (system Chromium, headless by default). */
  browser: LaunchOptions.prefault({}),
  /**
   * Sessions take turns on the process's one shared Chromium (`sharedSession` of
   * `@sextant/webdriverio`) instead of each launching its own: a session gets it in a fresh browser
   * context, with the previous session's tabs, cookies and storage gone, and gives it back when it
   * ends; a session that starts while another holds it launches its own. The shared Chromium ends with
   * the process, so `browserProcesses()` can name processes that outlive their session. Off by default.
   */
  shareBrowser: z.boolean().default(false),
  /** Characters of records a `run` answer shows before it cuts. Default 4000. */
  maxOutputChars: z.number().int().positive().default(4000),
})
export type ServerOptions = z.output<typeof ServerOptions>
export type ServerOptionsInput = z.input<typeof ServerOptions>

/** The environment variable a secret's value is read from: `SEXTANT_SECRET_PASSWORD` for `password`. */
export const secretVariable = (name: string): string =>
  `SEXTANT_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`
