import { execFile } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { MINIMUM_NODE, nodeVersionProblem } from "../src/internal/NodeVersion.ts"

const run = promisify(execFile)
const packageRoot = fileURLToPath(new URL("..", import.meta.url))
const packagesRoot = join(packageRoot, "..")
const LAUNCHER = join(packageRoot, "bin", "sextant.js")
const MCP_LAUNCHER = join(packagesRoot, "mcp", "bin", "sextant-mcp.js")

// The machine's own Node (v20 here) is the old Node a newcomer meets; Node 24 comes from scripts/setup.sh.
const SYSTEM_NODE = "/usr/bin/node"
const systemVersion = existsSync(SYSTEM_NODE)
  ? (await run(SYSTEM_NODE, ["-p", "process.versions.node"])).stdout.trim()
  : undefined
const systemNodeIsOld = systemVersion !== undefined && nodeVersionProblem(systemVersion) !== undefined

const exitOf = (file: string, args: ReadonlyArray<string>, node: ReadonlyArray<string>) =>
  run(node[0] as string, [...node.slice(1), file, ...args], { cwd: packageRoot }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? "",
    }),
  )

describe("nodeVersionProblem", () => {
  it("accepts 24.21.0 and anything newer", () => {
    for (const version of ["24.21.0", "24.21.3", "24.22.0", "25.0.0", "26.1.0"])
      expect(nodeVersionProblem(version)).toBeUndefined()
  })

  it("names the Node it saw and the fix for anything older", () => {
    for (const version of ["24.20.9", "24.0.0", "22.12.0", "20.20.2", "18.19.1"]) {
      expect(nodeVersionProblem(version)).toBe(
        `Sextant needs Node ≥ 24.21 (this is v${version}): in a clone of Sextant run \`. scripts/setup.sh\`, otherwise install Node 24 LTS (https://nodejs.org/en/download)`,
      )
    }
  })

  it("asks for the Node every package's engines field asks for", () => {
    for (const folder of ["sextant", "mcp", "memory", "openai"]) {
      const manifest = JSON.parse(readFileSync(join(packagesRoot, folder, "package.json"), "utf8")) as {
        engines: { node: string }
      }
      expect(manifest.engines.node).toBe(`>=${MINIMUM_NODE}`)
    }
    for (const launcher of [LAUNCHER, MCP_LAUNCHER])
      expect(readFileSync(launcher, "utf8")).toContain(
        `const minimum = [${MINIMUM_NODE.split(".").join(", ")}]`,
      )
  })
})

describe.skipIf(!systemNodeIsOld)(`the launchers on the system Node (v${systemVersion})`, () => {
  it("sextant stops with the Node to install and a non-zero exit, not a missing node:sqlite", async () => {
    const ran = await exitOf(LAUNCHER, ["run", "log in", "--start-url", "http://127.0.0.1:9/"], [SYSTEM_NODE])
    expect(ran.code).toBe(1)
    expect(ran.stderr).toBe(
      `sextant: Sextant needs Node ≥ 24.21 (this is v${systemVersion}): in a clone of Sextant run \`. scripts/setup.sh\`, otherwise install Node 24 LTS (https://nodejs.org/en/download)\n`,
    )
    expect(ran.stdout).toBe("")
  })

  it("sextant-mcp stops with the same line before the server starts", async () => {
    const ran = await exitOf(MCP_LAUNCHER, [], [SYSTEM_NODE])
    expect(ran.code).toBe(1)
    expect(ran.stderr).toContain(`sextant-mcp: Sextant needs Node ≥ 24.21 (this is v${systemVersion})`)
    expect(ran.stderr).not.toContain("node:sqlite")
  })
})

describe("the launchers on Node 24", () => {
  it("sextant hands over to the CLI", async () => {
    const ran = await exitOf(LAUNCHER, ["--version"], [process.execPath, "--conditions=sextant-source"])
    expect(ran).toMatchObject({ code: 0, stdout: "0.0.0\n" })
  })

  // The CLI's messages are tested in-process through `main`; these spawns prove the bin wires it to the
  // process: its streams, its arguments and its exit code.
  it("sextant --help prints the usage with every command on stdout and exits 0", async () => {
    const ran = await exitOf(LAUNCHER, ["--help"], [process.execPath, "--conditions=sextant-source"])
    expect(ran.code).toBe(0)
    expect(ran.stdout).toMatch(/^Usage: sextant \[options\] \[command\]/)
    for (const command of ["run", "look", "runs", "resume", "repl", "explore", "mcp", "worker"])
      expect(ran.stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"))
  })

  it("sextant exits 2 on a usage error, with the message and the hint on stderr", async () => {
    const ran = await exitOf(
      LAUNCHER,
      ["look", "the login page"],
      [process.execPath, "--conditions=sextant-source"],
    )
    expect(ran.code).toBe(2)
    expect(ran.stderr).toMatch(
      /^sextant look: <url>: must be an http or https URL\b.*\n\(run 'sextant look --help' for the options\)\n$/,
    )
    expect(ran.stdout).toBe("")
  })

  it("sextant-mcp hands over to the server", async () => {
    const ran = await exitOf(MCP_LAUNCHER, ["--help"], [process.execPath, "--conditions=sextant-source"])
    expect(ran.code).toBe(0)
    expect(ran.stderr).toContain("usage: sextant mcp [options]")
  })
})

// The facade's own check (src/internal/NodeCheck.ts, imported first by its index) can only speak when
// every module under it links on an old Node: a static import of a Node 24 built-in fails at link time,
// before any module runs. So no module the facade loads imports node:sqlite statically (only types; the
// SQL worker is a worker thread, loaded when a query runs).
describe("the facade's module graph", () => {
  it("imports node:sqlite nowhere but in types and the SQL worker thread", () => {
    const offenders: Array<string> = []
    const walk = (directory: string): void => {
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const path = join(directory, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (
          entry.name.endsWith(".ts") &&
          !path.endsWith(join("session", "internal", "SqlWorker.ts")) &&
          /^import (?!type\b)[^\n]*from "node:sqlite"/m.test(readFileSync(path, "utf8"))
        )
          offenders.push(path)
      }
    }
    for (const folder of readdirSync(packagesRoot))
      if (existsSync(join(packagesRoot, folder, "src"))) walk(join(packagesRoot, folder, "src"))
    expect(offenders).toEqual([])
  })
})
