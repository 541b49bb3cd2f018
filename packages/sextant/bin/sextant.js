#!/usr/bin/env node
// The `sextant` command's launcher, plain JavaScript that any Node can parse. It checks the Node version
// before the CLI is loaded: a module that imports what only Node 24 has (node:sqlite) fails while it
// is linked, before a check of its own could run, with an error that does not say which Node to use.
const minimum = [24, 21, 0]
const current = process.versions.node.split(".").map(Number)
const older = minimum.findIndex((part, index) => (current[index] ?? 0) !== part)
if (older !== -1 && (current[older] ?? 0) < (minimum[older] ?? 0)) {
  process.stderr.write(
    `sextant: Sextant needs Node ≥ 24.21 (this is v${process.versions.node}): in a clone of Sextant run \`. scripts/setup.sh\`, otherwise install Node 24 LTS (https://nodejs.org/en/download)\n`,
  )
  process.exit(1)
}
await import("#cli")
