import { realpath, stat } from "node:fs/promises"
import { isAbsolute, sep } from "node:path"
import { UploadRefused } from "@sextant/core"
import { Effect } from "effect"
import { fail } from "./Fail.ts"

const how = (setting: string) => `add its folder with ${setting} if the task needs it`

const inside = (path: string, folder: string): boolean =>
  path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`)

/**
 * The real path of a file `upload` may hand to the browser, or `UploadRefused`. The file's real path
 * (symlinks followed, `..` gone) must be a regular file inside the real path of one of `allowed`, so a
 * symlink or a `..` in an allowed folder cannot reach past it. The real path is what gets uploaded, so
 * the file checked is the file sent.
 */
export const allowedUploadPath = (
  path: string,
  allowed: ReadonlyArray<string>,
  setting = "constraints.allowedUploadDirs",
) =>
  Effect.gen(function* () {
    const refuse = (detail: string) => fail("act", new UploadRefused({ path, detail }))
    if (allowed.length === 0) {
      return yield* refuse(`no folder is allowed for uploads: ${how(setting)}`)
    }
    if (!isAbsolute(path)) return yield* refuse("give the file's absolute path")
    const real = yield* Effect.promise(() => realpath(path).catch(() => undefined))
    if (real === undefined) return yield* refuse("there is no such file")
    const folders = yield* Effect.promise(() =>
      Promise.all(allowed.map((folder) => realpath(folder).catch(() => undefined))),
    )
    if (!folders.some((folder) => folder !== undefined && inside(real, folder))) {
      const via = real === path ? "it" : `its real path ${real}`
      return yield* refuse(
        `${via} is not inside an allowed upload folder (${allowed.join(", ")}): ${how(setting)}`,
      )
    }
    const kind = yield* Effect.promise(() => stat(real).catch(() => undefined))
    if (kind === undefined || !kind.isFile()) return yield* refuse("it is not a regular file")
    return real
  })
