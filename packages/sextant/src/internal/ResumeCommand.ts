import type { Writable } from "node:stream"
import { causeMessage } from "@sextant/core"
import type { Command } from "commander"
import { z } from "zod"
import {
  AgentFlags,
  addAgentFlags,
  addGuardFlags,
  GuardFlags,
  guardOptionsOf,
  resolveAgent,
} from "./AgentFlags.ts"
import { type CliContext, type CliPlace, processPlace } from "./CliIo.ts"
import { gridProblem, gridSource, type Interrupts, issuesOf, usageError, withInterrupt } from "./CliOutput.ts"
import { configOrReport, readSecrets } from "./RunCommand.ts"
import { followRun, interruptedLines, modelReport, summaryLines, withModelProgress } from "./RunOutput.ts"

const ResumeArguments = AgentFlags.extend(GuardFlags.shape).extend({
  run: z.string().trim().min(1, "name the run to continue (sextant runs lists them)"),
  secret: z.array(z.string().regex(/^[A-Za-z0-9_.-]+(=.*)?$/, "write name=value")),
  json: z.boolean(),
  config: z.string().min(1).optional(),
})

const collect = (value: string, previous: ReadonlyArray<string> = []) => [...previous, value]

/** Continues a run whose process died or that was stopped (Ctrl-C); resolves the exit code. */
export const resumeRun = async (
  raw: Record<string, unknown>,
  out: Writable,
  err: Writable,
  interrupts?: Partial<Interrupts>,
  place: CliPlace = processPlace(),
): Promise<number> => {
  const signal = interrupts?.signal
  const parsed = ResumeArguments.safeParse(raw)
  if (!parsed.success) return usageError("resume", issuesOf(parsed.error), err, ["run"])
  const options = parsed.data
  const read = readSecrets(options.secret, place.env)
  if ("missing" in read)
    return usageError(
      "resume",
      [
        {
          field: "secret",
          message: `${read.missing}: give a value or set SEXTANT_SECRET_${read.missing.toUpperCase()}`,
        },
      ],
      err,
    )
  const loaded = await configOrReport("resume", options.config, err, place.cwd)
  if (loaded === undefined) return 2
  const resolved = resolveAgent(options, place.env, loaded.config)
  if (Array.isArray(resolved)) return usageError("resume", resolved, err)
  const { createAgent } = await import("../createAgent.ts")
  const follow = followRun(err)
  const agent = createAgent({
    ...withModelProgress(resolved.options, follow.onModelAttempt),
    // The run's own constraints are stored with it: only these two flags change what resume allows.
    ...guardOptionsOf(options, {
      blockedPatterns: "--allow-destructive",
      allowUnguardedSecrets: "--allow-unguarded-secrets",
    }),
  })
  try {
    const known = await agent.runs()
    const stored = known.find((run) => run.runId === options.run)
    if (stored === undefined) {
      err.write(
        `sextant resume: <run>: no run ${options.run} in ${resolved.store} ('sextant runs' lists them)\n`,
      )
      return 2
    }
    // The store keeps only placeholders of the run's secrets: each is given again, by its flag (a
    // completed run only answers its stored result, and needs none).
    const needed =
      stored.status === "COMPLETED" ? [] : stored.secretInputs.filter((name) => !(name in read.secrets))
    const strange = Object.keys(read.secrets).filter((name) => !stored.secretInputs.includes(name))
    if (needed.length > 0 || strange.length > 0)
      return usageError(
        "resume",
        [
          ...needed.map((name) => ({
            field: "secret",
            message: `run ${options.run} needs the secret ${name} again (the store keeps only its placeholder): give --secret ${name} and set SEXTANT_SECRET_${name.toUpperCase()}, or --secret ${name}=…`,
          })),
          ...strange.map((name) => ({
            field: "secret",
            message: `run ${options.run} has no secret ${name} (${stored.secretInputs.length === 0 ? "it has none" : `its secrets: ${stored.secretInputs.join(", ")}`})`,
          })),
        ],
        err,
      )
    err.write(`${resolved.plannerLine}\n`)
    const result = await agent.resume(options.run, {
      secrets: read.secrets,
      onEvent: follow.onEvent,
      ...(signal === undefined ? {} : { signal }),
      ...(interrupts?.stop === undefined ? {} : { stop: interrupts.stop }),
    })
    follow.stop()
    out.write(
      options.json
        ? `${JSON.stringify(result)}\n`
        : `${summaryLines(result, follow.artefacts, resolved.store, options.grid, modelReport(resolved, follow))}\n`,
    )
    return result.status === "COMPLETED" ? 0 : 1
  } catch (error) {
    follow.stop()
    if (signal?.aborted === true) {
      const traceDirectory = resolved.options.traceDirectory
      out.write(
        `${interruptedLines(options.run, follow.steps(), traceDirectory === false ? undefined : traceDirectory, resolved.store)}\n`,
      )
      return 130
    }
    const badGrid = gridProblem("resume", error, gridSource(options.grid, loaded.config), err)
    if (badGrid !== undefined) return badGrid
    err.write(`sextant resume: ${causeMessage(error)}\n`)
    return 1
  } finally {
    await agent.close()
  }
}

/** Adds `sextant resume <run>`: continue a run from the store without repeating its finished steps. */
export const registerResume = (program: Command, cli: CliContext): void => {
  const command = program
    .command("resume")
    .description(
      "continue a run that was stopped (Ctrl-C) or whose process or browser died, without repeating its finished steps",
    )
    .argument("<run>", "the run id (sextant runs lists them)")
    .option(
      "--secret <name[=value]>",
      "a secret the run needs again (repeatable; value from SEXTANT_SECRET_<NAME> when omitted)",
      collect,
      [],
    )
    .option("--json", "print the whole result as JSON", false)
  addAgentFlags(addGuardFlags(command)).action(async (run: string, flags: Record<string, unknown>) => {
    cli.exitCode = await withInterrupt(cli.stderr, (interrupts) =>
      resumeRun({ run, ...flags }, cli.stdout, cli.stderr, interrupts, cli),
    )
  })
}
