import { execFile } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { publishablePackages, root } from "../pack.ts"

/**
 * The release commands run on a copy of the working tree (tracked and new files, nothing ignored), so the
 * repository is never changed: `pnpm changeset version` consumes every changeset and bumps the fixed
 * group together, and `pnpm -r publish --dry-run` goes through every publishable package. Dependencies
 * come from pnpm's store (`--offline`): no registry is needed.
 */
const run = promisify(execFile)
let copy: string

const versionOf = (directory: string): string =>
  (JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { version: string }).version

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), "sextant-release-"))
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  })
  for (const file of stdout.split("\0").filter((path) => path.length > 0)) {
    try {
      mkdirSync(join(copy, dirname(file)), { recursive: true })
      cpSync(join(root, file), join(copy, file))
    } catch (error) {
      // A file deleted in the working tree but not yet in the index is not part of the copy.
      if ((error as { code?: string }).code !== "ENOENT") throw error
    }
  }
  await run("pnpm", ["install", "--offline", "--frozen-lockfile"], { cwd: copy })
}, 300_000)

afterAll(() => {
  if (copy !== undefined) rmSync(copy, { recursive: true, force: true })
})

describe("the release commands on a copy of the working tree", () => {
  it("pnpm changeset version consumes every changeset and bumps every published package to one version", async () => {
    const before = publishablePackages().map(({ directory }) => versionOf(directory))
    const outcome = await run("pnpm", ["changeset", "version"], { cwd: copy }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code ?? 1,
        output: `${error.stdout ?? ""}${error.stderr ?? ""}`,
      }),
    )
    expect(outcome.output).toContain("All files have been updated")
    expect(outcome.code).toBe(0)
    const after = publishablePackages().map(({ directory }) =>
      versionOf(join(copy, directory.slice(root.length + 1))),
    )
    expect(new Set(after).size, after.join(", ")).toBe(1)
    expect(after[0]).not.toBe(before[0])
    // Only changesets that name nothing but private packages (never released) are left.
    const left = readdirSync(join(copy, ".changeset")).filter(
      (file) => file.endsWith(".md") && file !== "README.md",
    )
    for (const file of left)
      expect(readFileSync(join(copy, ".changeset", file), "utf8"), file).toMatch(
        /^---\n("@sextant\/(fixture-site|bench|demo)": \w+\n)+---/,
      )
  }, 120_000)

  it("pnpm -r publish --dry-run goes through every publishable package", async () => {
    const { stdout, stderr } = await run("pnpm", ["-r", "publish", "--dry-run", "--no-git-checks"], {
      cwd: copy,
    })
    const skipped = [...`${stdout}${stderr}`.matchAll(/Skip publishing (\S+)@\S+ \(dry run\)/g)].map(
      (match) => match[1],
    )
    expect(skipped.sort()).toEqual(
      publishablePackages()
        .map(({ manifest }) => manifest.name)
        .sort(),
    )
  }, 120_000)
})
