import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type AttackerOrigin,
  type FixtureSite,
  startAttackerOrigin,
  startFixtureSite,
} from "@sextant/fixture-site"
import { sqlTool } from "@sextant/tools"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAgent } from "../src/index.ts"

let site: FixtureSite
let attacker: AttackerOrigin
let folder: string

beforeAll(async () => {
  site = await startFixtureSite({ port: 0 })
  attacker = await startAttackerOrigin()
  folder = mkdtempSync(join(tmpdir(), "sextant-facade-upload-"))
  writeFileSync(join(folder, "note.txt"), "a note")
})
afterAll(async () => {
  await site?.close()
  await attacker?.close()
  rmSync(folder, { recursive: true, force: true })
})

describe("createAgent with the session tools", () => {
  it("runs the README example createAgent({ tools: [sqlTool] }) against the fixture shop", async () => {
    // The README's line, with the store in memory and no traces so the test leaves nothing behind.
    await using agent = createAgent({ tools: [sqlTool], store: "memory", traceDirectory: false })
    const query = `SELECT dom_text(html, 'h2') AS name FROM load_and_select('${site.url}/products?page=1', '[data-product-id]')`
    const result = await agent.run(
      { goal: "list the products of the first page with sql", startUrl: `${site.url}/products` },
      { plan: { steps: [{ index: 0, tool: "sql", args: { query } }] } },
    )
    const observation = result.observations.find((item) => item.tool === "sql")
    expect(observation?.error?.message).toBeUndefined()
    expect(observation?.ok).toBe(true)
    expect((observation?.data as { rowCount?: number } | undefined)?.rowCount).toBe(12)
    expect(result.status).toBe("COMPLETED")
  })

  it("refuses a query page spelt http:/\\host behind a comment: the executor's origins reach the session", async () => {
    await using agent = createAgent({ tools: [sqlTool], store: "memory", traceDirectory: false })
    const host = new URL(attacker.url).host
    const query = `SELECT text FROM load_and_select(/* '${site.url}/products' */ 'http:/\\${host}/facade', 'p')`
    const result = await agent.run(
      { goal: "read the products with sql", startUrl: `${site.url}/products` },
      { plan: { steps: [{ index: 0, tool: "sql", args: { query } }] } },
    )
    expect(result.status).toBe("FAILED")
    const observation = result.observations.find((item) => item.tool === "sql")
    expect(observation?.error?.message).toContain(`request to ${attacker.url}/facade refused`)
    expect(attacker.requests).toEqual([])
  })
})

describe("createAgent uploads only from constraints.allowedUploadDirs", () => {
  const uploadPlan = (path: string) => ({
    steps: [
      { index: 0, tool: "navigate", args: { url: `${site.url}/forms/contact` } },
      { index: 1, tool: "upload", args: { target: "#attachment", path } },
    ],
  })

  it("refuses an upload when the task names no folder", async () => {
    await using agent = createAgent({ store: "memory", traceDirectory: false })
    const result = await agent.run(
      { goal: "attach the note", startUrl: `${site.url}/forms/contact` },
      { plan: uploadPlan("/etc/hostname") },
    )
    expect(result.status).toBe("FAILED")
    const observation = result.observations.find((item) => item.tool === "upload")
    expect(observation?.error?.message).toContain("no folder is allowed for uploads")
  })

  it("uploads a file from a folder the task allows", async () => {
    await using agent = createAgent({ store: "memory", traceDirectory: false })
    const result = await agent.run(
      {
        goal: "attach the note",
        startUrl: `${site.url}/forms/contact`,
        constraints: { allowedUploadDirs: [folder] },
      },
      { plan: uploadPlan(join(folder, "note.txt")) },
    )
    const observation = result.observations.find((item) => item.tool === "upload")
    expect(observation?.error?.message).toBeUndefined()
    expect(observation?.ok).toBe(true)
  })
})
