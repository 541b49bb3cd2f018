import { nodeVersionProblem } from "./NodeVersion.ts"

// Imported first by the package's index, so `import … from "sextant-agent"` on an older Node stops here
// with the Node to install, before a module that needs Node 24 runs.
const problem = nodeVersionProblem()
if (problem !== undefined) throw new Error(problem)
