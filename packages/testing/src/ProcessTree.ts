import { readdirSync, readFileSync } from "node:fs"

/**
 * Every process below `pids`, and `pids` themselves, read from /proc (Linux): for tests that check a
 * stopped service or browser left no process behind.
 */
export const processTree = (pids: ReadonlyArray<number>): Array<number> => {
  const parents = new Map<number, number>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]))
    } catch {
      // exited while reading
    }
  }
  const tree = new Set(pids)
  let grew = true
  while (grew) {
    grew = false
    for (const [pid, ppid] of parents) {
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid)
        grew = true
      }
    }
  }
  return [...tree]
}

/** Every process below `pid`, not `pid` itself (a Grid node's ChromeDriver and Chromium, say). */
export const descendantPids = (pid: number): Array<number> =>
  processTree([pid]).filter((each) => each !== pid)
