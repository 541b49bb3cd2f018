import { type ChildProcess, spawn } from "node:child_process"

/**
 * A watchdog of one launch: a tiny detached `sh` that holds the read end of a pipe whose write end
 * only this Node process holds. When Node dies however it dies (SIGKILL included), the kernel closes
 * the write end, the watchdog reads end-of-file at once and ends that launch's ChromeDriver and every
 * Chromium process of its profile, then removes the profile. A normal close says `done` first and
 * the watchdog leaves without touching anything.
 *
 * Why not Linux's own parent-death signal (`PR_SET_PDEATHSIG`, e.g. through `setpriv --pdeathsig`):
 * it reaches only a direct child (ChromeDriver), while Chromium is ChromeDriver's child and outlives
 * it; and Node cannot set it on a child without a native module. The pipe needs no polling, so the
 * browser ends within the watchdog's reaction time (measured: 30–60 ms after the SIGKILL), and a
 * reused pid cannot fool it.
 */
export interface Watchdog {
  /** Tells the watchdog the launch closed normally; it exits without ending anything. */
  readonly release: () => void
}

// Environment only, never argv: the watchdog's own command line must not name the profile, or it
// would find (and kill) itself among the processes it looks for.
//
// Chromium's browser process has `--user-data-dir=<profile>` as an argument of its own; its helpers
// (zygotes, GPU, network and storage services, renderers) write their process title over argv and
// environment, so their /proc cmdline is one string that holds it among the other switches and their
// environ holds no owner. The command lines are searched for it as a substring: matching whole
// arguments found the browser process only, and a helper left running (late, on a loaded machine)
// wrote into the profile after it was removed (the network service's `Default/Network Persistent
// State` and HTTP cache index). No other launch's profile starts with this one's path (mkdtemp ends
// each name in six letters and digits after a prefix of digits and dashes), only a path inside it.
// The profile is removed once no process of the launch is left, again while anything is, for up to
// ten seconds: a loaded machine can be slow to end a killed process.
const script = `
IFS= read -r line
[ "$line" = done ] && exit 0
i=0
while [ "$i" -lt 200 ]; do
  pids=$( {
    printf '%s\\n' "$SEXTANT_WATCH_MARK" | grep -lzFf - /proc/[0-9]*/cmdline
    printf '%s\\n' "$SEXTANT_WATCH_OWNER" | grep -lzxFf - /proc/[0-9]*/environ
  } 2>/dev/null | cut -d/ -f3 | grep -vx "$$")
  if [ -z "$pids" ]; then
    rm -rf -- "$SEXTANT_WATCH_PROFILE" 2>/dev/null
    [ -e "$SEXTANT_WATCH_PROFILE" ] || exit 0
  else
    kill -KILL $pids 2>/dev/null
  fi
  sleep 0.05
  i=$((i + 1))
done
rm -rf -- "$SEXTANT_WATCH_PROFILE"
`

/**
 * Starts the watchdog of a launch whose Chromium runs with `profileDir` and whose ChromeDriver was
 * started with `ownerMarker` (`OWNER_ENV=<owner>`) in its environment, which Chromium's browser and
 * crash handler inherit. Once the owner is dead every process carrying its marker is an orphan.
 * Answers undefined where there is no `/bin/sh` or `/proc` (the reaper at the next launch still
 * applies).
 */
export const startWatchdog = (profileDir: string, ownerMarker: string): Watchdog | undefined => {
  let child: ChildProcess
  try {
    child = spawn("/bin/sh", ["-c", script], {
      // Its own session: a Ctrl-C to Node's process group does not end it before it acts.
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        SEXTANT_WATCH_MARK: `--user-data-dir=${profileDir}`,
        SEXTANT_WATCH_PROFILE: profileDir,
        SEXTANT_WATCH_OWNER: ownerMarker,
      },
    })
  } catch {
    return undefined
  }
  child.on("error", () => {})
  child.stdin?.on("error", () => {})
  // Neither the watchdog nor its pipe may keep Node alive.
  child.unref()
  ;(child.stdin as unknown as { unref?: () => void } | null)?.unref?.()
  let released = false
  return {
    release: () => {
      if (released) return
      released = true
      try {
        child.stdin?.end("done\n")
      } catch {
        // Already gone: nothing is left for it to end either.
      }
    },
  }
}
