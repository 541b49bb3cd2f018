import { parseArgs } from "node:util"

const usage =
  "usage: pnpm demo [--seed N] [--model NAME] [--base-url URL] [--api-key-env VAR]  (as the CLI: a model turns on the hybrid planner)"

interface DemoArguments {
  readonly seed: number
  readonly environment: Readonly<Record<string, string | undefined>>
}

const readArguments = (): DemoArguments => {
  try {
    // `pnpm demo -- --seed 7` hands the script a leading "--", which would end the options.
    const given = process.argv.slice(2)
    const args = given[0] === "--" ? given.slice(1) : given
    const { values } = parseArgs({
      args,
      options: {
        seed: { type: "string", default: "0" },
        model: { type: "string" },
        "base-url": { type: "string" },
        "api-key-env": { type: "string" },
      },
      strict: true,
    })
    const seed = Number(values.seed)
    if (!Number.isInteger(seed) || seed < 0)
      throw new TypeError(`--seed must be a whole number ≥ 0, got ${values.seed}`)
    const baseUrl = values["base-url"]
    if (baseUrl !== undefined && !/^https?:\/\/\S+$/.test(baseUrl))
      throw new TypeError(`--base-url must be an http or https URL, got ${baseUrl}`)
    const keyVariable = values["api-key-env"]
    if (keyVariable !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyVariable))
      throw new TypeError(`--api-key-env must name an environment variable, got ${keyVariable}`)
    // Flags win over the environment, as in the CLI; the model name also comes from OPENAI_MODEL.
    const model = values.model ?? process.env.SEXTANT_MODEL ?? process.env.OPENAI_MODEL
    return {
      seed,
      environment: {
        ...process.env,
        ...(model === undefined ? {} : { SEXTANT_MODEL: model }),
        ...(baseUrl === undefined ? {} : { OPENAI_BASE_URL: baseUrl }),
        ...(keyVariable === undefined ? {} : { OPENAI_API_KEY: process.env[keyVariable] }),
      },
    }
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`)
    process.exit(2)
  }
}

const { seed, environment } = readArguments()
// Loaded after the arguments are checked, so a usage mistake is answered before the packages load.
const { runTour, summaryTable } = await import("./Tour.ts")
const started = performance.now()
console.log(
  `Sextant demo: a tour of the fixture site (seed ${seed}) in headless Chromium, offline, composing planner, executor, tools, memory and the WebdriverIO driver\n`,
)
try {
  const tour = await runTour({ seed, environment, log: (line) => console.log(line) })
  console.log(summaryTable(tour.rows))
  console.log(`\nProducts: ${tour.csvPath} and ${tour.jsonPath} (${tour.products.length} rows)`)
  console.log(`Generated tests: ${tour.specPath} · exported script: ${tour.scriptPath}`)
  console.log("HTML reports:")
  for (const report of tour.reports) console.log(`  ${report.task.padEnd(20)} ${report.path}`)
  const expected = [
    "COMPLETED",
    "COMPLETED",
    "COMPLETED",
    "COMPLETED",
    "FAILED",
    "COMPLETED",
    "COMPLETED",
    "COMPLETED",
    "COMPLETED",
    "COMPLETED",
  ]
  const asExpected =
    tour.rows.length === expected.length &&
    tour.rows.every((row, index) => row.outcome === expected[index]) &&
    tour.policyCalls.cold > 0 &&
    tour.policyCalls.replayed === 0
  console.log(
    `\n${asExpected ? "Every task ended as expected" : "Some task did not end as expected"} (the one that cannot succeed is FAILED) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  process.exitCode = asExpected ? 0 : 1
} catch (error) {
  console.error(`The demo failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
