import { spawn } from "node:child_process"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { cpus, hostname, loadavg, totalmem } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { causeMessage } from "@sextant/core"
import { type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { measureActions } from "./Actions.ts"
import { leftoverBrowsers, type Opened, openPlaywright, openWebdriverio, VIEWPORT } from "./Browsers.ts"
import { conformanceSections, measureConformance } from "./ConformanceSection.ts"
import {
  ARTICLE_PAGES,
  articlesFolder,
  corpusSections,
  measureCorpus,
  REAL_PAGES,
  sharedCorpusFolder,
} from "./CorpusSection.ts"
import { judgeGoals } from "./Goals.ts"
import { gallerySection } from "./gallery/GallerySection.ts"
import { honestySection, measureHonesty } from "./Honesty.ts"
import { browserLaterSections, standaloneLaterSections } from "./Later.ts"
import { BenchError, type RunPlan } from "./Measure.ts"
import { measureModelView, modelViewSections } from "./ModelViewSection.ts"
import { measurePages, PAGES } from "./PageView.ts"
import { actionSection, goalSection, pageViewSections, renderSections } from "./Report.ts"
import { measureScale, type ScaleResult, scaleSections } from "./ScaleSection.ts"
import { openSextant } from "./SextantDriver.ts"
import { measureSoak } from "./Soak.ts"
import { soakSections } from "./SoakReport.ts"

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..")

/** Cold-start pairs of `--section scale` when `--runs` is not given. */
const SCALE_PAIRS = 10

/** Pool acquires per row of `--section scale`. */
const SCALE_ACQUIRES = 60

/** The soak's size when `--tasks` is not given: the published run. */
const SOAK_TASKS = 200

const usage = `Usage: pnpm bench [--quick] [--runs N] [--warmup N] [--seed N] [--pages /,/login] [--readme]
       pnpm bench --corpus [--runs N] [--warmup N] [--pages a.html,b.html] [--readme]
       SEXTANT_ARTICLES=/folder pnpm bench --corpus --set articles [--runs N] [--warmup N] [--pages …] [--readme]
       pnpm bench --section honesty
       pnpm bench --section actions [--runs N] [--warmup N] [--seed N]
       pnpm bench --section explorer [--readme]
       pnpm bench --section soak [--tasks N] [--seed N]
       pnpm bench --section scale [--runs N] [--readme]
       pnpm bench --section model-view [--pages a.html,b.html] [--readme]
       pnpm bench --section conformance --wpt /work/wpt [--readme]
       pnpm bench --only gallery [--seed N] [--instructions f001,menu,tabs] [--modes agent,oneShot]
       pnpm bench --only gallery --set fresh [--seed N] [--instructions n001,pick] [--modes agent]
       pnpm bench --only gallery --set fresh2 [--seed N] [--instructions m001,pick] [--modes agent]
       pnpm bench --only gallery --set fresh3 [--seed N] [--instructions k001,pick] [--modes agent]

  --quick     5 timed runs instead of 20: a smoke run, written to results/latest-partial.*
  --runs N    timed runs per measurement (default 20)
  --warmup N  untimed runs before them (default 3)
  --seed N    fixture site layout seed (default 0)
  --pages     only these pages, comma-separated paths as listed in the table; with --corpus,
              corpus file names (www.aol.com.html,…), written to results/corpus-partial.*
  --readme    write the tables, the command and the machine into packages/bench/README.md
  --corpus    only the real-page corpus (../shared/corpus/real-pages) beside Playwright
              (default 3 timed runs after 1 warm-up per page); skipped with a note when absent.
              With --set articles: the second public set (scrapinghub/article-extraction-benchmark's
              181 pages, extracted by scripts/article-pages.ts into the folder SEXTANT_ARTICLES names),
              written to results/articles.* (--pages: results/articles-partial.*)
  --section   run one section only: honesty (the outcome truth table), written to results/honesty.*;
              actions (act() click, fill and select beside Playwright and WebdriverIO), printed only;
              explorer (page analysis on 20 real pages), written to results/explorer.md (--readme: also the README);
              soak (N tasks, default 200, pool of 4, seeded faults: killed ChromeDriver, Chromium or
              tab renderer, 500/429, slow pages, a page that never finishes loading, alerts, bad model
              output), written to results/soak.* (another --tasks or --seed: results/soak-partial.*)
              scale (cold start beside Playwright, --runs pairs, default 10, at least 8; pool acquire,
              60 per row), written to results/scale.* (--readme: also the README)
              model-view (the LLM step policy's first-turn prompt on the real-page corpus: tokens
              and the share of the page's refs it carries), written to results/model-view.*
              (--pages: results/model-view-partial.*; --readme: also the README)
              conformance (accessible names and roles on Web Platform Tests files beside Chromium's
              computed ones and Playwright's ariaSnapshot), written to results/conformance.*
              (--readme: also the README); needs --wpt
  --wpt DIR   the folder of WPT files for --section conformance (not shipped: see the README)
  --tasks N   soak tasks (default 200)
  --only gallery   only the widget gallery: every instruction of packages/bench/src/gallery on its
                   page, scored by the page's oracle; written to results/gallery.* (or gallery-partial.*)
  --instructions   only these instruction ids, families, gallery pages or sets (frozen, rest, holdout)
  --modes          agent (rule step policy through runAgent), plan (the rule planner's plan through
                   planAndRun, sextant run's default), oneShot (rule text-to-action); default agent,oneShot
  --set fresh      the fresh set (src/gallery/instructions.fresh.json) instead of the others: doable
                   solved, needs-model runs ended FAILED, false COMPLETED; written to
                   results/gallery-fresh.* (or gallery-fresh-partial.*). Never run without this flag
  --set fresh2     the same for the fresh2 set (src/gallery/instructions.fresh2.json), written to
                   results/gallery-fresh2.* (or gallery-fresh2-partial.*)
  --set fresh3     the same for the fresh3 set (src/gallery/instructions.fresh3.json), written to
                   results/gallery-fresh3.* (or gallery-fresh3-partial.*)`

const positiveInteger = (
  name: string,
  raw: string | undefined,
  fallback: number,
  minimum: number,
): number => {
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < minimum) {
    throw new UsageError(`--${name} must be an integer ≥ ${minimum}, got "${raw}"`)
  }
  return value
}

