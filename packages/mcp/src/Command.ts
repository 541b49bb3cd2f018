import { resolve } from "node:path"
import { parseArgs } from "node:util"
import { causeMessage, nearestName } from "@sextant/core"
import { type HttpOptionsInput, tokenVariable } from "./HttpOptions.ts"
import { serveHttp, serveStdio } from "./McpServer.ts"
import { defaultTraceDirectory, type ServerOptionsInput } from "./ServerOptions.ts"

/** The usage of `sextant mcp` (and of `sextant-mcp`). */
export const mcpUsage = `usage: sextant mcp [options]
  Serves the Sextant browser tools to an MCP client over stdio (or Streamable HTTP with --http).
  --http                     serve Streamable HTTP on 127.0.0.1 instead of stdio
  --port <n>                 the HTTP port (default 0: any free port, printed on stderr)
  --allowed-host <host:port> also answer requests with this Host header (repeatable; default only
                             127.0.0.1, localhost and [::1] with the server's port)
  --allowed-origin-header <origin>
                             also answer browser requests with this Origin header (repeatable; default
                             only the server's own origin)
  --idle-timeout <seconds>   end an HTTP session, and close its browser, after this long without a
                             request (default 900)
                             HTTP requests need Authorization: Bearer <token>: the token is
                             SEXTANT_MCP_TOKEN, or made at start and printed once on stderr
  --allowed-origin <url>     an origin the browser may load (repeatable; default any)
  --secret-origin <url>      an origin secrets may be typed on (repeatable; default the
                             --allowed-origin list; with neither, secrets are never typed)
  --lenient-after-secret     once a secret is typed, block only requests that carry it (default:
                             every request to an origin other than the --secret-origin list)
  --allow-submit             allow submitting forms
  --allow-destructive        allow what the default blocked patterns refuse (sign out, log out,
                             delete, destroy, deactivate, unsubscribe, close account)
  --allow-upload-dir <dir>   a folder act may upload files from (repeatable; relative to the
                             working directory; default none: every upload is refused)
  --max-navigations <n>      navigation quota per client session, runs included (default: no cap)
  --max-clicks <n>           click quota per client session, runs included (default: no cap)
  --max-submissions <n>      submission quota per client session, runs included (default: no cap)
  --trace                    write the traces of run calls to $XDG_CACHE_HOME/sextant/traces
                             (else ~/.cache/sextant/traces); default: no traces, nothing written
  --secret <name>            a secret typed as <secret:name>, its value from SEXTANT_SECRET_<NAME> (repeatable)
  --eval                     offer the eval tool (JavaScript in the page; not with --secret)
  --chrome <path>            Chromium binary (default SEXTANT_CHROME or /usr/bin/chromium)
  --chromedriver <path>      ChromeDriver binary (default SEXTANT_CHROMEDRIVER or /usr/bin/chromedriver)
  --headed                   show the browser window`

