/** The oldest Node Sextant runs on (`engines.node` of every package): it needs `node:sqlite`. */
export const MINIMUM_NODE = "24.21.0"

/**
 * Why this Node cannot run Sextant, as one line that says what to do, or undefined when it can.
 * `version` is `process.versions.node` (`20.20.2`, no `v`).
 */
export const nodeVersionProblem = (version: string = process.versions.node): string | undefined => {
  const current = version.split(".").map(Number)
  const minimum = MINIMUM_NODE.split(".").map(Number)
  const differs = minimum.findIndex((part, index) => (current[index] ?? 0) !== part)
  if (differs === -1 || (current[differs] ?? 0) > (minimum[differs] ?? 0)) return undefined
  return `Sextant needs Node ≥ 24.21 (this is v${version}): in a clone of Sextant run \`. scripts/setup.sh\`, otherwise install Node 24 LTS (https://nodejs.org/en/download)`
}
