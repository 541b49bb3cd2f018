import type { Command } from "commander"
import { z } from "zod"
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
export const registerFixtures = (program: Command): void => {
  program
    .command("fixtures")
    .description("serve the fixture site (a mock shop with login, search, forms and pagination) until Ctrl-C")
    .option("--port <n>", "the port (0 picks a free one)", "4000")
    .option("--seed <n>", "the seed that orders products and layouts", "0")
    .action(async (flags: Record<string, unknown>) => {
      const parsed = FixturesArguments.safeParse(flags)
      if (!parsed.success) {
        process.exitCode = usageError("fixtures", issuesOf(parsed.error), process.stderr)
        return
      }
      let module: FixtureSiteModule
      try {
        module = (await import(fixtureSitePackage)) as FixtureSiteModule
      } catch {
        process.stderr.write(
          "sextant fixtures: the fixture site ships with the Sextant repository, not with sextant-agent: run 'pnpm sextant fixtures' in a checkout\n",
        )
        process.exitCode = 1
        return
      }
      let site: Awaited<ReturnType<FixtureSiteModule["startFixtureSite"]>>
      try {
        site = await module.startFixtureSite(parsed.data)
      } catch (error) {
        process.stderr.write(
          `sextant fixtures: --port ${parsed.data.port}: ${error instanceof Error ? error.message : String(error)} (pick another port, or 0 for a free one)\n`,
        )
        process.exitCode = 1
        return
      }
      process.stdout.write(`fixture site on ${site.url} (seed ${parsed.data.seed}); Ctrl-C stops it\n`)
      process.stdout.write(`  log in at ${site.url}/login as alice@example.com / wonderland\n`)
      await new Promise<void>((resolve) => {
        const stop = () => resolve()
        process.once("SIGINT", stop)
        process.once("SIGTERM", stop)
      })
      await site.close()
      process.stdout.write("fixture site stopped\n")
      process.exitCode = 0
    })
}