/** A usage mistake: the message names the flag; the command prints it with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError"
}

const whole = (flag: string, value: string | undefined, minimum: number): number | undefined => {
  if (value === undefined) return undefined
  const number = Number(value)
  if (!Number.isInteger(number) || number < minimum)
    throw new UsageError(`--${flag} must be a whole number ≥ ${minimum}, got ${value}`)
  return number
}

/** The flags of `sextant mcp`, as `parseArgs` reads them. */
const mcpOptions = {
  http: { type: "boolean" },
  port: { type: "string" },
  "allowed-host": { type: "string", multiple: true },
  "allowed-origin-header": { type: "string", multiple: true },
  "idle-timeout": { type: "string" },
  "allowed-origin": { type: "string", multiple: true },
  "secret-origin": { type: "string", multiple: true },
  "lenient-after-secret": { type: "boolean" },
  "allow-submit": { type: "boolean" },
  "allow-destructive": { type: "boolean" },
  "allow-upload-dir": { type: "string", multiple: true },
  trace: { type: "boolean" },
  "max-navigations": { type: "string" },
  "max-clicks": { type: "string" },
  "max-submissions": { type: "string" },
  secret: { type: "string", multiple: true },
  eval: { type: "boolean" },
  chrome: { type: "string" },
  chromedriver: { type: "string" },
  headed: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const

/**
 * A flag `parseArgs` does not know, with the one it most likely meant (`Unknown option '--allowed-orign':
 * did you mean --allowed-origin?`), as the other commands answer.
 */
const withNearestFlag = (message: string, error: unknown, args: ReadonlyArray<string>): string => {
  if ((error as { code?: unknown } | undefined)?.code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return message
  const known = Object.keys(mcpOptions)
  const unknown = args
    .filter((arg) => arg.startsWith("--"))
    .map((arg) => arg.slice(2).split("=")[0] ?? "")
    .find((name) => !known.includes(name))
  const near = unknown === undefined ? undefined : nearestName(unknown, known)
  return near === undefined ? message : `${message}: did you mean --${near}?`
}

/** What the command line asks for: the server's options and where to serve. */
export interface McpCommand {
  readonly options: ServerOptionsInput
  readonly http: HttpOptionsInput | undefined
  readonly help: boolean
}

/**
 * Reads the flags of `sextant mcp`; throws a `UsageError` naming the flag for a mistake.
 *
 * @example
 * ```ts
 * import { parseMcpCommand } from "@sextant/mcp"
 * parseMcpCommand(["--allow-submit", "--secret", "password"]).options.secrets // ["password"]
 * ```
 */
export const parseMcpCommand = (args: ReadonlyArray<string>): McpCommand => {
  let values: ReturnType<typeof parse>["values"]
  const parse = (argv: Array<string>) =>
    parseArgs({ args: argv, strict: true, allowPositionals: false, options: mcpOptions })
  try {
    values = parse([...args]).values
  } catch (error) {
    throw new UsageError(withNearestFlag(causeMessage(error), error, args))
  }
  const port = whole("port", values.port, 0)
  if (port !== undefined && port > 65_535) throw new UsageError(`--port must be at most 65535, got ${port}`)
  for (const flag of ["port", "allowed-host", "allowed-origin-header", "idle-timeout"] as const) {
    if (values[flag] !== undefined && values.http !== true) throw new UsageError(`--${flag} needs --http`)
  }
  // A session with secrets refuses eval (it could read a typed secret back): offered, it would never run.
  if (values.eval === true && (values.secret ?? []).length > 0)
    throw new UsageError(
      "--eval cannot go with --secret: a session with secrets refuses eval, so it would never run; leave one of them out",
    )
  const idleSeconds = whole("idle-timeout", values["idle-timeout"], 1)
  for (const flag of ["allowed-origin", "secret-origin", "allowed-origin-header"] as const) {
    for (const origin of values[flag] ?? []) {
      if (!URL.canParse(origin) || !/^https?:$/.test(new URL(origin).protocol))
        throw new UsageError(`--${flag} must be an http(s) URL such as http://127.0.0.1:4000, got ${origin}`)
    }
  }
  for (const folder of values["allow-upload-dir"] ?? []) {
    if (folder.trim() === "")
      throw new UsageError("--allow-upload-dir must name a folder, got an empty value")
  }
  const quotas = {
    ...(values["max-navigations"] === undefined
      ? {}
      : { navigations: whole("max-navigations", values["max-navigations"], 0) }),
    ...(values["max-clicks"] === undefined ? {} : { clicks: whole("max-clicks", values["max-clicks"], 0) }),
    ...(values["max-submissions"] === undefined
      ? {}
      : { submissions: whole("max-submissions", values["max-submissions"], 0) }),
  }
  return {
    help: values.help === true,
    http:
      values.http === true
        ? {
            port: port ?? 0,
            allowedHosts: values["allowed-host"] ?? [],
            allowedOriginHeaders: values["allowed-origin-header"] ?? [],
            ...(idleSeconds === undefined ? {} : { idleTimeoutMs: idleSeconds * 1000 }),
          }
        : undefined,
    options: {
      constraints: {
        ...(values["allowed-origin"] === undefined ? {} : { allowedOrigins: values["allowed-origin"] }),
        allowFormSubmission: values["allow-submit"] === true,
        ...(Object.keys(quotas).length === 0 ? {} : { quotas }),
      },
      secrets: values.secret ?? [],
      ...(values["secret-origin"] === undefined ? {} : { secretOrigins: values["secret-origin"] }),
      ...(values["lenient-after-secret"] === true ? { strictAfterSecret: false } : {}),
      allowEval: values.eval === true,
      allowDestructive: values["allow-destructive"] === true,
      // Resolved here, against the folder the server is started in, so the option holds absolute paths.
      allowUploadDirs: (values["allow-upload-dir"] ?? []).map((folder) => resolve(folder)),
      ...(values.trace === true ? { traceDirectory: defaultTraceDirectory() } : {}),
      browser: {
        headless: values.headed !== true,
        ...(values.chrome === undefined ? {} : { chromePath: values.chrome }),
        ...(values.chromedriver === undefined ? {} : { chromedriverPath: values.chromedriver }),
      },
    },
  }
}

/**
 * Runs `sextant mcp`: serves stdio until the client goes, or HTTP until SIGINT/SIGTERM. Returns the
 * exit code (2 for a usage mistake, printed on stderr with the usage; stdout belongs to the protocol).
 */
export const runMcpCommand = async (args: ReadonlyArray<string>): Promise<number> => {
  let command: McpCommand
  try {
    command = parseMcpCommand(args)
  } catch (error) {
    process.stderr.write(`sextant mcp: ${causeMessage(error)}\n${mcpUsage}\n`)
    return 2
  }
  if (command.help) {
    process.stderr.write(`${mcpUsage}\n`)
    return 0
  }
  try {
    if (command.http === undefined) {
      await serveStdio(command.options)
      return 0
    }
    const server = await serveHttp(command.options, command.http)
    // The token is shown once, here, and only when it was made now: one given by the user stays theirs.
    process.stderr.write(
      `Sextant MCP server on ${server.url}\n${
        server.tokenSource === "generated"
          ? `Authorization: Bearer ${server.token}\n`
          : `Authorization: Bearer <the token in ${tokenVariable}>\n`
      }`,
    )
    await new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve())
      process.once("SIGTERM", () => resolve())
    })
    await server.close()
    return 0
  } catch (error) {
    process.stderr.write(`sextant mcp: ${causeMessage(error)}\n`)
    return error instanceof TypeError ? 2 : 1
  }
}