class UsageError extends Error {}

const OPTIONS = {
  quick: { type: "boolean", default: false },
  runs: { type: "string" },
  warmup: { type: "string" },
  seed: { type: "string" },
  pages: { type: "string" },
  readme: { type: "boolean", default: false },
  corpus: { type: "boolean", default: false },
  section: { type: "string" },
  tasks: { type: "string" },
  only: { type: "string" },
  instructions: { type: "string" },
  modes: { type: "string" },
  set: { type: "string" },
  wpt: { type: "string" },
  help: { type: "boolean", default: false },
} as const

const parseCommandLine = () => {
  try {
    return parseArgs({ options: OPTIONS, strict: true })
  } catch (cause) {
    throw new UsageError(causeMessage(cause))
  }
}

const main = async (): Promise<number> => {
  const { values } = parseCommandLine()
  if (values.help) {
    console.log(usage)
    return 0
  }
  if (values.corpus) return corpusOnly(values)
  if (values.section !== undefined) {
    if (values.section === "explorer") return runExplorerOnly(values.readme === true)
    if (values.section === "model-view") return runModelViewOnly(values)
    if (values.section === "conformance") return runConformanceOnly(values.wpt, values.readme === true)
    if (values.section === "scale")
      return runScaleOnly(positiveInteger("runs", values.runs, SCALE_PAIRS, 8), values.readme === true)
    if (values.section === "soak")
      return runSoakOnly(
        positiveInteger("tasks", values.tasks, SOAK_TASKS, 1),
        positiveInteger("seed", values.seed, 0, 0),
      )
    if (values.section === "actions")
      return runActionsOnly(
        {
          runs: positiveInteger("runs", values.runs, 20, 1),
          warmup: positiveInteger("warmup", values.warmup, 3, 0),
        },
        positiveInteger("seed", values.seed, 0, 0),
      )
    if (values.section !== "honesty")
      throw new UsageError(
        `--section must be honesty, actions, explorer, soak, scale, model-view or conformance, got "${values.section}"`,
      )
    return runHonestyOnly()
  }
  if (values.only !== undefined) return runGalleryOnly(values)
  if (values.instructions !== undefined || values.modes !== undefined || values.set !== undefined) {
    throw new UsageError("--instructions, --modes and --set go with --only gallery")
  }
  const plan: RunPlan = {
    runs: positiveInteger("runs", values.runs, values.quick ? 5 : 20, 1),
    warmup: positiveInteger("warmup", values.warmup, values.quick ? 1 : 3, 0),
  }
  const seed = positiveInteger("seed", values.seed, 0, 0)
  const wanted = values.pages?.split(",").map((path) => path.trim())
  const pages = wanted === undefined ? PAGES : PAGES.filter((page) => wanted.includes(page.path))
  if (wanted !== undefined && pages.length !== wanted.length) {
    throw new UsageError(
      `--pages names unknown pages: ${wanted.filter((path) => !PAGES.some((page) => page.path === path)).join(", ")}; known: ${PAGES.map((page) => page.path).join(", ")}`,
    )
  }
  const partial = values.quick || values.pages !== undefined || plan.runs < 20
  if (values.readme && partial) {
    throw new UsageError(
      "--readme takes a full run: leave out --quick and --pages, and keep --runs at 20 or more",
    )
  }
  const command = ["pnpm bench", ...process.argv.slice(2)].join(" ")
  const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`)
  const started = performance.now()

  const closers: Array<() => Promise<void>> = []
  const open = async <A>(opening: Promise<Opened<A>>): Promise<A> => {
    const opened = await opening
    closers.push(opened.close)
    return opened.value
  }
  const closeAll = async () => {
    for (const close of closers.reverse()) {
      try {
        await close()
      } catch (cause) {
        progress(`closing failed: ${causeMessage(cause)}`)
      }
    }
    closers.length = 0
  }
  process.once("SIGINT", () => {
    progress("interrupted: closing browsers and servers")
    void closeAll().then(() => process.exit(130))
  })

  let site: FixtureSite | undefined
  try {
    // The site outlives the browsers: the task section after them still needs it.
    site = await startFixtureSite({ port: 0, seed })
    progress(`fixture site ${site.url} (seed ${seed}); ${plan.runs} runs after ${plan.warmup} warm-up`)
    const playwright = await open(openPlaywright())
    const browserVersion = playwright.context().browser()?.version() ?? "unknown"
    const sextant = await open(openSextant().then((session) => ({ value: session, close: session.close })))

    const pageResults = await measurePages(site.url, pages, plan, playwright, sextant, progress)
    const webdriverio = await open(openWebdriverio())
    const actionResults = await measureActions(site.url, plan, playwright, webdriverio, sextant)
    progress("actions measured")
    const browserLater = await browserLaterSections({ base: site.url, plan, sextant, progress })
    const goals = judgeGoals(pageResults, actionResults)
    await closeAll()
    const leftover = await leftoverBrowsers()
    if (leftover.length > 0) {
      throw new BenchError(
        "closing the browsers",
        "this run",
        `processes ${leftover.join(", ")} are still alive`,
      )
    }
    const standaloneLater = await standaloneLaterSections(site.url, plan, values.quick, progress)
    const honesty = await measureHonesty(site.url, progress)
    const gallery = await gallerySection({ seed, progress })

    const machine = {
      date: new Date().toISOString(),
      // Other work on the machine slows every contender; the load says how quiet the run was.
      loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
      host: hostname(),
      cpu: `${cpus()[0]?.model ?? "unknown"} × ${cpus().length}`,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      chromium: browserVersion,
    }
    const sections = [
      ...pageViewSections(pageResults),
      actionSection(actionResults),
      goalSection(goals),
      ...browserLater.sections,
      ...standaloneLater.sections,
      honestySection(honesty),
      ...gallery.sections,
    ]
    const tables = renderSections(sections)
    const header = `Command: \`${command}\` · ${machine.date} · ${machine.cpu}, ${machine.memoryGb} GB, Node ${machine.node}, Chromium ${machine.chromium}, load ${machine.loadAverage.join(" ")} · ${plan.runs} timed runs after ${plan.warmup} warm-up · ${((performance.now() - started) / 1000).toFixed(0)} s`
    console.log(`${header}\n\n${tables}`)

    const results = join(packageRoot, "results")
    // A smoke run never replaces the committed full results.
    const name = partial ? "latest-partial" : "latest"
    await mkdir(results, { recursive: true })
    await writeFile(
      join(results, `${name}.json`),
      `${JSON.stringify({ command, machine, plan, seed, pages: pageResults, actions: actionResults, goals, later: { ...browserLater.data, ...standaloneLater.data, honesty }, gallery: { summary: gallery.summary, outcomes: gallery.outcomes } }, null, 2)}\n`,
    )
    await writeFile(join(results, `${name}.md`), `${header}\n\n${tables}\n`)
    if (values.readme) await updateReadme(`${header}\n\n${tables}`)
    progress(`wrote ${join(results, `${name}.json`)}`)
    return 0
  } finally {
    await closeAll()
    await site?.close()
  }
}

