import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const setup = join(dirname(fileURLToPath(import.meta.url)), "..", "setup.sh")

/** Runs a bash snippet with the dependency install skipped (the workspace is already installed). */
const bash = (script: string, env: Record<string, string> = {}) =>
  spawnSync("bash", ["-c", script], {
    encoding: "utf8",
    env: { ...process.env, SEXTANT_SKIP_INSTALL: "1", ...env },
    timeout: 60_000,
  })

describe("scripts/setup.sh sourced into a shell", () => {
  it("leaves the caller's shell options as they were and puts Node 24 and pnpm on PATH", () => {
    const result = bash(
      `before="$(set +o; shopt -p)"; . "${setup}"; rc=$?; after="$(set +o; shopt -p)"
       [ "$before" = "$after" ] && echo OPTIONS-UNCHANGED; echo "rc=$rc"; node -p process.versions.node; pnpm --version`,
    )
    expect(result.stdout).toContain("OPTIONS-UNCHANGED")
    expect(result.stdout).toContain("rc=0")
    expect(result.stdout).toMatch(/^24\./m)
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+$/m)
  })

  it("returns a failure to the caller without closing its shell, and names what to fix", () => {
    const result = bash(
      `. "${setup}"; echo "rc=$?"; echo STILL-RUNNING; set +o | grep -c 'set -o errexit' || true`,
      {
        SEXTANT_CHROME: "/nonexistent/chromium",
      },
    )
    expect(result.stdout).toContain("rc=1")
    expect(result.stdout).toContain("STILL-RUNNING")
    // errexit was not switched on in the caller's shell
    expect(result.stdout.trim().split("\n").at(-1)).toBe("0")
    expect(result.stderr).toContain("SEXTANT_CHROME=/nonexistent/chromium")
  })

  it("run on its own, exits non-zero when the browser is missing", () => {
    const result = spawnSync("bash", [setup], {
      encoding: "utf8",
      env: { ...process.env, SEXTANT_SKIP_INSTALL: "1", SEXTANT_CHROME: "/nonexistent/chromium" },
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("not executable")
  })
})
