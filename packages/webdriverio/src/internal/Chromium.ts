import { type ChildProcess, spawn } from "node:child_process"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { OWNER_ENV, ownerId } from "./Processes.ts"

/**
 * The switches ChromeDriver adds when it launches Chromium itself (read from the command line of a
 * Chromium that ChromeDriver 156 started), so a browser Sextant starts and ChromeDriver attaches to
 * behaves the same: no popup blocking, no hang monitor, automation mode. Its `--enable-logging` and
 * `--log-level=0`, which only feed ChromeDriver's own log, are left out.
 */
export const chromedriverSwitches: ReadonlyArray<string> = [
  "--allow-pre-commit-input",
  "--disable-hang-monitor",
  "--disable-popup-blocking",
  "--enable-automation",
  "--password-store=basic",
  "--test-type=webdriver",
  "--use-mock-keychain",
  "--remote-debugging-port=0",
]

/** The features ChromeDriver adds to `--disable-features`. */
export const chromedriverDisabledFeatures: ReadonlyArray<string> = ["IgnoreDuplicateNavs", "Prewarm"]

/** A Chromium Sextant started, with the address its DevTools endpoint listens on. */
export interface StartedChromium {
  readonly process: ChildProcess
  /** `127.0.0.1:<port>`, for ChromeDriver's `goog:chromeOptions.debuggerAddress`. */
  readonly debuggerAddress: string
}

/**
 * Starts Chromium with `args` (which must name `--user-data-dir=<profileDir>` and
 * `--remote-debugging-port=0`) and waits until it writes the port it chose into the profile's
 * `DevToolsActivePort`. Chromium carries {@link OWNER_ENV}, so the reaper and the watchdog know whose
 * it is.
 */
export const startChromium = async (
  binary: string,
  args: ReadonlyArray<string>,
  profileDir: string,
  timeoutMs: number,
): Promise<StartedChromium> => {
  const child = spawn(binary, [...args, "about:blank"], {
    stdio: "ignore",
    env: { ...process.env, [OWNER_ENV]: ownerId() },
  })
  let failed: Error | undefined
  child.once("error", (error) => {
    failed = error
  })
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (failed !== undefined) throw failed
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `Chromium exited (${child.exitCode ?? child.signalCode}) before it opened its DevTools port`,
      )
    }
    try {
      const [port] = (await readFile(join(profileDir, "DevToolsActivePort"), "utf8")).split("\n")
      if (port !== undefined && /^\d+$/.test(port))
        return { process: child, debuggerAddress: `127.0.0.1:${port}` }
    } catch {
      // Not written yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`Chromium did not open its DevTools port within ${timeoutMs} ms`)
}