const repositoryRoot = join(packageRoot, "..", "..")

/**
 * `--section soak`: many tasks with seeded faults through createAgent, pool of 4; leaks counted at the
 * end. Only the default run (200 tasks, seed 0) writes results/soak.*; any other is partial.
 */
const runSoakOnly = async (tasks: number, seed: number): Promise<number> => {
  const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`)
  const site = await startFixtureSite({ port: 0, seed: 0 })
  let result: Awaited<ReturnType<typeof measureSoak>>
  try {
    result = await measureSoak(
      site.url,
      {
        tasks,
        seed,
        pool: 4,
        maxResumes: 2,
        material: `fixture site (@sextant/fixture-site, seed ${site.seed}) on 127.0.0.1`,
      },
      progress,
    )
  } finally {
    await site.close()
  }
  const command = `pnpm bench --section soak${tasks === SOAK_TASKS ? "" : ` --tasks ${tasks}`}${seed === 0 ? "" : ` --seed ${seed}`}`
  const header = `Command: \`${command}\` · ${new Date().toISOString()} · ${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")} · material: ${result.material}, seeded faults`
  const tables = renderSections(soakSections(result))
  console.log(`${header}\n\n${tables}`)
  const results = join(packageRoot, "results")
  await mkdir(results, { recursive: true })
  const name = tasks === SOAK_TASKS && seed === 0 ? "soak" : "soak-partial"
  await writeFile(join(results, `${name}.json`), `${JSON.stringify({ command, ...result }, null, 2)}\n`)
  await writeFile(join(results, `${name}.md`), `${header}\n\n${tables}\n`)
  return 0
}

