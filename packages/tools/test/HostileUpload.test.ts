import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BrowserDriver, type DriverError, UploadDirs } from "@sextant/core"
import { Effect } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { uploadTool } from "../src/browser/Input.ts"
import { navigateTool } from "../src/browser/Navigation.ts"
import { type Harness, openHarness } from "./browser/Harness.ts"

let harness: Harness
let root: string
let uploads: string
let outside: string
beforeAll(async () => {
  harness = await openHarness([0])
  root = await mkdtemp(join(tmpdir(), "sextant-hostile-upload-"))
  uploads = join(root, "uploads")
  outside = join(root, "uploads-private")
  await mkdir(uploads)
  await mkdir(outside)
  await writeFile(join(uploads, "report.txt"), "the report")
  await writeFile(join(outside, "secret.txt"), "a secret")
  // A link inside the allowed folder that points out of it, and a link to the allowed folder itself.
  await symlink(join(outside, "secret.txt"), join(uploads, "innocent.txt"))
  await symlink("/etc/hostname", join(uploads, "hostname"))
  await symlink(uploads, join(root, "uploads-link"))
})
afterAll(async () => {
  await harness?.close()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})
beforeEach(async () => {
  await harness.run(navigateTool.run({ url: harness.url("/forms/contact") }))
})

const chosenFile = () =>
  harness.run(
    BrowserDriver.use((driver) =>
      driver.evaluate("return document.getElementById('attachment').files[0]?.name ?? null"),
    ),
  )
/** The upload tool on `path`, with `allowed` (and what the program calls that setting) as `UploadDirs`. */
const upload = (path: string, allowed?: ReadonlyArray<string>, setting?: string) => {
  const run = uploadTool.run({ target: "#attachment", path })
  return allowed === undefined ? run : run.pipe(Effect.provideService(UploadDirs, { allowed, setting }))
}
const refusal = async (
  path: string,
  allowed?: ReadonlyArray<string>,
  setting?: string,
): Promise<DriverError> => {
  const error = (await harness.fail(upload(path, allowed, setting))) as DriverError
  expect(error._tag).toBe("DriverError")
  expect(error.reason._tag).toBe("UploadRefused")
  // Nothing reached the page's file input.
  expect(await chosenFile()).toBeNull()
  return error
}

describe("upload takes files only from the folders the task allows", () => {
  it("refuses every upload when the task names no folder, and says which setting to use", async () => {
    const error = await refusal("/etc/hostname")
    expect(error.message).toContain('upload of "/etc/hostname" refused: no folder is allowed for uploads')
    // A library caller sets the task field; a CLI's flag would be no setting of theirs.
    expect(error.message).toContain("add its folder with constraints.allowedUploadDirs if the task needs it")
    expect(error.message).not.toContain("--allow-upload-dir")
  })

  it("names the setting as the program that set the folders calls it (a CLI's flag)", async () => {
    const none = await refusal("/etc/hostname", [], "--allow-upload-dir DIR")
    expect(none.message).toContain(
      "no folder is allowed for uploads: add its folder with --allow-upload-dir DIR",
    )
    expect(none.message).not.toContain("constraints.allowedUploadDirs")
    const outsideFolders = await refusal("/etc/hostname", [uploads], "--allow-upload-dir DIR")
    expect(outsideFolders.message).toContain(
      `it is not inside an allowed upload folder (${uploads}): add its folder with --allow-upload-dir DIR`,
    )
  })

  it("refuses a file outside the allowed folders", async () => {
    const error = await refusal("/etc/hostname", [uploads])
    expect(error.message).toContain("it is not inside an allowed upload folder")
  })

  it("refuses a .. escape out of an allowed folder", async () => {
    const error = await refusal(`${uploads}/../uploads-private/secret.txt`, [uploads])
    expect(error.message).toContain(`its real path ${join(outside, "secret.txt")} is not inside`)
  })

  it("refuses a symlink in an allowed folder that points outside it", async () => {
    const inner = await refusal(join(uploads, "innocent.txt"), [uploads])
    expect(inner.message).toContain(`its real path ${join(outside, "secret.txt")} is not inside`)
    await refusal(join(uploads, "hostname"), [uploads])
  })

  it("does not take a sibling folder that shares the allowed folder's name as a prefix", async () => {
    await refusal(join(outside, "secret.txt"), [uploads])
  })

  it("refuses a folder, a missing file and a relative path", async () => {
    expect((await refusal(uploads, [uploads])).message).toContain("it is not a regular file")
    expect((await refusal(join(uploads, "missing.txt"), [uploads])).message).toContain(
      "there is no such file",
    )
    expect((await refusal("uploads/report.txt", [uploads])).message).toContain(
      "give the file's absolute path",
    )
  })

  it("uploads a file inside an allowed folder, also when the folder is named through a symlink", async () => {
    await harness.run(upload(join(uploads, "report.txt"), [uploads]))
    expect(await chosenFile()).toBe("report.txt")
    await harness.run(navigateTool.run({ url: harness.url("/forms/contact") }))
    await harness.run(upload(join(root, "uploads-link", "report.txt"), [join(root, "uploads-link")]))
    expect(await chosenFile()).toBe("report.txt")
  })
})
