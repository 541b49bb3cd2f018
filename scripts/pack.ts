import { execFile } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

/**
 * `scripts/run pack`: builds every publishable package, packs each into one folder (`dist-packs/`,
 * git-ignored) with its `workspace:` and `catalog:` versions resolved (pnpm pack does that), and prints
 * the one `npm install` line that installs the facade, `sextant-agent`, in a fresh project. The
 * pack-and-install test (packages/sextant/test/PackInstall.slow.test.ts) calls `packAll` too.
 */

const run = promisify(execFile)

/** The repository root (this file lives in `scripts/`). */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")

/** The facade: the package a newcomer installs. */
export const FACADE = "sextant-agent"

interface Manifest {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>
}

/** A package of `packages/` that is published (not `private`). */
export interface Publishable {
  readonly directory: string
  readonly manifest: Manifest
}

/** Every package under `packages/` without `"private": true`. */
export const publishablePackages = (): ReadonlyArray<Publishable> =>
  readdirSync(join(root, "packages"))
    .map((folder) => join(root, "packages", folder))
    .flatMap((directory) => {
      try {
        const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as Manifest
        return manifest.private === true ? [] : [{ directory, manifest }]
      } catch {
        return []
      }
    })

/** The file name `pnpm pack` gives a package's tarball: `@scope/name` → `scope-name-<version>.tgz`. */
export const tarballName = (manifest: Manifest): string =>
  `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`

/**
 * The workspace packages `name` needs at run time: itself and, transitively, every workspace package
 * among its dependencies and its required peers (optional peers are left to the user).
 */
export const workspaceClosure = (
  name: string,
  packages: ReadonlyArray<Publishable>,
): ReadonlyArray<Publishable> => {
  const byName = new Map(packages.map((entry) => [entry.manifest.name, entry]))
  const seen = new Map<string, Publishable>()
  const visit = (current: string): void => {
    const entry = byName.get(current)
    if (entry === undefined || seen.has(current)) return
    seen.set(current, entry)
    const { dependencies = {}, peerDependencies = {}, peerDependenciesMeta = {} } = entry.manifest
    for (const [dependency, range] of Object.entries(dependencies))
      if (range.startsWith("workspace:")) visit(dependency)
    for (const [peer, range] of Object.entries(peerDependencies))
      if (range.startsWith("workspace:") && peerDependenciesMeta[peer]?.optional !== true) visit(peer)
  }
  visit(name)
  return [...seen.values()]
}

/** The version of `effect` the packages are built against (the pnpm catalog's pin). */
export const effectVersion = (): string => {
  const workspace = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8")
  const pinned = /^\s+effect:\s*([^\s#]+)/m.exec(workspace)?.[1]
  if (pinned === undefined) throw new Error("pnpm-workspace.yaml: the catalog pins no effect version")
  return pinned
}

/** What `packAll` made. */
export interface Packed {
  /** The folder holding every tarball. */
  readonly destination: string
  /** Every publishable package's tarball, by package name. */
  readonly tarballs: ReadonlyMap<string, string>
  /** The arguments of `npm install` that install the facade: its tarballs and `effect`, its peer. */
  readonly facadeInstall: ReadonlyArray<string>
  /** The optional peers of the facade that ship here, by package name, with their tarballs. */
  readonly optionalPeers: ReadonlyMap<string, ReadonlyArray<string>>
}

/**
 * Builds the publishable packages (turbo, so an unchanged build is reused) and packs each into
 * `destination`, which is emptied first.
 */
export const packAll = async (destination: string = join(root, "dist-packs")): Promise<Packed> => {
  const packages = publishablePackages()
  const filters = packages.flatMap(({ manifest }) => ["--filter", manifest.name])
  await run("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only", ...filters], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  })
  rmSync(destination, { recursive: true, force: true })
  mkdirSync(destination, { recursive: true })
  const tarballs = new Map<string, string>()
  for (const { directory, manifest } of packages) {
    await run("pnpm", ["pack", "--pack-destination", destination], { cwd: directory })
    tarballs.set(manifest.name, join(destination, tarballName(manifest)))
  }
  const present = new Set(readdirSync(destination).map((file) => join(destination, file)))
  for (const [name, path] of tarballs)
    if (!present.has(path)) throw new Error(`pnpm pack wrote no ${path} for ${name}: look in ${destination}`)
  const tarballsOf = (name: string) =>
    workspaceClosure(name, packages).map(({ manifest }) => tarballs.get(manifest.name) as string)
  const facade = packages.find(({ manifest }) => manifest.name === FACADE)
  if (facade === undefined) throw new Error(`no publishable package is named ${FACADE}`)
  const facadeTarballs = tarballsOf(FACADE)
  const optionalPeers = new Map<string, ReadonlyArray<string>>()
  const { peerDependencies = {}, peerDependenciesMeta = {} } = facade.manifest
  for (const peer of Object.keys(peerDependencies))
    if (peerDependenciesMeta[peer]?.optional === true && tarballs.has(peer))
      optionalPeers.set(
        peer,
        tarballsOf(peer).filter((path) => !facadeTarballs.includes(path)),
      )
  return {
    destination,
    tarballs,
    facadeInstall: [...facadeTarballs, `effect@${effectVersion()}`],
    optionalPeers,
  }
}

const main = async () => {
  const destination = resolve(process.argv[2] ?? join(root, "dist-packs"))
  const packed = await packAll(destination)
  const shown = (path: string) => (path.startsWith("effect@") ? path : resolve(path))
  process.stdout.write(
    `${packed.tarballs.size} tarballs in ${relative(process.cwd(), destination) || "."}/\n\n` +
      `Install the facade (sextant-agent) in a fresh project:\n\n` +
      `npm install ${packed.facadeInstall.map(shown).join(" ")}\n`,
  )
  if (packed.optionalPeers.size > 0) {
    process.stdout.write("\nOptional, add to that line when you need them:\n")
    for (const [peer, paths] of packed.optionalPeers)
      process.stdout.write(`  ${peer}: ${paths.map(shown).join(" ")}\n`)
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main().catch((error: unknown) => {
    process.stderr.write(`scripts/run pack: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  })
}
