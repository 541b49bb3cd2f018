import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runMain } from "./support/Main.ts"

// The queue commands' bad flags, files and URLs: one line naming the flag, exit 2 (1 for a Redis that
// does not answer), never a stack trace. None of these needs a server. The usage errors call the CLI's
// `main` in this process; a Redis that does not answer is asked by a spawned `sextant`, so the client's
// reconnect timers end with that process.

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url))
let directory: string
let closedPort: number

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "sextant-bad-queue-"))
  writeFileSync(join(directory, "broken.json"), "{ goal: ")
  writeFileSync(
    join(directory, "bad-task.json"),
    JSON.stringify([{ goal: "fine" }, { goal: "", maxSteps: 3 }]),
  )
  writeFileSync(join(directory, "empty.json"), "[]")
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  closedPort = (server.address() as { port: number }).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
})
afterAll(() => {
  rmSync(directory, { recursive: true, force: true })
})

const sextant = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stderr: string; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--conditions=sextant-source", cli, ...args],
      { cwd: directory, timeout: 20_000 },
      (error, stdout, stderr) => resolve({ code: Number(error?.code ?? 0), stdout, stderr }),
    )
  })

const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>, RegExp, number]> = [
  ["worker without --queue", ["worker"], /required option '--queue <url>' not specified/, 2],
  [
    "worker with an http queue URL",
    ["worker", "--queue", "http://127.0.0.1:6379"],
    /^sextant worker: --queue: must be a Redis URL, e\.g\. redis:\/\/127\.0\.0\.1:6379/m,
    2,
  ],
  [
    "worker with concurrency 0",
    ["worker", "--queue", "redis://127.0.0.1:1", "--concurrency", "0"],
    /^sextant worker: --concurrency: must be at least 1/m,
    2,
  ],
  [
    "worker with concurrency two",
    ["worker", "--queue", "redis://127.0.0.1:1", "--concurrency", "two"],
    /^sextant worker: --concurrency: must be a whole number, e\.g\. --concurrency 2/m,
    2,
  ],
  [
    "worker with a rate without a window",
    ["worker", "--queue", "redis://127.0.0.1:1", "--rate", "https://shop.example=2"],
    /^sextant worker: --rate: "https:\/\/shop\.example=2": not in the form origin=max\/window/m,
    2,
  ],
  [
    "worker with a rate on a path",
    ["worker", "--queue", "redis://127.0.0.1:1", "--rate", "https://shop.example/cart=2/1s"],
    /^sextant worker: --rate: .*not an http\(s\) origin/m,
    2,
  ],
  [
    "worker with a lock duration of 5 ms",
    ["worker", "--queue", "redis://127.0.0.1:1", "--lock-duration", "5"],
    /^sextant worker: --lock-duration: must be at least 1000/m,
    2,
  ],
  [
    "enqueue with neither file nor goal",
    ["enqueue", "--queue", "redis://127.0.0.1:1"],
    /^sextant enqueue: --goal: give a task file or --goal/m,
    2,
  ],
  [
    "enqueue with both file and goal",
    ["enqueue", "tasks.json", "--goal", "x", "--queue", "redis://127.0.0.1:1"],
    /^sextant enqueue: <file>: give a task file or --goal, not both/m,
    2,
  ],
  [
    "enqueue with a missing file",
    ["enqueue", "nope.json", "--queue", "redis://127.0.0.1:1"],
    /^sextant enqueue: <file>: cannot read nope\.json \(ENOENT/m,
    2,
  ],
  [
    "enqueue with a file that is not JSON",
    ["enqueue", "broken.json", "--queue", "redis://127.0.0.1:1"],
    /^sextant enqueue: <file>: broken\.json is not JSON .*write one task object or an array of tasks/m,
    2,
  ],
  [
    "enqueue with an empty task list",
    ["enqueue", "empty.json", "--queue", "redis://127.0.0.1:1"],
    /^sextant enqueue: <file>: empty\.json holds no task/m,
    2,
  ],
  [
    "enqueue with a start URL that is not http",
    ["enqueue", "--goal", "x", "--url", "ftp://a", "--queue", "redis://127.0.0.1:1"],
    /^sextant enqueue: --url: must be an http or https URL/m,
    2,
  ],
  [
    "enqueue with a secret given a value",
    ["enqueue", "--goal", "x", "--secret", "password=hunter2", "--queue", "redis://127.0.0.1:1"],
    /^sextant enqueue: --secret: name the secret input \(its value stays with the workers: SEXTANT_SECRET_<NAME>\)/m,
    2,
  ],
  [
    "runs --follow without --queue",
    ["runs", "--follow", "run-1"],
    /^sextant runs: --queue: name the queue's Redis/m,
    2,
  ],
  [
    "runs --queue with --status",
    ["runs", "--queue", "redis://127.0.0.1:1", "--status", "failed"],
    /^sextant runs: --status: lists the store's runs: leave it out with --queue/m,
    2,
  ],
]

describe("bad input to the queue commands", () => {
  it.each(cases)("%s: one line naming the flag, no stack trace", async (_name, args, message, code) => {
    const ran = await runMain(args, { cwd: directory })
    expect(ran.stderr).toMatch(message)
    expect(ran.code).toBe(code)
    expect(ran.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/)
  })

  it("reports a task file's bad task by its index and field", async () => {
    // Checked before Redis is asked: the Redis here is not even there.
    const ran = await runMain(["enqueue", "bad-task.json", "--queue", `redis://127.0.0.1:${closedPort}`], {
      cwd: directory,
    })
    expect(ran.stderr).toMatch(
      /^sextant enqueue: <file>: bad-task\.json task 1: task\.goal: describe the goal in words \(got ""\)$/m,
    )
    expect(ran.stderr).toMatch(
      /^sextant enqueue: <file>: bad-task\.json task 1: task\.maxSteps is not a task field \(the fields are id, goal/m,
    )
    expect(ran.stderr).not.toMatch(/task 0/)
    expect(ran.code).toBe(2)
  })

  it.each([
    ["worker", ["worker", "--queue"]],
    ["enqueue", ["enqueue", "--goal", "x", "--queue"]],
    ["runs", ["runs", "--queue"]],
  ])("%s with a Redis that does not answer says so, naming --queue, in one line", async (_name, args) => {
    const ran = await sextant([...args, `redis://:hunter2@127.0.0.1:${closedPort}`])
    expect(ran.stderr).toMatch(
      /^sextant (worker|enqueue|runs): --queue: no Redis answers at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(.*\): start redis-server there/m,
    )
    expect(ran.stderr).not.toContain("hunter2")
    expect(ran.code).toBe(1)
    expect(ran.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/)
  })
})