/**
 * `--section scale`: cold start (launch → first page read) beside Playwright, and the warm pool's
 * acquire; results/scale.* (`--readme`: also the README's scale block).
 */
const runScaleOnly = async (pairs: number, readme: boolean): Promise<number> => {
  const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`)
  const started = performance.now()
  const site = await startFixtureSite({ port: 0, seed: 0 })
  const path = "/login"
  let result: ScaleResult
  try {
    result = await measureScale(
      `${site.url}${path}`,
      { pairs, acquires: SCALE_ACQUIRES },
      `the fixture site's ${path} (@sextant/fixture-site, seed ${site.seed}) on 127.0.0.1, system Chromium and ChromeDriver, viewport ${VIEWPORT.width}×${VIEWPORT.height}`,
      progress,
    )
  } finally {
    await site.close()
  }
  const leftover = await leftoverBrowsers()
  if (leftover.length > 0)
    throw new BenchError(
      "closing the browsers",
      "this run",
      `processes ${leftover.join(", ")} are still alive`,
    )
  const command = `pnpm bench --section scale${pairs === SCALE_PAIRS ? "" : ` --runs ${pairs}`}`
  const header = `Command: \`${command}\` · ${new Date().toISOString()} · ${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")} · ${((performance.now() - started) / 1000).toFixed(0)} s`
  const tables = renderSections(scaleSections(result))
  console.log(`${header}\n\n${tables}`)
  const results = join(packageRoot, "results")
  await mkdir(results, { recursive: true })
  await writeFile(join(results, "scale.json"), `${JSON.stringify({ command, ...result }, null, 2)}\n`)
  await writeFile(join(results, "scale.md"), `${header}\n\n${tables}\n`)
  if (readme) await updateReadme(`${header}\n\n${tables}`, "scale")
  return 0
}

