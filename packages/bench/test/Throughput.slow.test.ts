import { launch } from "@sextant/webdriverio"
import { Effect, Exit, Scope } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { browserMemory, sampleBrowserMemory } from "../src/Throughput.ts"

// The scale bench's memory figure: Chromium processes below a process, read from /proc, in real
// headless Chromium launched the way Sextant launches it (ChromeDriver, then the browser below it).

const scopes: Array<Scope.Closeable> = []
afterEach(async () => {
  for (const scope of scopes.splice(0)) await Effect.runPromise(Scope.close(scope, Exit.void))
})

const open = async () => {
  const scope = await Effect.runPromise(Scope.make())
  scopes.push(scope)
  await Effect.runPromise(Scope.provide(launch({}), scope))
  return scope
}

describe("browserMemory", () => {
  it("counts one browser per session below this process and sums its processes' PSS, not ChromeDriver", async () => {
    expect(browserMemory([process.pid]).browsers).toBe(0)
    const first = await open()
    const one = browserMemory([process.pid])
    expect(one.browsers).toBe(1)
    // A headless Chromium with a blank page is tens of MB; ChromeDriver alone would be a few.
    expect(one.pssKb).toBeGreaterThan(20_000)
    // One browser: the largest browser is all of it.
    expect(one.largestBrowserKb).toBe(one.pssKb)
    await open()
    const two = browserMemory([process.pid])
    expect(two.browsers).toBe(2)
    // Two browsers: the largest is one of them, not their sum.
    expect(two.largestBrowserKb).toBeLessThan(two.pssKb)
    expect(two.largestBrowserKb * 2).toBeGreaterThanOrEqual(two.pssKb)
    await Effect.runPromise(Scope.close(first, Exit.void))
    scopes.splice(scopes.indexOf(first), 1)
    expect(browserMemory([process.pid]).browsers).toBe(1)
  }, 60_000)

  it("sees nothing below a process that started no browser", async () => {
    await open()
    expect(browserMemory([1 << 22])).toEqual({ browsers: 0, pssKb: 0, largestBrowserKb: 0 })
  }, 60_000)
})

describe("sampleBrowserMemory", () => {
  it("keeps the peak per session and the peak browser count across samples, not the last sample", async () => {
    // The timer never fires within the test: samples are taken by hand, so no clock decides the result.
    const sampler = sampleBrowserMemory(() => [process.pid], 3_600_000)
    sampler.sample()
    const first = await open()
    await open()
    sampler.sample()
    await Effect.runPromise(Scope.close(first, Exit.void))
    scopes.splice(scopes.indexOf(first), 1)
    await Effect.runPromise(Scope.close(scopes.pop()!, Exit.void))
    sampler.sample()
    const peak = sampler.stop()
    expect(peak.peakBrowsers).toBe(2)
    expect(peak.peakKbPerSession).toBeGreaterThan(10_000)
  }, 60_000)
})
