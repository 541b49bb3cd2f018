import { execFileSync } from "node:child_process"

export { freePort } from "../../src/internal/Processes.ts"

/** Ids of the live processes whose command line matches `pattern`, as `pgrep -f` sees them. */
export const pgrep = (pattern: string): ReadonlyArray<number> => {
  try {
    return execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map(Number)
  } catch {
    return []
  }
}
