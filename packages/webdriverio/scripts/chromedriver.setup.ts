import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    /** The URL of the test run's one ChromeDriver (`http://127.0.0.1:<port>`). */
    sextantChromedriverUrl: string
  }
}

/** The variable `WebdriverioDriver.layerShared` reads (`SHARED_CHROMEDRIVER_ENV` in src/SharedBrowser.ts). */
const SHARED_CHROMEDRIVER_ENV = "SEXTANT_CHROMEDRIVER_URL"
const START_TIMEOUT_MS = 30_000

/** The run's ChromeDriver and how many projects still use it. */
interface Started {
  readonly url: string
  readonly child: ChildProcess
  users: number
}
const STARTED = Symbol.for("@sextant/webdriverio/chromedriver.setup")

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const start = async (): Promise<Started> => {
  const binary = process.env.SEXTANT_CHROMEDRIVER ?? "/usr/bin/chromedriver"
  const port = await freePort()
  const child = spawn(binary, [`--port=${port}`, "--allowed-ips=127.0.0.1"], { stdio: "ignore" })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + START_TIMEOUT_MS
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`ChromeDriver at ${binary} exited with code ${child.exitCode}`)
    try {
      const body = (await (await fetch(`${url}/status`)).json()) as { value?: { ready?: boolean } }
      if (body.value?.ready === true) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`ChromeDriver at ${binary} did not answer on ${url} within ${START_TIMEOUT_MS} ms`)
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  // Should the run end without its teardown (an error in vitest itself), ChromeDriver ends with it.
  process.once("exit", () => child.kill("SIGKILL"))
  return { url, child, users: 0 }
}

/**
 * Vitest global setup of the `browser` project (vitest.config.ts): starts ONE ChromeDriver on
 * a free 127.0.0.1 port for the whole run, names it to the worker processes (the environment variable
 * `SEXTANT_CHROMEDRIVER_URL`, which `WebdriverioDriver.layerShared` reads for each worker's shared
 * Chromium, and `inject("sextantChromedriverUrl")`) and stops it when the last project that lists it is
 * done: the first such project starts ChromeDriver, any other counts itself in.
 * It imports no workspace package: global setups run in vitest's own process, without the
 * `sextant-source` condition.
 */
export default async (project: TestProject): Promise<() => Promise<void>> => {
  const global = globalThis as { [STARTED]?: Started }
  global[STARTED] ??= await start()
  const started = global[STARTED]
  started.users += 1
  process.env[SHARED_CHROMEDRIVER_ENV] = started.url
  project.provide("sextantChromedriverUrl", started.url)
  return async () => {
    started.users -= 1
    if (started.users > 0) return
    delete global[STARTED]
    delete process.env[SHARED_CHROMEDRIVER_ENV]
    const exited = new Promise((resolve) => started.child.once("exit", resolve))
    // ChromeDriver's own shutdown ends the sessions it still holds (and their browsers) first.
    await fetch(`${started.url}/shutdown`).catch(() => undefined)
    const timer = setTimeout(() => started.child.kill("SIGKILL"), 5_000)
    if (started.child.exitCode === null && started.child.signalCode === null) await exited
    clearTimeout(timer)
  }
}