/**
 * `--section actions`: the action table alone (act() click, fill and select on /forms/contact beside
 * Playwright and WebdriverIO), printed and not written: a quick before/after for changes to `act`.
 */
const runActionsOnly = async (plan: RunPlan, seed: number): Promise<number> => {
  const started = performance.now()
  const site = await startFixtureSite({ port: 0, seed })
  const closers: Array<() => Promise<void>> = []
  try {
    const playwright = await openPlaywright()
    closers.push(playwright.close)
    const webdriverio = await openWebdriverio()
    closers.push(webdriverio.close)
    const sextant = await openSextant()
    closers.push(sextant.close)
    const actions = await measureActions(site.url, plan, playwright.value, webdriverio.value, sextant)
    const header = `Command: \`pnpm bench --section actions\` · ${plan.runs} runs after ${plan.warmup} warm-up · ${new Date().toISOString()} · ${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")} · ${((performance.now() - started) / 1000).toFixed(0)} s`
    console.log(`${header}\n\n${renderSections([actionSection(actions)])}`)
    return 0
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined)
    await site.close()
  }
}

/** `--section honesty`: the outcome truth table alone, on its own fixture site. */
const runHonestyOnly = async (): Promise<number> => {
  const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`)
  const started = performance.now()
  const site = await startFixtureSite({ port: 0 })
  try {
    const honesty = await measureHonesty(site.url, progress)
    const header = `Command: \`pnpm bench --section honesty\` · ${new Date().toISOString()} · ${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")} · ${((performance.now() - started) / 1000).toFixed(0)} s`
    const tables = renderSections([honestySection(honesty)])
    console.log(`${header}\n\n${tables}`)
    const results = join(packageRoot, "results")
    await mkdir(results, { recursive: true })
    await writeFile(join(results, "honesty.json"), `${JSON.stringify(honesty, null, 2)}\n`)
    await writeFile(join(results, "honesty.md"), `${header}\n\n${tables}\n`)
    return 0
  } finally {
    await site.close()
  }
}

/**
 * `pnpm bench --section explorer`: the explorer's page analysis on 20 real pages (every 8th page of the
 * shared corpus), run by `@sextant/explorer`'s own bench script in a child process; its tables go to
 * results/explorer.md with the command, the machine and the material.
 */
