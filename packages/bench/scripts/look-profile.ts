/**
 * Breaks a warm `look()` down on real corpus pages, and dumps outlines to compare two versions of
 * the look path byte for byte. Not part of `pnpm bench`; run it under the browser lock:
 *
 *   node --conditions=sextant-source packages/bench/scripts/look-profile.ts profile <corpus> [a.html,b.html,…] [--runs N]
 *   node --conditions=sextant-source packages/bench/scripts/look-profile.ts dump <corpus> <out-folder> [a.html,…]
 *
 * `profile` prints, per page and for `full` and `interactive`: the median time of the driver's
 * `look()`, of one empty page call through the same path (the round trip), of the in-page look
 * (walk, render and stringify, timed in the page), the size of the JSON the page answers, the time
 * `parseSnapshot` takes on it in Node, the WebDriver requests per look, and Playwright's
 * `ariaSnapshot({ mode: "ai" })` on the same page. `dump` writes each page's full and interactive
 * `tree` to `<out-folder>/<page>.full.txt` and `.interactive.txt` (diff two folders with `diff -r`).
 */
import { mkdir, readdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { parseSnapshot } from "@sextant/perception"
import { Effect } from "effect"
import { openPlaywright } from "../src/Browsers.ts"
import { OFFLINE_ARGS, serveCorpus } from "../src/CorpusSection.ts"
import { openSextant } from "../src/SextantDriver.ts"
import { median } from "../src/Stats.ts"

const [command, folder, ...rest] = process.argv.slice(2)
const runsAt = rest.indexOf("--runs")
const runs = runsAt === -1 ? 9 : Number(rest[runsAt + 1])
const positional = runsAt === -1 ? rest : rest.filter((_, index) => index !== runsAt && index !== runsAt + 1)
if ((command !== "profile" && command !== "dump") || folder === undefined) {
  console.error("usage: look-profile.ts profile <corpus> [pages] [--runs N] | dump <corpus> <out> [pages]")
  process.exit(2)
}
const out = command === "dump" ? positional.shift() : undefined
const only = positional[0]?.split(",")
const names = (await readdir(folder))
  .filter((name) => name.endsWith(".html") && (only === undefined || only.includes(name)))
  .sort()

const timed = async <A>(run: () => Promise<A>): Promise<{ value: A; ms: number }> => {
  const started = performance.now()
  const value = await run()
  return { value, ms: performance.now() - started }
}

// The in-page look through the host, as the driver's call runs it, timed inside the page.
const inPage = (mode: string) =>
  `const t=performance.now();const j=globalThis.__sextant.look({mode:${JSON.stringify(mode)}});return JSON.stringify({ms:performance.now()-t,json:j})`

const server = await serveCorpus(folder)
const sextant = await openSextant(OFFLINE_ARGS)
const playwright = command === "profile" ? await openPlaywright(OFFLINE_ARGS) : undefined
try {
  if (out !== undefined) await mkdir(out, { recursive: true })
  const rows: Array<Record<string, string | number>> = []
  for (const name of names) {
    const url = `${server.url}/${encodeURIComponent(name)}`
    try {
      await sextant.navigate(url)
    } catch (cause) {
      console.error(`${name}: navigate failed: ${String(cause).split("\n")[0]}`)
      continue
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    if (out !== undefined) {
      const full = await sextant.look("full")
      const interactive = await sextant.look("interactive")
      await writeFile(join(out, `${name}.full.txt`), full.tree)
      await writeFile(join(out, `${name}.interactive.txt`), interactive.tree)
      continue
    }
    const page = playwright!.value
    await page.goto(url, { waitUntil: "load", timeout: 30_000 })
    await new Promise((resolve) => setTimeout(resolve, 100))
    for (const mode of ["full", "interactive"] as const) {
      await sextant.look(mode)
      const samples = {
        look: [] as number[],
        trip: [] as number[],
        page: [] as number[],
        parse: [] as number[],
        pw: [] as number[],
      }
      let bytes = 0
      let requests = 0
      for (let round = 0; round < runs; round++) {
        samples.pw.push((await timed(() => page.ariaSnapshot({ mode: "ai" }))).ms)
        const before = sextant.requests()
        samples.look.push((await timed(() => sextant.look(mode))).ms)
        requests = sextant.requests() - before
        samples.trip.push(
          (
            await timed(() =>
              Effect.runPromise(Effect.exit(sextant.driver.callPage("__profile_nothing__", []))),
            )
          ).ms,
        )
        const measured = JSON.parse(String(await sextant.evaluate(inPage(mode)))) as {
          ms: number
          json: string
        }
        samples.page.push(measured.ms)
        bytes = measured.json.length
        samples.parse.push((await timed(async () => parseSnapshot(measured.json, { mode }))).ms)
      }
      const row = {
        page: name,
        mode,
        lookMs: median(samples.look),
        tripMs: median(samples.trip),
        inPageMs: median(samples.page),
        jsonChars: bytes,
        parseMs: median(samples.parse),
        requests,
        playwrightMs: median(samples.pw),
      }
      rows.push(row)
      console.log(
        `${name.padEnd(32)} ${mode.padEnd(11)} look ${row.lookMs.toFixed(1)} ms · trip ${row.tripMs.toFixed(1)} · in-page ${row.inPageMs.toFixed(1)} · JSON ${bytes} chars · parse ${row.parseMs.toFixed(2)} · ${requests} req · PW ${row.playwrightMs.toFixed(1)} ms · ×PW ${(row.lookMs / row.playwrightMs).toFixed(3)}`,
      )
    }
  }
  if (command === "profile") {
    for (const mode of ["full", "interactive"]) {
      const of = rows.filter((row) => row.mode === mode)
      const sum = (key: string) => of.reduce((total, row) => total + Number(row[key]), 0)
      console.log(
        `${mode}: look ${sum("lookMs").toFixed(0)} ms = trip ${sum("tripMs").toFixed(0)} + in-page ${sum("inPageMs").toFixed(0)} + parse ${sum("parseMs").toFixed(0)} + rest; JSON ${sum("jsonChars")} chars; PW ${sum("playwrightMs").toFixed(0)} ms; median ×PW ${median(of.map((row) => Number(row.lookMs) / Number(row.playwrightMs))).toFixed(3)}`,
      )
    }
  }
} finally {
  await playwright?.close()
  await sextant.close()
  await server.close()
}
