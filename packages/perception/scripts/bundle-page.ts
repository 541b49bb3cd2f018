/**
 * Bundles the page script: `src/page/install.ts` and every module it imports, into one function of
 * the runtime version, written to `src/internal/PageRuntime.generated.ts` as a string. The file is
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
 * The page script as JavaScript: a function expression `(function(version){…})` with no imports or
 * module syntax. Only whitespace is minified (WebDriver BiDi pays for every byte of a script, about
 * 0.1 ms per KB through ChromeDriver): names and statements stay as written, so a failure's stack
 * still reads `walkElementBody`, `buildNode`. Minifying syntax too would save about 2 KB more, at
 * the price of code that no longer reads like its source. Fails when a page module imports anything
 * outside `src/page/`: the script runs in pages, where nothing else exists.
 */
export const bundlePageScript = async (): Promise<string> => {
  const result = await build({
    stdin: {
      // `version` is the parameter of the function the bundle is wrapped in.
      contents: 'import { install } from "./install.ts"\ninstall(version)\n',
      resolveDir: pageDirectory,
      sourcefile: "page-script.ts",
      loader: "ts",
    },
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
  const code = result.outputFiles[0]?.text.trim() ?? ""
  return `(function(version){${code}})`
}

/** The text of `PageRuntime.generated.ts` for a bundled script. */
export const generatedFile = (script: string): string =>
  `// Generated from src/page/ by scripts/bundle-page.ts: do not edit. Regenerate with \`${bundleCommand}\`.

/**
 * The in-page runtime as a function expression of its version: \`(\${pageRuntimeSource})(1)\`
 * installs \`globalThis.__sextant\`. See \`PageScript.ts\`.
 */
export const pageRuntimeSource: string = ${JSON.stringify(script)}
`

/** The generated file as it is now, or "" when it is missing. */
export const currentFile = (): Promise<string> => readFile(generatedPath, "utf8").catch(() => "")

/**
 * Bundles `src/page/` and writes the generated file when it is missing or differs from the fresh
 * bundle (through a temporary file and a rename, so a reader never sees half a file). Returns whether
 * it wrote.
 */
export const ensurePageBundle = async (): Promise<boolean> => {
  const text = generatedFile(await bundlePageScript())
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