const runExplorerOnly = async (readme: boolean): Promise<number> => {
  const folder = sharedCorpusFolder(repositoryRoot)
  if (folder === undefined) {
    console.log(
      "bench: the real-page corpus is absent (../shared/corpus/real-pages): explorer section skipped",
    )
    return 0
  }
  const started = performance.now()
  const script = join(repositoryRoot, "packages", "explorer", "bench", "ExplorerBench.ts")
  const child = spawn(process.execPath, ["--conditions=sextant-source", script, "--corpus", folder], {
    stdio: ["ignore", "pipe", "inherit"],
  })
  let output = ""
  child.stdout.on("data", (chunk) => (output += String(chunk)))
  const code = await new Promise<number>((resolve) => child.on("close", (exit) => resolve(exit ?? 1)))
  const header = `Command: \`pnpm bench --section explorer\` · ${new Date().toISOString()} · ${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, Node ${process.version}, load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(
      " ",
    )} · ${((performance.now() - started) / 1000).toFixed(0)} s\n\nMaterial: 20 real pages (every 8th file of \`../shared/corpus/real-pages\`), served from 127.0.0.1, every other host unresolvable; each explored alone (\`explore(url, { maxDepth: 0, maxPages: 1 })\`: navigate, look, page analysis by rules).`
  const body = `${header}\n\n${output.trim()}`
  console.log(body)
  const results = join(packageRoot, "results")
  await mkdir(results, { recursive: true })
  await writeFile(join(results, "explorer.md"), `${body}\n`)
  if (code !== 0)
    throw new BenchError("explorer section", "the corpus", `the explorer bench exited with ${code}`)
  if (readme) await updateReadme(body, "explorer")
  return 0
}

const MODES = ["agent", "plan", "oneShot"] as const

const runGalleryOnly = async (values: ReturnType<typeof parseCommandLine>["values"]): Promise<number> => {
  if (values.only !== "gallery") throw new UsageError(`--only takes "gallery", got "${values.only}"`)
  if (values.readme || values.pages !== undefined || values.quick) {
    throw new UsageError("--only gallery takes --seed, --instructions, --modes and --set only")
  }
  if (
    values.set !== undefined &&
    values.set !== "fresh" &&
    values.set !== "fresh2" &&
    values.set !== "fresh3"
  )
    throw new UsageError(`--set takes "fresh", "fresh2" or "fresh3", got "${values.set}"`)
  const sealed = values.set
  const seed = positiveInteger("seed", values.seed, 0, 0)
  const modes = values.modes?.split(",").map((mode) => mode.trim())
  const unknown = modes?.filter((mode) => !(MODES as ReadonlyArray<string>).includes(mode)) ?? []
  if (unknown.length > 0) throw new UsageError(`--modes takes ${MODES.join(", ")}; got ${unknown.join(", ")}`)
  const only = values.instructions
    ?.split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
  const command = ["pnpm bench", ...process.argv.slice(2)].join(" ")
  const started = performance.now()
  const gallery = await gallerySection({
    seed,
    ...(only === undefined ? {} : { only }),
    ...(modes === undefined ? {} : { modes: modes as ReadonlyArray<(typeof MODES)[number]> }),
    ...(sealed === undefined ? {} : { set: sealed }),
    progress: (line) => process.stderr.write(`[bench] ${line}\n`),
  })
  const header = `Command: \`${command}\` · ${new Date().toISOString()} · ${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, Node ${process.version}, load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")} · ${((performance.now() - started) / 1000).toFixed(0)} s`
  const tables = renderSections(gallery.sections)
  console.log(`${header}\n\n${tables}`)
  const results = join(packageRoot, "results")
  const name = `gallery${sealed === undefined ? "" : `-${sealed}`}${only === undefined && modes === undefined ? "" : "-partial"}`
  await mkdir(results, { recursive: true })
  await writeFile(
    join(results, `${name}.json`),
    `${JSON.stringify({ command, seed, summary: gallery.summary, outcomes: gallery.outcomes }, null, 2)}\n`,
  )
  await writeFile(join(results, `${name}.md`), `${header}\n\n${tables}\n`)
  return 0
}

