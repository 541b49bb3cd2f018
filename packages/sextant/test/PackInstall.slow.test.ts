import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { rm } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import {
  FIXTURE_PRODUCTS,
  type FixtureSite,
  PRODUCTS_PER_PAGE,
  startFixtureSite,
} from "@sextant/fixture-site"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { packAll, publishablePackages } from "../../../scripts/pack.ts"

// Packs every publishable package with the root's `scripts/run pack` (scripts/pack.ts), installs the
// facade with the one `npm install` line it prints into a project outside the workspace, measures that
// install, then adds the other tarballs and uses them as a stranger would. It needs the npm registry
// for third-party packages and takes about a minute; SEXTANT_SKIP_PACK_TEST=1 skips it.
const run = promisify(execFile)
const require = createRequire(import.meta.url)
const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version

interface Manifest {
  readonly name: string
  readonly engines?: { node?: string }
}

const publishable = publishablePackages()

/**
 * What the facade's install line may bring at most: 283 packages and 230 MB were measured on
 * 2026-11-28 (README, "Installing them"); the bound leaves room for the dependencies' own patch releases
 * but not for the MCP SDK (84 packages) or `pg` coming back.
 */
const FOOTPRINT_LIMIT = { packages: 300, megabytes: 245 }

const skip = process.env.SEXTANT_SKIP_PACK_TEST === "1"

