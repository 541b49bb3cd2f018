import type { Writable } from "node:stream"
import { causeMessage } from "@sextant/core"
import type { PageAgent } from "@sextant/webdriverio"
import type { Command } from "commander"
import { z } from "zod"
import type { CliContext } from "./CliIo.ts"
import { gridProblem, issuesOf, usageError } from "./CliOutput.ts"
import { openPageAgent, repl, urlTokenHider } from "./Repl.ts"

const LookArguments = z.object({
  url: z.url({
    protocol: /^https?$/,
    error: "must be an http or https URL, e.g. http://127.0.0.1:4000/login",
  }),
  interactive: z.boolean(),
  json: z.boolean(),
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

// Sextant's errors are Errors whose message says what to do.

/** Opens a page, prints what an agent sees of it and closes the browser; resolves the exit code. */
export const lookAt = async (raw: Record<string, unknown>, out: Writable, err: Writable): Promise<number> => {
  const parsed = LookArguments.safeParse(raw)
  if (!parsed.success) return usageError("look", issuesOf(parsed.error), err, ["url"])
  const { url, chromedriver, grid } = parsed.data
  if (grid !== undefined && chromedriver !== undefined)
    return usageError(
      "look",
      [
        {
          field: "chromedriver",
          message: "a grid's nodes run their own ChromeDriver: leave out --chromedriver with --grid",
        },
      ],
      err,
    )
  let agent: PageAgent
  try {
    agent = await openPageAgent(parsed.data)
  } catch (error) {
    const badGrid = gridProblem("look", error, grid === undefined ? undefined : `--grid ${grid}`, err)
    if (badGrid !== undefined) return badGrid
    err.write(`sextant look: ${causeMessage(error)}\n`)
    return 1
  }
  try {
    const opened = await agent.go(url)
    if (!opened.ok) {
      err.write(`sextant look: <url>: ${"error" in opened ? opened.error : "the page did not load"}\n`)
      return 1
    }
    const snapshot = await agent.look()
    if ("error" in snapshot) {
      err.write(`sextant look: ${snapshot.error}\n`)
      return 1
    }
    // A token the site put in the URL (a sign-in link's `?session_token=`) is not printed.
    const hider = await urlTokenHider()
    hider.learnUrl(opened.url)
    hider.learnUrl(snapshot.url)
    out.write(
      parsed.data.json
        ? `${JSON.stringify(hider.value(snapshot))}\n`
        : hider.text(`${snapshot.title} — ${snapshot.url}\n${snapshot.tree}\n`),
    )
    return 0
  } catch (error) {
    err.write(`sextant look: ${causeMessage(error)}\n`)
    return 1
  } finally {
    await agent.close()
  }
}

/** Adds `sextant look <url> [--interactive]`: the page outline with refs, or a REPL on the page. */
export const registerLook = (program: Command, cli: CliContext): void => {
  program
    .command("look")
    .description(
      "open a page and print the outline an agent sees (refs, roles, names); --interactive keeps a prompt open",
    )
    .argument("<url>", "the page, e.g. http://127.0.0.1:4000/login")
    .option("-i, --interactive", "keep the browser open and read look/act/go/wait/eval commands", false)
    .option("--json", "print the whole snapshot as JSON", false)
    .option("--chrome <path>", "Chromium binary (default SEXTANT_CHROME or /usr/bin/chromium)")
    .option(
      "--chromedriver <path>",
      "ChromeDriver binary (default SEXTANT_CHROMEDRIVER or /usr/bin/chromedriver)",
    )
    .option("--no-headless", "show the browser window")
    .option("--grid <url>", "open the page on a Selenium Grid 4 (its hub or router URL)")
    .action(async (url: string, flags: Record<string, unknown>) => {
      if (flags.interactive === true) {
        const parsed = LookArguments.safeParse({ url, ...flags })
        if (!parsed.success) {
          cli.exitCode = usageError("look", issuesOf(parsed.error), cli.stderr, ["url"])
          return
        }
        const { interactive: _interactive, json: _json, ...options } = flags
        await repl(url, options, cli)
        return
      }
      cli.exitCode = await lookAt({ url, ...flags }, cli.stdout, cli.stderr)
    })
}
