import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Writable } from "node:stream"
import { pathToFileURL } from "node:url"
import { FIXTURE_USERS, type FixtureSite, startFixtureSite } from "@sextant/fixture-site"
import { launchPageAgent } from "@sextant/webdriverio"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AgentTaskInput, createAgent } from "../src/index.ts"
import { reportRun } from "../src/internal/ReportCommand.ts"

let site: FixtureSite
let directory: string
const alice = FIXTURE_USERS[0]!

beforeAll(async () => {
  site = await startFixtureSite({ port: 0, seed: 0 })
  directory = mkdtempSync(join(tmpdir(), "sextant-report-"))
})

afterAll(async () => {
  await site?.close()
  rmSync(directory, { recursive: true, force: true })
})

const loginTask = (): AgentTaskInput => ({
  goal: `log in, go to ${site.url}/products and extract name and price of the products`,
  startUrl: `${site.url}/login`,
  inputs: { username: alice.email, password: alice.password },
  secretInputs: ["password"],
  constraints: { allowFormSubmission: true },
})

const sink = () => {
  let text = ""
  const stream = new Writable({
    write: (chunk, _encoding, done) => {
      text += String(chunk)
      done()
    },
  })
  return { stream, text: () => text }
}

describe("the HTML run report", () => {
  it("shows the goal, outcome, timeline with screenshots and the records, secrets as placeholders, in headless Chromium", async () => {
    const store = join(directory, "sextant.db")
    const traces = join(directory, "traces")
    await using agent = createAgent({
      store: { path: store },
      traceDirectory: traces,
      report: { directory: join(directory, "reports") },
      screenshots: "always",
    })
    const completed = await agent.run(loginTask(), { runId: "report-completed" })
    expect(completed.status).toBe("COMPLETED")
    expect(completed.reportPath).toBe(join(directory, "reports", "report-completed.html"))
    const html = readFileSync(completed.reportPath!, "utf8")
    expect(html).not.toContain(alice.password)
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/)

    await using browser = await launchPageAgent()
    const opened = await browser.go(pathToFileURL(completed.reportPath!).href)
    expect(opened.ok).toBe(true)
    const read = async <A>(script: string): Promise<A> => {
      const answer = await browser.eval(script)
      if (!answer.ok) throw new Error(answer.error)
      return answer.result as A
    }
    expect(await read<string>("document.querySelector('h1').textContent")).toBe(loginTask().goal)
    expect(await read<string>("document.querySelector('.status').textContent")).toBe("COMPLETED")
    const steps = await read<number>("document.querySelectorAll('table.timeline tr.step').length")
    expect(steps).toBe(completed.metrics.steps)
    // Every step took a screenshot and each thumbnail decodes from inside the file.
    expect(
      await read<Array<number>>(
        "[...document.querySelectorAll('img.thumb')].map((image) => image.naturalWidth)",
      ),
    ).toEqual(Array.from({ length: steps }, () => expect.any(Number)))
    expect(
      await read<boolean>(
        "[...document.querySelectorAll('img.thumb')].every((image) => image.naturalWidth > 100)",
      ),
    ).toBe(true)
    const headers = await read<Array<string>>(
      "[...document.querySelectorAll('table.records th')].map((cell) => cell.textContent)",
    )
    expect(headers).toContain("name")
    const records = await read<number>("document.querySelectorAll('table.records tbody tr').length")
    expect(records).toBe((completed.output as ReadonlyArray<unknown>).length)
    expect(await read<string>("document.querySelector('table.records').textContent")).toContain(
      "Brass Sextant",
    )
    expect(await read<string>("document.body.textContent")).toContain("<secret:password>")
    const shot = await browser.screenshot()
    if (!shot.ok) throw new Error(shot.error)
    const screenshotPath = process.env.SEXTANT_REPORT_SCREENSHOT ?? join(directory, "report.png")
    writeFileSync(screenshotPath, Buffer.from(shot.png, "base64"))
    expect(readFileSync(screenshotPath).subarray(1, 4).toString()).toBe("PNG")

    // `sextant report` writes the same run again from the store and its trace.
    const out = sink()
    const err = sink()
    const code = await reportRun(
      { runId: "report-completed", store, traceDir: traces, out: join(directory, "again.html") },
      out.stream,
      err.stream,
    )
    expect(code, err.text()).toBe(0)
    expect(out.text().trim()).toBe(join(directory, "again.html"))
    await browser.go(pathToFileURL(join(directory, "again.html")).href)
    expect(await read<string>("document.querySelector('.status').textContent")).toBe("COMPLETED")
    expect(await read<number>("document.querySelectorAll('table.records tbody tr').length")).toBe(records)
  }, 120_000)

  it("sextant report names a run that is not in the store", async () => {
    const err = sink()
    const code = await reportRun(
      { runId: "no-such-run", store: join(directory, "empty.db"), traceDir: join(directory, "traces") },
      sink().stream,
      err.stream,
    )
    expect(code).toBe(1)
    expect(err.text()).toContain('no run "no-such-run" in the store')
  })
})