/** `pnpm bench --section model-view`: the model step's prompt on the real-page corpus. */
const runModelViewOnly = async (values: ReturnType<typeof parseCommandLine>["values"]): Promise<number> => {
  const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`)
  const folder = sharedCorpusFolder(repositoryRoot)
  if (folder === undefined) {
    console.log(
      "bench: the real-page corpus is absent (../shared/corpus/real-pages): model-view section skipped",
    )
    return 0
  }
  const only = values.pages
    ?.split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "")
  if (values.readme && only !== undefined)
    throw new UsageError("--readme takes the whole corpus: leave out --pages")
  const command = ["pnpm bench", ...process.argv.slice(2)].join(" ")
  const started = performance.now()
  const result = await measureModelView(folder, progress, only)
  const header = `Command: \`${command}\` · ${new Date().toISOString()} · ${((performance.now() - started) / 1000).toFixed(0)} s`
  const tables = renderSections(modelViewSections(result))
  console.log(`${header}\n\n${tables}`)
  const results = join(packageRoot, "results")
  await mkdir(results, { recursive: true })
  const name = only === undefined ? "model-view" : "model-view-partial"
  await writeFile(join(results, `${name}.json`), `${JSON.stringify({ command, ...result }, null, 2)}\n`)
  await writeFile(join(results, `${name}.md`), `${header}\n\n${tables}\n`)
  if (values.readme) await updateReadme(`${header}\n\n${tables}`, "model-view")
  return 0
}

/**
 * `pnpm bench --section conformance --wpt DIR`: Sextant's names and roles on the Web Platform Tests
 * files under DIR beside Chromium's and Playwright's; results/conformance.* (`--readme`: the README).
 */
const runConformanceOnly = async (folder: string | undefined, readme: boolean): Promise<number> => {
  if (folder === undefined)
    throw new UsageError(
      "--section conformance needs --wpt DIR: the folder of WPT files (see the bench README)",
    )
  const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`)
  const started = performance.now()
  const result = await measureConformance(resolve(folder), progress)
  const leftover = await leftoverBrowsers()
  if (leftover.length > 0)
    throw new BenchError(
      "closing the browsers",
      "this run",
      `processes ${leftover.join(", ")} are still alive`,
    )
  const commit = await gitHead()
  const header = `Command: \`pnpm bench --section conformance --wpt ${folder}\` · ${new Date().toISOString()} · Sextant ${commit} · Node ${process.version} · ${((performance.now() - started) / 1000).toFixed(0)} s\n\nMaterial: ${result.cases.length} cases in ${result.files.length} Web Platform Tests files (the paths and commits are in the folder's SOURCES.txt), served from 127.0.0.1 with stand-in harness scripts; Chromium = WebDriver computed role and label (what WPT's own harness asks), Sextant = the element's node in \`look()\` (found by its ref), Playwright = the first line of \`locator.ariaSnapshot()\`. Names compared after WPT's rule (ASCII whitespace collapsed, trimmed). An element with a line but no ref (a heading's \`h2 "…"\`, an image) is read from that line. A table's row and its cells share the row's line (cells joined by \` | \`, a header cell in bold): each is read as what that line shows it as — the row as row, a bold cell in a row of bold cells as columnheader, a bold cell beside data cells as rowheader, a data cell as cell (gridcell under a grid or treegrid, or the role printed before its words), named by its words; the rule would read any engine's compact rows alike (Playwright prints each row and cell on a line of its own and is read from it). An element Sextant gives no node of its own (folded into its parent's lines: a paragraph, a generic wrapper, a list item, a row group) counts as a miss, except where the test expects no node (role none/generic, empty name); the "folded" column counts them and "among shown" leaves them out.`
  const tables = renderSections(conformanceSections(result))
  console.log(`${header}\n\n${tables}`)
  const results = join(packageRoot, "results")
  await mkdir(results, { recursive: true })
  await writeFile(join(results, "conformance.json"), `${JSON.stringify({ commit, ...result }, null, 2)}\n`)
  await writeFile(join(results, "conformance.md"), `${header}\n\n${tables}\n`)
  if (readme) await updateReadme(`${header}\n\n${tables}`, "conformance")
  return 0
}

/** The checked-out commit of the repository, short, with `+changes` when the tree is not clean. */
const gitHead = (): Promise<string> =>
  new Promise((done) => {
    const child = spawn("git", ["describe", "--always", "--dirty=+changes"], { cwd: repositoryRoot })
    let output = ""
    child.stdout.on("data", (chunk) => (output += String(chunk)))
    child.on("close", () => done(output.trim() || "unknown"))
    child.on("error", () => done("unknown"))
  })

