import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, it } from "vitest"
import type { Instruction } from "../../src/gallery/Instructions.ts"

/** What the loader contract of one sealed instruction set is checked with. */
export interface SealedSetCase {
  /** The set's name, as the loader stamps it and its refusal names it ("fresh2"). */
  readonly set: "fresh" | "fresh2" | "fresh3"
  /** Loads a file of the set from `path`, checked against `hash`. */
  readonly load: (path: string, hash: string) => ReadonlyArray<Instruction>
  /** One valid entry of the set, given its id and any fields to change. */
  readonly entry: (id: string, extra?: Record<string, unknown>) => Record<string, unknown>
  /** Two ids in the set's own form ("m001", "m002"). */
  readonly ids: readonly [string, string]
  /** A word of the entry's text, and what an edit makes of it. */
  readonly edit: readonly [string, string]
  /** A field value the schema refuses, and the path its message names ("[0].lang]"). */
  readonly malformed: readonly [Record<string, unknown>, string]
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/**
 * The loader contract every sealed set keeps: a file with the committed hash loads as the set (keeping
 * `needsModel`); an edited file is refused naming both hashes and the set; a repeated id and a malformed
 * entry are refused by name. Call it inside the set's `describe`.
 */
export const sealedLoaderContract = ({ set, load, entry, ids, edit, malformed }: SealedSetCase): void => {
  const folder = mkdtempSync(join(tmpdir(), `sextant-${set}-`))
  const writeSet = (name: string, entries: ReadonlyArray<unknown>) => {
    const path = join(folder, name)
    const text = `${JSON.stringify(entries, null, 2)}\n`
    writeFileSync(path, text)
    return { path, hash: sha256(text) }
  }
  const [first, second] = ids

  it(`loads a file whose sha256 is the committed one, as set ${set}, keeping needsModel`, () => {
    const { path, hash } = writeSet("good.json", [entry(first), entry(second, { needsModel: true })])
    expect(
      load(path, hash).map((instruction) => [instruction.id, instruction.set, instruction.needsModel]),
    ).toEqual([
      [first, set, undefined],
      [second, set, true],
    ])
  })

  it("refuses a file whose sha256 differs from the committed one, naming both hashes and the set", () => {
    const { path, hash } = writeSet("edited.json", [entry(first)])
    const edited = readFileSync(path, "utf8").replace(edit[0], edit[1])
    writeFileSync(path, edited)
    expect(() => load(path, hash)).toThrow(
      `${path} was edited (sha256 ${sha256(edited)}, committed ${hash}); the ${set} instruction set may not change`,
    )
  })

  it("refuses a repeated id and a malformed entry, naming them", () => {
    const twice = writeSet("twice.json", [entry(first), entry(first)])
    expect(() => load(twice.path, twice.hash)).toThrow(`instruction id ${first} appears twice`)
    const bad = writeSet("bad.json", [entry(first, malformed[0])])
    expect(() => load(bad.path, bad.hash)).toThrow(malformed[1])
  })
}
