import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { onTestFinished } from "vitest"

/** A fresh directory under the system temp folder, removed when the current test finishes. */
export const temporaryDirectory = (prefix: string): string => {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}
