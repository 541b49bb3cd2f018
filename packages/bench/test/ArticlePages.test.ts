import { execFileSync } from "node:child_process"
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"

const script = join(import.meta.dirname, "..", "scripts", "article-pages.ts")
const run = (...args: ReadonlyArray<string>) => String(execFileSync(process.execPath, [script, ...args]))

describe("scripts/article-pages.ts", () => {
  it("writes each html/*.html.gz of a checkout gunzipped as <name>.html and nothing else", async () => {
    const root = await mkdtemp(join(tmpdir(), "article-pages-"))
    await mkdir(join(root, "snapshot", "html"), { recursive: true })
    await writeFile(join(root, "snapshot", "html", "ab12.html.gz"), gzipSync("<p>first</p>"))
    await writeFile(join(root, "snapshot", "html", "cd34.html.gz"), gzipSync("<p>second</p>"))
    await writeFile(join(root, "snapshot", "html", "notes.txt"), "not a page")
    expect(run(join(root, "snapshot"), join(root, "out"))).toContain("2 written")
    expect((await readdir(join(root, "out"))).sort()).toEqual(["ab12.html", "cd34.html"])
    expect(await readFile(join(root, "out", "cd34.html"), "utf8")).toBe("<p>second</p>")
  })

  it("reads the pages from a bare git repository's HEAD", async () => {
    const root = await mkdtemp(join(tmpdir(), "article-pages-"))
    const work = join(root, "work")
    await mkdir(join(work, "html"), { recursive: true })
    await writeFile(join(work, "html", "ef56.html.gz"), gzipSync("<h1>article</h1>"))
    const git = (...args: ReadonlyArray<string>) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: work })
    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "pages")
    git("clone", "-q", "--bare", work, join(root, "bare.git"))
    expect(run(join(root, "bare.git"), join(root, "out"))).toContain("1 written")
    expect(await readFile(join(root, "out", "ef56.html"), "utf8")).toBe("<h1>article</h1>")
  })
})
