import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { root } from "../pack.ts"

/**
 * What `pnpm changeset version` refuses, checked without running it (release.slow.test.ts runs it): a
 * changeset naming a package that is not in the workspace (the facade was renamed from `sextant` to
 * `sextant-agent`), or naming a private package (never released, so ignored) beside a published one.
 */
const manifests = ["packages", "apps", "fixtures"].flatMap((group) =>
  readdirSync(join(root, group)).flatMap((folder) => {
    try {
      return [
        JSON.parse(readFileSync(join(root, group, folder, "package.json"), "utf8")) as {
          name: string
          private?: boolean
        },
      ]
    } catch {
      return []
    }
  }),
)
const names = new Set(manifests.map((manifest) => manifest.name))
const privateNames = new Set(
  manifests.filter((manifest) => manifest.private === true).map((manifest) => manifest.name),
)

const changesets = readdirSync(join(root, ".changeset"))
  .filter((file) => file.endsWith(".md") && file !== "README.md")
  .map((file) => {
    const front =
      /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(root, ".changeset", file), "utf8"))?.[1] ?? ""
    const packages = [...front.matchAll(/^\s*"?([^":\s]+)"?\s*:\s*(major|minor|patch)\s*$/gm)].map(
      (match) => match[1] as string,
    )
    return { file, packages }
  })

describe("changesets", () => {
  it("each names at least one package", () => {
    expect(changesets.filter(({ packages }) => packages.length === 0).map(({ file }) => file)).toEqual([])
  })

  it("name only packages of the workspace", () => {
    expect(
      changesets.flatMap(({ file, packages }) =>
        packages.filter((name) => !names.has(name)).map((name) => `${file}: ${name}`),
      ),
    ).toEqual([])
  })

  it("never name a private package beside a published one", () => {
    expect(
      changesets
        .filter(
          ({ packages }) =>
            packages.some((name) => privateNames.has(name)) &&
            packages.some((name) => !privateNames.has(name)),
        )
        .map(({ file }) => file),
    ).toEqual([])
  })
})
