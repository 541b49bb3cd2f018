import { type ChildProcess, spawn } from "node:child_process"
import { afterEach, describe, expect, it } from "vitest"
import { isSameProcess, processIdentity, signalSameProcess } from "../src/internal/Processes.ts"

/*
 * The driver pool ends a browser that stopped answering with SIGKILL. It names the browser by pid and
 * start time, read when it launched, so a pid the kernel gave to another process after the browser
 * ended is never signalled: a pid with another start time is another process.
 */

const children: Array<ChildProcess> = []
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
})

const sleeper = async (): Promise<ChildProcess> => {
  const child = spawn("sleep", ["60"], { stdio: "ignore" })
  children.push(child)
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve())
    child.once("error", reject)
  })
  return child
}

const ended = (child: ChildProcess): Promise<NodeJS.Signals | null> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.signalCode)
    : new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)))

describe("signalling a process by its identity", () => {
  it("leaves alone a process holding the pid under another start time, as a reused pid would", async () => {
    const child = await sleeper()
    const identity = processIdentity(child.pid!)
    expect(identity).toMatch(/^\d+:\d+$/)
    // The same pid, started at another time: the process an earlier browser's identity names is gone.
    const earlier = `${child.pid}:${Number(identity!.split(":")[1]) - 1}`
    expect(isSameProcess(earlier)).toBe(false)
    expect(signalSameProcess(earlier, "SIGKILL")).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect([child.exitCode, child.signalCode]).toEqual([null, null])
    expect(isSameProcess(identity!)).toBe(true)
  })

  it("signals the process it names, and names nothing once it ended", async () => {
    const child = await sleeper()
    const identity = processIdentity(child.pid!)!
    expect(signalSameProcess(identity, "SIGKILL")).toBe(true)
    expect(await ended(child)).toBe("SIGKILL")
    expect(isSameProcess(identity)).toBe(false)
    expect(processIdentity(child.pid!)).toBeUndefined()
  })
})
