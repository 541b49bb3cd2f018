import { readdirSync, readFileSync, statSync } from "node:fs"
import { builtinModules } from "node:module"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"

/**
 * Every module a published package imports when it runs must be one of its dependencies: a workspace
 * package listed only under devDependencies resolves here (pnpm links the whole workspace) and fails for
 * a user who installs the package alone. esbuild reads the imports (static and dynamic, type-only ones
 * erased, as at run time).
 */
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")

interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
}

const sources = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry) && !entry.endsWith(".d.ts") ? [path] : []
  })

const published = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(root, group)).flatMap((folder) => {
    const directory = join(root, group, folder)
    try {
      const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as Manifest
      return manifest.private === true ? [] : [{ directory, manifest }]
    } catch {
      return []
    }
  }),
)

/** The package a bare import names: `@scope/name` or `name`, without a subpath. */
const packageOf = (specifier: string): string => {
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!
}

const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)])

describe("published packages declare what they import at run time", () => {
  it("finds the publishable packages", () => {
    expect(published.map(({ manifest }) => manifest.name)).toContain("@sextant/planner")
  })

  for (const { directory, manifest } of published) {
    it(`${manifest.name} imports only its dependencies, peers and Node's own modules`, async () => {
      const result = await build({
        entryPoints: [...sources(join(directory, "src"))],
        bundle: true,
        write: false,
        metafile: true,
        outdir: join(directory, ".deps-check"),
        platform: "node",
        format: "esm",
        packages: "external",
        logLevel: "silent",
      })
      const declared = new Set([
        manifest.name,
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
        ...Object.keys(manifest.optionalDependencies ?? {}),
      ])
      const undeclared = new Set<string>()
      for (const [input, { imports }] of Object.entries(result.metafile.inputs))
        for (const imported of imports)
          if (imported.external && !builtins.has(imported.path) && !declared.has(packageOf(imported.path)))
            undeclared.add(`${packageOf(imported.path)} (from ${relative(directory, join(root, input))})`)
      expect([...undeclared], `add these to ${manifest.name}'s dependencies`).toEqual([])
    })
  }
})
