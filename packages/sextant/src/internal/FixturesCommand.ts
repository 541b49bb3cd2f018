import { causeMessage } from "@sextant/core"
import type { Command } from "commander"
import { z } from "zod"
import type { CliContext } from "./CliIo.ts"
import { issuesOf, usageError } from "./CliOutput.ts"

const FixturesArguments = z.object({
  port: z.coerce.number({ error: "must be a port number" }).int().min(0).max(65_535),
  seed: z.coerce.number({ error: "must be a whole number" }).int().nonnegative(),
})

// The fixture site is part of the Sextant repository, not of the published package: a name in a
// variable keeps bundlers and the type checker from requiring it.
const fixtureSitePackage = "@sextant/fixture-site"

interface FixtureSiteModule {
  readonly startFixtureSite: (options: { port: number; seed: number }) => Promise<{
    readonly url: string
    readonly close: () => Promise<void>
  }>
}

/** Adds `sextant fixtures`: serve the fixture site (the mock shop every test runs against). */
export const registerFixtures = (program: Command, cli: CliContext): void => {
  program
    .command("fixtures")
    .description("serve the fixture site (a mock shop with login, search, forms and pagination) until Ctrl-C")
    .option("--port <n>", "the port (0 picks a free one)", "4000")
    .option("--seed <n>", "the seed that orders products and layouts", "0")
    .action(async (flags: Record<string, unknown>) => {
      const parsed = FixturesArguments.safeParse(flags)
      if (!parsed.success) {
        cli.exitCode = usageError("fixtures", issuesOf(parsed.error), cli.stderr)
        return
      }
      let module: FixtureSiteModule
      try {
        module = (await import(fixtureSitePackage)) as FixtureSiteModule
      } catch {
        cli.stderr.write(
          "sextant fixtures: the fixture site ships with the Sextant repository, not with sextant-agent: run 'pnpm sextant fixtures' in a checkout\n",
        )
        cli.exitCode = 1
        return
      }
      let site: Awaited<ReturnType<FixtureSiteModule["startFixtureSite"]>>
      try {
        site = await module.startFixtureSite(parsed.data)
      } catch (error) {
        cli.stderr.write(
          `sextant fixtures: --port ${parsed.data.port}: ${causeMessage(error)} (pick another port, or 0 for a free one)\n`,
        )
        cli.exitCode = 1
        return
      }
      cli.stdout.write(`fixture site on ${site.url} (seed ${parsed.data.seed}); Ctrl-C stops it\n`)
      cli.stdout.write(`  log in at ${site.url}/login as alice@example.com / wonderland\n`)
      await new Promise<void>((resolve) => {
        const stop = () => resolve()
        process.once("SIGINT", stop)
        process.once("SIGTERM", stop)
      })
      await site.close()
      cli.stdout.write("fixture site stopped\n")
      cli.exitCode = 0
    })
}