describe.skipIf(skip)("the packed packages installed with plain npm outside the workspace", () => {
  let site: FixtureSite
  let work: string
  let consumer: string
  let footprint: { packages: number; megabytes: number }
  let facadeOnly: ReadonlyArray<string>
  let withoutPeers: ReadonlyArray<{ code: number; stderr: string }>

  beforeAll(async () => {
    site = await startFixtureSite({ port: 0 })
    work = mkdtempSync(join(tmpdir(), "sextant-pack-"))
    consumer = join(work, "consumer")
    mkdirSync(consumer)
    const packed = await packAll(join(work, "packs"))
    writeFileSync(
      join(consumer, "package.json"),
      JSON.stringify({ name: "sextant-consumer", private: true, type: "module" }),
    )
    const npm = ["install", "--no-audit", "--no-fund", "--loglevel=error"]
    // The facade alone, with the line `scripts/run pack` prints: its tarballs and effect.
    await run("npm", [...npm, ...packed.facadeInstall], { cwd: consumer })
    const listed = await run("npm", ["ls", "--all", "--parseable"], {
      cwd: consumer,
      maxBuffer: 16 * 1024 * 1024,
    })
    const size = await run("du", ["-sm", join(consumer, "node_modules")])
    footprint = {
      packages: new Set(listed.stdout.trim().split("\n").slice(1)).size,
      megabytes: Number(size.stdout.split(/\s/)[0]),
    }
    facadeOnly = readdirSync(join(consumer, "node_modules", "@sextant"))
    process.stdout.write(`install footprint: ${footprint.packages} packages, ${footprint.megabytes} MB\n`)
    const sextant = join(consumer, "node_modules", ".bin", "sextant")
    withoutPeers = await Promise.all(
      // `mcp --help` ends at once even where the package is installed (plain `mcp` would serve stdin).
      [
        ["mcp", "--help"],
        ["test", "missing.yaml"],
      ].map((args) =>
        run(sextant, args, { cwd: consumer, timeout: 60_000 }).then(
          ({ stderr }) => ({ code: 0, stderr }),
          (error: { code?: number; stderr?: string }) => ({
            code: error.code ?? -1,
            stderr: error.stderr ?? "",
          }),
        ),
      ),
    )
    // Then every other tarball (the optional peers, the testing kit, the example tool package).
    const rest = [...packed.tarballs.values()].filter((path) => !packed.facadeInstall.includes(path))
    await run(
      "npm",
      [...npm, ...rest, `typescript@${versionOf("typescript")}`, `@types/node@${versionOf("@types/node")}`],
      { cwd: consumer },
    )
  }, 600_000)

  // Removing a few hundred installed packages takes a while on a busy disk.
  afterAll(async () => {
    await site?.close()
    if (work !== undefined) await rm(work, { recursive: true, force: true })
  }, 300_000)

  it("installs the facade from the printed line alone, without the MCP SDK, pg or the explorer", () => {
    expect(facadeOnly).toContain("core")
    expect(facadeOnly).not.toContain("mcp")
    expect(facadeOnly).not.toContain("postgres")
    expect(facadeOnly).not.toContain("explorer")
    expect(footprint.packages).toBeLessThanOrEqual(FOOTPRINT_LIMIT.packages)
    expect(footprint.megabytes).toBeLessThanOrEqual(FOOTPRINT_LIMIT.megabytes)
  })

  it("answers sextant mcp and sextant test without their optional peers with the package to install", () => {
    expect(withoutPeers[0]?.stderr).toContain(
      "sextant mcp: the MCP server needs the package @sextant/mcp: install it next to sextant-agent (npm install @sextant/mcp)",
    )
    expect(withoutPeers[0]?.code).toBe(2)
    expect(withoutPeers[1]?.stderr).toContain(
      "sextant: explore, test, heal and export need the package @sextant/explorer: install it next to sextant-agent (npm install @sextant/explorer)",
    )
    expect(withoutPeers[1]?.code).toBe(1)
  })

  it("installs every publishable package from its tarball, each declaring Node >= 24.21", () => {
    expect(publishable.map(({ manifest }) => manifest.name)).toContain("sextant-agent")
    for (const { manifest } of publishable) {
      expect((manifest as Manifest).engines?.node, manifest.name).toBe(">=24.21.0")
      const installed = JSON.parse(
        readFileSync(join(consumer, "node_modules", manifest.name, "package.json"), "utf8"),
      ) as Manifest
      expect(installed.name).toBe(manifest.name)
    }
  })

  it("type-checks a consumer under strict with skipLibCheck: false", async () => {
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2024",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ["node"],
          lib: ["es2024", "dom", "esnext.disposable"],
        },
        include: ["consumer.ts"],
      }),
    )
    writeFileSync(
      join(consumer, "consumer.ts"),
      [
        'import { defineTool } from "@sextant/core"',
        'import { createAgent, isAgentError, type AgentRunResult } from "sextant-agent"',
        'import { z } from "zod"',
        'import { Effect } from "effect"',
        "const shout = defineTool({",
        '  name: "shout", description: "Upper-cases a text", input: z.object({ text: z.string() }),',
        "  output: z.string(), effects: { reads: true }, run: ({ text }) => Effect.succeed(text.toUpperCase()),",
        "})",
        'const agent = createAgent({ store: "memory", tools: [shout] })',
        'const result: AgentRunResult = await agent.run({ goal: "open the page", startUrl: "http://127.0.0.1:1/" })',
        "const status: string = result.status",
        "console.log(status, isAgentError(result))",
        "await agent.close()",
      ].join("\n"),
    )
    const outcome = await run("npx", ["--no-install", "tsc", "-p", "."], { cwd: consumer }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    )
    expect(outcome).toBe("")
  }, 120_000)

  it("runs createAgent from the installed packages against the fixture site", async () => {
    writeFileSync(
      join(consumer, "run.mjs"),
      [
        'import { createAgent } from "sextant-agent"',
        'const agent = createAgent({ store: "memory", traceDirectory: false })',
        "try {",
        "  const result = await agent.run({ goal: 'extract name and price of the products', startUrl: process.argv[2] })",
        "  console.log(JSON.stringify({ status: result.status, summary: result.summary.summary, output: result.output }))",
        "} finally { await agent.close() }",
      ].join("\n"),
    )
    const { stdout } = await run("node", ["run.mjs", `${site.url}/products`], { cwd: consumer })
    const answer = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
      status: string
      summary: string
      output: ReadonlyArray<{ name: string }>
    }
    expect(answer.status, answer.summary).toBe("COMPLETED")
    expect(answer.output.map((record) => record.name).sort()).toEqual(
      FIXTURE_PRODUCTS.slice(0, PRODUCTS_PER_PAGE)
        .map((product) => product.name)
        .sort(),
    )
  }, 120_000)

  it("runs the installed sextant with a tool package loaded by name from sextant.config.ts", async () => {
    writeFileSync(
      join(consumer, "sextant.config.ts"),
      'import { defineConfig } from "sextant-agent"\nexport default defineConfig({ tools: ["@sextant/tools-table"] })\n',
    )
    const environment = { ...process.env }
    for (const name of ["OPENAI_BASE_URL", "OPENAI_API_KEY", "SEXTANT_MODEL", "OPENAI_MODEL"])
      delete environment[name]
    const { stdout, stderr } = await run(
      join(consumer, "node_modules", ".bin", "sextant"),
      ["run", "use tableToCsv on table", "--start-url", `${site.url}/products/1`, "--json"],
      { cwd: consumer, env: environment },
    )
    expect(stderr).toContain("navigate → tableToCsv")
    const result = JSON.parse(stdout) as { status: string; output: { csv: string } }
    expect(result.status).toBe("COMPLETED")
    expect(result.output.csv).toContain(`SKU,${FIXTURE_PRODUCTS[0]?.sku}\n`)
  }, 120_000)

  it("runs the installed sql tool, whose query runs in the published worker thread", async () => {
    writeFileSync(
      join(consumer, "sql.mjs"),
      [
        'import { Effect } from "effect"',
        'import { FetchHttpSession, sql } from "@sextant/tools"',
        "const query = \"SELECT dom_text(html, 'h2') AS name FROM load_and_select('\" + process.argv[2] + \"', '[data-product-id]')\"",
        "const result = await Effect.runPromise(sql(query).pipe(Effect.provide(FetchHttpSession.layer())))",
        "console.log(JSON.stringify(result.rows.map((row) => row.name)))",
      ].join("\n"),
    )
    const { stdout } = await run("node", ["sql.mjs", `${site.url}/products`], { cwd: consumer })
    expect((JSON.parse(stdout) as Array<string>).sort()).toEqual(
      FIXTURE_PRODUCTS.slice(0, PRODUCTS_PER_PAGE)
        .map((product) => product.name)
        .sort(),
    )
  }, 120_000)

  it("serves MCP from the installed sextant to an SDK client started with the README's client config", async () => {
    // The config of packages/mcp/README.md: command "sextant", args ["mcp", "--allowed-origin", …], with
    // the installed bin's folder on PATH as a client finds it after `npm install`.
    writeFileSync(
      join(consumer, "mcp-client.mjs"),
      [
        'import { Client } from "@modelcontextprotocol/sdk/client/index.js"',
        'import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"',
        "const config = { command: 'sextant', args: ['mcp', '--allowed-origin', process.argv[2]] }",
        "const transport = new StdioClientTransport({ ...config, env: { ...process.env }, stderr: 'ignore' })",
        "const client = new Client({ name: 'pack-install', version: '1.0.0' })",
        "await client.connect(transport)",
        "const { tools } = await client.listTools()",
        "const went = await client.callTool({ name: 'go', arguments: { url: process.argv[2] + '/products' } })",
        "console.log(JSON.stringify({ tools: tools.map((tool) => tool.name), go: went.content.map((part) => part.text ?? '').join('\\n'), isError: went.isError === true }))",
        "await client.close()",
      ].join("\n"),
    )
    const environment = {
      ...process.env,
      PATH: `${join(consumer, "node_modules", ".bin")}:${process.env.PATH}`,
    }
    const { stdout } = await run("node", ["mcp-client.mjs", site.url], { cwd: consumer, env: environment })
    const answer = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
      tools: ReadonlyArray<string>
      go: string
      isError: boolean
    }
    expect(answer.tools).toEqual(expect.arrayContaining(["look", "act", "go", "wait"]))
    expect(answer.isError, answer.go).toBe(false)
    expect(answer.go).toContain(FIXTURE_PRODUCTS[0]?.name)
  }, 120_000)

  it("answers the installed sextant --help", async () => {
    const { stdout } = await run(join(consumer, "node_modules", ".bin", "sextant"), ["--help"], {
      cwd: consumer,
    })
    expect(stdout).toContain("Usage: sextant")
    expect(stdout).toContain("run")
  })
})
