import { createInterface } from "node:readline"
import type { Writable } from "node:stream"
import { causeMessage } from "@sextant/core"
import type { Redactor } from "@sextant/executor"
import type { PageAgent } from "@sextant/webdriverio"
import type { Command } from "commander"
import { z } from "zod"
import type { CliContext } from "./CliIo.ts"

const ReplArguments = z.object({
  url: z
    .url({ protocol: /^https?$/, error: "must be an http or https URL, e.g. http://127.0.0.1:4000/login" })
    .optional(),
  chrome: z.string().min(1).optional(),
  chromedriver: z.string().min(1).optional(),
  headless: z.boolean(),
  grid: z
    .url({
      protocol: /^https?$/,
      error: "must be the Selenium Grid's http or https URL, e.g. --grid http://127.0.0.1:4444",
    })
    .optional(),
})

/**
 * What `look` and `repl` print goes through this: a token a site put in the URL of a page the browser
 * reached (`?session_token=`, `#access_token=`, learned with `learnUrl`) is shown as `<secret:page_url_…>`
 * from then on, as a run's trace and the MCP server's answers show it (output of `look` is often pasted
 * into a model's prompt).
 */
export type UrlTokenHider = Pick<Redactor, "learnUrl" | "text" | "value">

/** A {@link UrlTokenHider} for one command: the executor's redactor with no secrets (loaded with the browser). */
export const urlTokenHider = async (): Promise<UrlTokenHider> => {
  const { makeRedactor } = await import("@sextant/executor")
  return makeRedactor({ inputs: {}, secretInputs: [] })
}

/** The page agent the look flags ask for: on the grid of `--grid`, else on the local Chromium. */
export const openPageAgent = async (flags: {
  readonly chrome?: string | undefined
  readonly chromedriver?: string | undefined
  readonly headless: boolean
  readonly grid?: string | undefined
}): Promise<PageAgent> => {
  const { gridPageAgent, launchPageAgent } = await import("@sextant/webdriverio")
  const { chrome, chromedriver, headless, grid } = flags
  return grid === undefined
    ? launchPageAgent({
        headless,
        ...(chrome === undefined ? {} : { chromePath: chrome }),
        ...(chromedriver === undefined ? {} : { chromedriverPath: chromedriver }),
      })
    : gridPageAgent({ url: grid, headless, ...(chrome === undefined ? {} : { chromePath: chrome }) })
}

const help = `commands:
  look                         the page outline with refs
  act <ref> <op> [value]       click, input, clear, focus, check, uncheck, select, set, upload, hover, press
  go <url>                     load a page
  wait <ref|selector|js> [ms]  wait for an element or a JavaScript condition
  eval <js>                    run JavaScript in the page and print the result
  back | refresh               history
  help                         this list
  quit                         close the browser and leave`

/** Splits a command line into words; "double" or 'single' quotes keep spaces. */
const splitWords = (line: string): ReadonlyArray<string> => {
  const words: Array<string> = []
  const pattern = /"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g
  for (const match of line.matchAll(pattern)) {
    words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? match[3] ?? ""))
  }
  return words
}

const show = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value, null, 2))

const shownActions = 12

const actionsLine = (
  actions: ReadonlyArray<{ ref: string; role: string; name: string; ops: ReadonlyArray<string> }>,
) => {
  const onElements = actions.filter((action) => action.ref !== "_page")
  if (onElements.length === 0) return "actions: none"
  const listed = onElements
    .slice(0, shownActions)
    .map((action) => `${action.ref} ${action.role} "${action.name}" (${action.ops.join("/")})`)
  return `actions: ${listed.join("; ")}${onElements.length > shownActions ? "; …" : ""}`
}

