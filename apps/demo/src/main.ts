import { parseArgs } from "node:util"
import { runLoginDemo } from "./LoginDemo.ts"

const usage = "usage: pnpm demo [--seed N]"

const readSeed = (): number => {
  try {
    // `pnpm demo -- --seed 7` hands the script a leading "--", which would end the options.
    const given = process.argv.slice(2)
    const args = given[0] === "--" ? given.slice(1) : given
    const { values } = parseArgs({ args, options: { seed: { type: "string", default: "0" } }, strict: true })
    const seed = Number(values.seed)
    if (!Number.isInteger(seed) || seed < 0)
      throw new TypeError(`--seed must be a whole number ≥ 0, got ${values.seed}`)
    return seed
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`)
    process.exit(2)
  }
}

const seed = readSeed()
const started = performance.now()
console.log(`Sextant demo: the fixture site (seed ${seed}) in headless Chromium through WebdriverIO\n`)
try {
  const report = await runLoginDemo({ seed, log: (line) => console.log(`${line}\n`) })
  const loggedIn = new URL(report.finalUrl).pathname === "/dashboard"
  console.log(
    `${loggedIn ? "Logged in" : "Not logged in"}: ended on ${report.finalUrl} in ${Math.round(performance.now() - started)} ms`,
  )
  process.exitCode = loggedIn ? 0 : 1
} catch (error) {
  console.error(`The demo failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
}
