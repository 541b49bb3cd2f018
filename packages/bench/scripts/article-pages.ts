/**
 * Writes the 181 article pages of scrapinghub/article-extraction-benchmark (MIT) into a folder as
 * plain `<name>.html` files, the form `pnpm bench --corpus --set articles` reads. The pages are that
 * project's, not Sextant's: nothing of them is committed here.
 *
 *   node packages/bench/scripts/article-pages.ts <snapshot> <out-folder>
 *
 * `<snapshot>` is a checkout of the repository (a folder with `html/*.html.gz`) or a bare git
 * directory of it (read at HEAD with `git show`), e.g.
 * `git clone --bare https://github.com/scrapinghub/article-extraction-benchmark snapshot.git`.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"

const [snapshot, out] = process.argv.slice(2)
if (snapshot === undefined || out === undefined) {
  console.error(
    "usage: node packages/bench/scripts/article-pages.ts <snapshot folder or bare git dir> <out folder>",
  )
  process.exit(2)
}

const checkout = join(snapshot, "html")
const git = (...args: ReadonlyArray<string>): Buffer =>
  execFileSync("git", ["--git-dir", snapshot, ...args], { maxBuffer: 64 * 2 ** 20 })

/** The gzipped pages as (name, bytes): from the checkout's `html/` when present, else from the bare repository's HEAD. */
const pages = async (): Promise<ReadonlyArray<[string, Buffer]>> => {
  if (existsSync(checkout)) {
    const names = (await readdir(checkout)).filter((name) => name.endsWith(".html.gz")).sort()
    return Promise.all(
      names.map(async (name) => [name, await readFile(join(checkout, name))] as [string, Buffer]),
    )
  }
  const names = String(git("ls-tree", "--name-only", "HEAD", "html/"))
    .split("\n")
    .filter((path) => path.endsWith(".html.gz"))
    .sort()
  if (names.length === 0)
    throw new Error(`${snapshot} has neither html/*.html.gz nor a git HEAD holding them`)
  return names.map((path) => [path.slice("html/".length), git("show", `HEAD:${path}`)])
}

await mkdir(out, { recursive: true })
const all = await pages()
for (const [name, gzipped] of all) await writeFile(join(out, name.replace(/\.gz$/, "")), gunzipSync(gzipped))
const commit = existsSync(checkout) ? "checkout" : String(git("rev-parse", "HEAD")).trim()
console.log(`article pages: ${all.length} written to ${out} (from ${snapshot}, ${commit})`)