/** Runs one REPL line against the agent; returns false when the user asked to leave. */
const runLine = async (
  agent: PageAgent,
  line: string,
  out: Writable,
  hider: UrlTokenHider,
): Promise<boolean> => {
  const words = splitWords(line.trim())
  const [command, ...rest] = words
  const print = (text: string) => out.write(`${hider.text(text)}\n`)
  const failed = (result: { ok: boolean; error?: string }) => {
    if (result.ok === false && result.error !== undefined) {
      print(`error: ${result.error}`)
      return true
    }
    return false
  }
  switch (command) {
    case undefined:
      return true
    case "quit":
    case "exit":
      return false
    case "help":
      print(help)
      return true
    case "look": {
      const result = await agent.look()
      if ("error" in result) print(`error: ${result.error}`)
      else {
        hider.learnUrl(result.url)
        print(`${result.title} — ${result.url}\n${result.tree}`)
      }
      return true
    }
    case "act": {
      const [ref, op, ...value] = rest
      if (ref === undefined || op === undefined) {
        print("usage: act <ref> <op> [value], e.g. act e1 input alice@example.com")
        return true
      }
      const text = value.join(" ")
      const argument = op === "select" && value.length > 1 ? value : value.length === 0 ? undefined : text
      const result = await agent.act(ref, op, argument)
      if (failed(result) || !result.ok) return true
      print(`ok: ${result.hint}`)
      print(`signals: ${result.signals.length === 0 ? "none" : result.signals.join(", ")}`)
      print(actionsLine(result.actions))
      return true
    }
    case "go": {
      const [url] = rest
      if (url === undefined) {
        print("usage: go <url>")
        return true
      }
      const result = await agent.go(url)
      if (!failed(result) && result.ok) {
        hider.learnUrl(result.url)
        print(`ok: ${result.title} — ${result.url}`)
      }
      return true
    }
    case "back":
    case "refresh": {
      const result = await (command === "back" ? agent.back() : agent.refresh())
      if (!failed(result) && result.ok) {
        hider.learnUrl(result.url)
        print(`ok: ${result.title} — ${result.url}`)
      }
      return true
    }
    case "wait": {
      const last = rest.at(-1)
      const hasTimeout = rest.length > 1 && last !== undefined && /^\d+$/.test(last)
      const condition = (hasTimeout ? rest.slice(0, -1) : rest).join(" ")
      if (condition === "") {
        print("usage: wait <ref|selector|js> [timeoutMs]")
        return true
      }
      const result = await agent.wait(condition, hasTimeout ? Number(last) : undefined)
      if (failed(result) || !("elapsed" in result)) return true
      print(result.ok ? `ok after ${result.elapsed} ms` : `not yet after ${result.elapsed} ms`)
      return true
    }
    case "eval": {
      const script = line.trim().slice("eval".length).trim()
      if (script === "") {
        print("usage: eval <js>, e.g. eval document.title")
        return true
      }
      const result = await agent.eval(script)
      if (!failed(result) && result.ok) print(show(result.result))
      return true
    }
    default:
      print(`unknown command ${JSON.stringify(command)}: type help for the list`)
      return true
  }
}

export const repl = async (url: string | undefined, options: Record<string, unknown>, cli: CliContext) => {
  const parsed = ReplArguments.safeParse({ url, ...options })
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      cli.stderr.write(`sextant repl: ${issue.path.join(".")}: ${issue.message}\n`)
    cli.exitCode = 2
    return
  }

  const out = cli.stdout
  const interactive = process.stdin.isTTY === true
  out.write("starting Chromium…\n")
  let agent: PageAgent
  let hider: UrlTokenHider
  try {
    // Loaded when the prompt opens, so --help and usage errors answer at once.
    agent = await openPageAgent(parsed.data)
    hider = await urlTokenHider()
  } catch (error) {
    cli.stderr.write(`sextant repl: ${causeMessage(error)}\n`)
    cli.exitCode = 1
    return
  }
  const onSignal = () => {
    void agent.close().finally(() => process.exit(130))
  }
  process.once("SIGINT", onSignal)
  try {
    if (parsed.data.url !== undefined) await runLine(agent, `go ${parsed.data.url}`, out, hider)
    else out.write("type help for the commands\n")
    const lines = createInterface({ input: process.stdin, terminal: interactive })
    if (interactive) {
      lines.setPrompt("sextant> ")
      lines.prompt()
    }
    for await (const line of lines) {
      let keepGoing = true
      try {
        keepGoing = await runLine(agent, line, out, hider)
      } catch (error) {
        out.write(`error: ${hider.text(causeMessage(error))}\n`)
      }
      if (!keepGoing) break
      if (interactive) lines.prompt()
    }
    lines.close()
  } finally {
    process.off("SIGINT", onSignal)
    await agent.close()
    out.write("bye\n")
  }
}

/** Adds `sextant repl [url]`: an interactive prompt on a headless Chromium. */
export const registerRepl = (program: Command, cli: CliContext): void => {
  program
    .command("repl")
    .description("open a headless Chromium and drive it with look, act, go, wait, eval, back, quit")
    .argument("[url]", "page to open first")
    .option("--chrome <path>", "Chromium binary (default SEXTANT_CHROME or /usr/bin/chromium)")
    .option(
      "--chromedriver <path>",
      "ChromeDriver binary (default SEXTANT_CHROMEDRIVER or /usr/bin/chromedriver)",
    )
    .option("--no-headless", "show the browser window")
    .option("--grid <url>", "open the browser on a Selenium Grid 4 (its hub or router URL)")
    .action((url: string | undefined, options: Record<string, unknown>) => repl(url, options, cli))
}
