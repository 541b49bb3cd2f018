import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EMAIL, startRig } from "./support/HostileRig.ts"

/**
 * A sign-in page that, once the password field holds the whole password, shows it back in spellings a
 * reader takes for the same text: full-width, zero-width characters between its letters, spaced far
 * apart. Real headless Chromium, the model step policy through the real openai SDK against the scripted
 * server: no prompt the model is sent may hold the password in any of these spellings.
 */
const rig = startRig()

const ECHOES = `const fullWidth = (pw) => [...pw].map(c => c === ' ' ? '\\u3000' : String.fromCharCode(c.charCodeAt(0) + 0xFEE0)).join('')
const SHOW = {
  fullwidth: (pw) => fullWidth(pw),
  zw: (pw) => [...pw].join('\\u200b\\u200b\\u200b\\u200b'),
  shy: (pw) => [...pw].join('\\u00ad\\u2060\\ufeff'),
  wide: (pw) => [...pw].join('    '),
  fullzw: (pw) => [...fullWidth(pw)].join('\\u200b\\u200c\\u200d'),
}`

const page = `<!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head><body><h1>Sign in</h1>
<form method="post" action="/login"><label for="email">Email</label><input type="email" id="email" name="email">
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password">
<button type="submit">Sign in</button></form>
<script>${ECHOES}
let shown = false
// Echoed as the field takes the text, so the fill's own settle sees it: a 50 ms poll here raced the
// next step's extract on a loaded machine, and the echo was missing from every prompt.
document.getElementById('password').addEventListener('input', (event) => {
  const pw = event.target.value
  if (shown || pw.length < 14) return
  shown = true
  for (const [id, show] of Object.entries(SHOW)) { const p = document.createElement('p'); p.id = id; p.textContent = id + ': ' + show(pw); document.body.append(p) }
})
</script></body></html>`

let site: Server
let siteUrl = ""
beforeAll(async () => {
  site = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end(page)
  })
  await new Promise<void>((ok) => site.listen(0, "127.0.0.1", ok))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
})
afterAll(() => {
  site?.close()
})

/** The password's letters and digits in order, whatever the spelling: NFKC, invisible characters and separators dropped. */
const holdsPassword = (text: string): boolean =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\p{Cf}/gu, "")
    .replace(/[^\p{L}\p{N}]+/gu, "")
    .includes("opensesame")

describe("a page that echoes the typed password full-width or with invisible characters between its letters", () => {
  it("shows the model each echo as the placeholder, never the password", async () => {
    const { prompts } = await rig.withModel(`${siteUrl}/login`, [
      { name: "fill", args: { target: "#email", value: EMAIL } },
      { name: "fill", args: { target: "#password", value: "<secret:password>" } },
      { name: "extract", args: { target: "body" } },
    ])
    const sent = JSON.stringify(prompts)
    // The echoes reached the prompts, each hidden whole.
    for (const id of ["fullwidth", "zw", "shy", "wide", "fullzw"])
      expect(sent).toContain(`${id}: <secret:password>`)
    expect(holdsPassword(sent)).toBe(false)
  }, 60_000)
})
