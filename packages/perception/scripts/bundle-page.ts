/**
 * Bundles the page scripts from the modules in `src/page/`: the perception runtime
 * (`src/page/install.ts` and every module it imports) into one function of the runtime version, and
 * the actor (`src/page/actor.ts`, sharing the visibility, frame and select modules) into a function
 * the driver installs before a page's own scripts. Both are written to
 * `src/internal/PageRuntime.generated.ts` as strings. The file is
 * generated, not committed (it is git-ignored); every path that reads it runs this first:
 *
 *   pnpm --filter @sextant/perception bundle:page     (or `pnpm bundle:page` at the root)
 *
 * `scripts/setup.sh`, the package's `build` and `typecheck`, the root `typecheck`, `sextant`, `demo`
 * and `bench` scripts, and vitest's global setup (`scripts/page-bundle.setup.ts`). It bundles afresh
 * every time (about 0.1 s) and rewrites the file only when its text differs, so a bundle older than
 * its sources is replaced, never used; an up-to-date one is left untouched and nothing is printed.
 */
import { readFile, rename, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { build } from "esbuild"

const packageDirectory = join(import.meta.dirname, "..")
const pageDirectory = join(packageDirectory, "src", "page")

/** Where the bundle is generated (git-ignored). */
export const generatedPath = join(packageDirectory, "src", "internal", "PageRuntime.generated.ts")

/** The command that regenerates it, for messages. */
export const bundleCommand = "pnpm --filter @sextant/perception bundle:page"

/**
 * One entry of `src/page/` bundled as JavaScript statements with no imports or module syntax. Only
 * whitespace is minified (WebDriver BiDi pays for every byte of a script, about 0.1 ms per KB through
 * ChromeDriver): names and statements stay as written, so a failure's stack still reads
 * `walkElementBody`, `buildNode`. Minifying syntax too would save about 2 KB more, at the price of
 * code that no longer reads like its source. Fails when a page module imports anything outside
 * `src/page/`: the script runs in pages, where nothing else exists.
 */
const bundleEntry = async (contents: string): Promise<string> => {
  const result = await build({
    stdin: { contents, resolveDir: pageDirectory, sourcefile: "page-script.ts", loader: "ts" },
    absWorkingDir: packageDirectory,
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "browser",
    target: "es2024",
    charset: "utf8",
    legalComments: "none",
    minifyWhitespace: true,
    minifySyntax: false,
    minifyIdentifiers: false,
    logLevel: "silent",
  })
  // Input paths are relative to absWorkingDir, the package directory.
  const outside = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith("src/page/"))
  if (outside.length > 0)
    throw new Error(
      `the page script imports modules outside src/page/: ${outside.join(", ")}. Page modules import only each other.`,
    )
  return result.outputFiles[0]?.text.trim() ?? ""
}

/**
 * The perception runtime: a function expression `(function(version,key){…})` that attaches the
 * runtime to `__sextant` (see `src/page/host.ts`).
 */
export const bundlePageScript = async (): Promise<string> =>
  // `version` and `key` are the parameters of the function the bundle is wrapped in.
  `(function(version,key){${await bundleEntry('import { install } from "./install.ts"\ninstall(version, key)\n')}})`

/**
 * The actor: a function expression `(function(key){…})` that attaches the actor to `__sextant`. It
 * returns at once in a document that has one, before any of its modules runs (each would wrap the
 * page's fetch and timers again).
 */
export const bundleActorScript = async (): Promise<string> =>
  `(function(key){if(globalThis.__sextant&&globalThis.__sextant.actor)return;${await bundleEntry(
    'import { installActor } from "./actor.ts"\ninstallActor(key)\n',
  )}})`

/** Both scripts, bundled from the same modules. */
export interface PageScripts {
  readonly page: string
  readonly actor: string
}

/** Bundles both scripts. */
export const bundlePageScripts = async (): Promise<PageScripts> => {
  const [page, actor] = await Promise.all([bundlePageScript(), bundleActorScript()])
  return { page, actor }
}

/** The text of `PageRuntime.generated.ts` for a bundled script. */
export const generatedFile = (scripts: PageScripts): string =>
  `// Generated from src/page/ by scripts/bundle-page.ts: do not edit. Regenerate with \`${bundleCommand}\`.

/**
 * The in-page runtime as a function expression of its version and key: \`(\${pageRuntimeSource})(1, key)\`
 * attaches it to \`globalThis.__sextant\`. See \`PageScript.ts\`.
 */
export const pageRuntimeSource: string = ${JSON.stringify(scripts.page)}

/**
 * The actor as a function expression of the key: \`(\${actorRuntimeSource})(key)\` attaches the actor to
 * \`globalThis.__sextant\`, once per document. See \`PageScript.ts\`.
 */
export const actorRuntimeSource: string = ${JSON.stringify(scripts.actor)}
`

/** The generated file as it is now, or "" when it is missing. */
export const currentFile = (): Promise<string> => readFile(generatedPath, "utf8").catch(() => "")

/**
 * Bundles `src/page/` and writes the generated file when it is missing or differs from the fresh
 * bundle (through a temporary file and a rename, so a reader never sees half a file). Returns whether
 * it wrote.
 */
export const ensurePageBundle = async (): Promise<boolean> => {
  const text = generatedFile(await bundlePageScripts())
  if (text === (await currentFile())) return false
  const temporary = `${generatedPath}.${process.pid}.tmp`
  await writeFile(temporary, text)
  await rename(temporary, generatedPath)
  return true
}

if (import.meta.main) {
  // Messages go to stderr: `pnpm sextant … --json` runs this first and its stdout is the CLI's.
  if (await ensurePageBundle())
    console.error(`[perception] wrote ${relative(process.cwd(), generatedPath)} from src/page/`)
}
