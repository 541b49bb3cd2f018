import { sextantProject } from "../../vitest.shared.ts"

export default sextantProject("queue")
