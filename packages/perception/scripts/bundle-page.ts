/**
 * Bundles the page script: `src/page/install.ts` and every module it imports, into one function of
 * the runtime version, written to `src/internal/PageRuntime.generated.ts` as a string.
 *
 *   pnpm --filter @sextant/perception bundle:page
 *
 * `build` runs it first, and a test fails when the committed file differs from a fresh bundle.
 */
import { readFile, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { build } from "esbuild"

const packageDirectory = join(import.meta.dirname, "..")
const pageDirectory = join(packageDirectory, "src", "page")

/** Where the bundle is committed. */
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

/** The committed file as it is now, or "" when it is missing. */
export const committedFile = (): Promise<string> => readFile(generatedPath, "utf8").catch(() => "")

if (import.meta.main) {
  const text = generatedFile(await bundlePageScript())
  if (text === (await committedFile())) console.log(`${relative(process.cwd(), generatedPath)} is up to date`)
  else {
    await writeFile(generatedPath, text)
    console.log(`wrote ${relative(process.cwd(), generatedPath)} (${text.length} characters)`)
  }
}