/** `pnpm bench --corpus`: the real-page corpus alone; `--set articles`: the article pages instead. */
const corpusOnly = async (values: ReturnType<typeof parseCommandLine>["values"]): Promise<number> => {
  const progress = (line: string) => process.stderr.write(`[bench] ${line}\n`)
  if (values.set !== undefined && values.set !== "articles")
    throw new UsageError(`--set with --corpus takes "articles", got "${values.set}"`)
  const articles = values.set === "articles"
  const folder = articles ? articlesFolder() : sharedCorpusFolder(repositoryRoot)
  if (folder === undefined) {
    console.log(
      articles
        ? `bench: the article pages are absent (SEXTANT_ARTICLES is ${process.env.SEXTANT_ARTICLES === undefined ? "unset" : `"${process.env.SEXTANT_ARTICLES}"`}): extract them with node packages/bench/scripts/article-pages.ts <snapshot> <folder> and set SEXTANT_ARTICLES to that folder`
        : `bench: the real-page corpus is absent (${process.env.SEXTANT_CORPUS || join(repositoryRoot, "..", "shared", "corpus", "real-pages")}): corpus section skipped; set SEXTANT_CORPUS to its folder`,
    )
    return 0
  }
  const plan: RunPlan = {
    runs: positiveInteger("runs", values.runs, 3, 1),
    warmup: positiveInteger("warmup", values.warmup, 1, 0),
  }
  const only = values.pages
    ?.split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "")
  const command = ["pnpm bench", ...process.argv.slice(2)].join(" ")
  if (values.readme && only !== undefined)
    throw new UsageError("--readme takes the whole corpus: leave out --pages")
  const started = performance.now()
  const result = await measureCorpus(folder, plan, progress, only)
  const leftover = await leftoverBrowsers()
  if (leftover.length > 0)
    throw new BenchError(
      "closing the browsers",
      "this run",
      `processes ${leftover.join(", ")} are still alive`,
    )
  const header = `Command: \`${command}\` · ${new Date().toISOString()} · ${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, Node ${process.version}, load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(
      " ",
    )} · ${plan.runs} timed looks after ${plan.warmup} warm-up per page · ${((performance.now() - started) / 1000).toFixed(0)} s`
  const tables = renderSections(corpusSections(result, articles ? ARTICLE_PAGES : REAL_PAGES))
  console.log(`${header}\n\n${tables}`)
  const results = join(packageRoot, "results")
  await mkdir(results, { recursive: true })
  // A run over some pages only is written beside the whole-corpus results, never over them.
  const base = articles ? "articles" : "corpus"
  const name = only === undefined ? base : `${base}-partial`
  await writeFile(join(results, `${name}.json`), `${JSON.stringify({ command, plan, ...result }, null, 2)}\n`)
  await writeFile(join(results, `${name}.md`), `${header}\n\n${tables}\n`)
  if (values.readme) await updateReadme(`${header}\n\n${tables}`, base)
  return 0
}

const updateReadme = async (content: string, block = "bench") => {
  const START = `<!-- ${block}:start -->`
  const END = `<!-- ${block}:end -->`
  const path = join(packageRoot, "README.md")
  const readme = await readFile(path, "utf8")
  const start = readme.indexOf(START)
  const end = readme.indexOf(END)
  if (start === -1 || end < start) throw new UsageError(`${path} has no ${START} … ${END} block to replace`)
  await writeFile(path, `${readme.slice(0, start + START.length)}\n${content}\n${readme.slice(end)}`)
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`bench: ${error.message}\n\n${usage}`)
      process.exit(2)
    }
    if (error instanceof BenchError) {
      console.error(`bench FAILED: ${error.message}`)
      if (error.cause instanceof Error && error.cause.stack !== undefined) console.error(error.cause.stack)
      process.exit(1)
    }
    console.error("bench FAILED:", error)
    process.exit(1)
  },
)
