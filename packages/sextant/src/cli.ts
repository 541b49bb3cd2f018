#!/usr/bin/env node
import { main } from "./main.ts"

// The bin's entry: the CLI itself is `main` (src/main.ts), run here on the process's own streams.
const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
})
// An interrupted run has closed its browser and printed its summary; a model request still in flight
// must not keep the process alive after Ctrl-C.
if (code === 130) process.exit(130)
process.exitCode = code
