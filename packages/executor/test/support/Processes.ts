import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"

/** The live descendants of a process, with their command names (from `ps`). */
export const descendants = (root: number): ReadonlyArray<{ pid: number; command: string }> => {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,comm="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .map(([pid, ppid, command]) => ({ pid: Number(pid), ppid: Number(ppid), command: command ?? "" }))
  const found: Array<{ pid: number; command: string }> = []
  const queue = [root]
  while (queue.length > 0) {
    const parent = queue.shift()
    for (const row of rows) {
      if (row.ppid !== parent) continue
      found.push({ pid: row.pid, command: row.command })
      queue.push(row.pid)
    }
  }
  return found
}

/** Browser processes (Chromium and ChromeDriver) under a process. */
export const browserProcesses = (root: number) =>
  descendants(root).filter((process) => /chrom/i.test(process.command))

/** The Chromium profile folders the given processes use (to remove after killing them). */
export const profileDirectories = (pids: ReadonlyArray<number>): ReadonlyArray<string> => {
  if (pids.length === 0) return []
  const lines = execFileSync("ps", ["-o", "args=", "-p", pids.join(",")], { encoding: "utf8" }).split("\n")
  const found = lines.flatMap((line) => /--user-data-dir=(\S+)/.exec(line)?.[1] ?? [])
  return [...new Set(found)]
}

/** True while a process id is alive. */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * True until a process has ended: one that ended but is not yet reaped by its parent (a zombie,
 * which `isAlive` still counts) has ended.
 */
export const isRunning = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"
  } catch {
    return false
  }
}

/**
 * Blocks until every process of `pids` has ended, at most `limitMs`, and says whether they all did:
 * for a synchronous callback that sent SIGKILL and whose run's next call must be the first one sent
 * after the process died (the signal lands when the kernel gets to the process).
 */
export const waitUntilEnded = (pids: ReadonlyArray<number>, limitMs = 5_000): boolean => {
  const pause = new Int32Array(new SharedArrayBuffer(4))
  const deadline = Date.now() + limitMs
  while (pids.some(isRunning) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 10)
  return !pids.some(isRunning)
}
