import { FakeBrowserDriver, type LoopbackServer, startLoopbackServer } from "@sextant/testing"
import { CONTRACT_NEXT_PAGE, CONTRACT_PAGE, driverContract } from "@sextant/testing/driver-contract"
import { afterAll, beforeAll } from "vitest"
import { WebdriverioDriver } from "../src/index.ts"

// The contract page and its /next, served on 127.0.0.1 for headless Chromium.
let server: LoopbackServer
beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    const page = request.url?.startsWith("/contract")
      ? CONTRACT_PAGE
      : request.url?.startsWith("/next")
        ? CONTRACT_NEXT_PAGE
        : undefined
    response.writeHead(page === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" })
    response.end(page ?? "not found")
  })
})
afterAll(async () => {
  await server?.close()
})

driverContract("WebdriverIO on headless Chromium", {
  layer: WebdriverioDriver.layerShared({ driver: { actionWaitMs: 500 } }),
  url: () => `${server.url}/contract`,
  timeoutMs: 60_000,
})

// The same suite on the fake, in this file too, so a disagreement shows side by side.
driverContract("FakeBrowserDriver (beside the real one)", {
  layer: FakeBrowserDriver.layerTest({ site: { "/contract": CONTRACT_PAGE, "/next": CONTRACT_NEXT_PAGE } }),
  url: "http://fake.test/contract",
})
