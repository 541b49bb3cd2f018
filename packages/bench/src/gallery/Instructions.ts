import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { z } from "zod"

/**
 * The gallery instruction set: each instruction names a gallery page, its family and language, the
 * text a user would write, and the state the page's oracle must reach (`expect`). The frozen file was
 * written before the rule parser was changed for it and is never edited; its hash is checked. The
 * held-out file was written later, without reading the parser, and committed before any run; it is
 * never edited either and its hash is checked the same way, so the rule agent cannot be fitted to it.
 * The fresh file is a third such set, on pages of its own, run only when asked (`--set fresh`);
 * `needsModel` marks an instruction no rule agent can carry out (arithmetic, counting, judgement,
 * writing): its right outcome is a FAILED run that names the step it could not do. The fresh2 file is a
 * fourth such set (`--set fresh2`), written later over the older gallery pages and the fresh ones alike.
 * The fresh3 file is a fifth (`--set fresh3`), written later still, mostly on five pages of its own.
 */
export const Instruction = z.object({
  id: z.string().regex(/^[a-z]\d{3}$/),
  page: z.string().min(1),
  family: z.string().min(1),
  lang: z.enum(["en", "zh"]),
  text: z.string().min(1),
  expect: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  needsModel: z.boolean().optional(),
})
export type Instruction = z.output<typeof Instruction> & {
  readonly set: "frozen" | "rest" | "holdout" | "fresh" | "fresh2" | "fresh3"
}

/** sha256 of `instructions.frozen.json` as committed; a changed file is an error, not a new baseline. */
export const FROZEN_SHA256 = "27497195f1784ed7d99ad2df8ae0cc505659d4e912dc73b8dcdf551bf86779de"

/** sha256 of `instructions.holdout.json` as committed, before any run on it. */
export const HOLDOUT_SHA256 = "9d7f5b5ebcff79f75d45334c899b4767aba9cf3c7b2bc636103440826a1a1ef2"

/** sha256 of `instructions.fresh.json` as committed, before any run on it. */
export const FRESH_SHA256 = "d1c793f2bad86acc273e4fb51887df5afddb9d1ce2d42af4ee6cd16103f5681a"

/** sha256 of `instructions.fresh2.json` as committed, before any run on it. */
export const FRESH2_SHA256 = "fc96578e84b4c458562b3084d9379088c3da670ef86fd748b93e9a183af37f8f"

/** sha256 of `instructions.fresh3.json` as committed, before any run on it. */
export const FRESH3_SHA256 = "c092edd52c16a7ced1709055f692844f415facaf4030c818ba9e870bd411a8ef"

const directory = dirname(fileURLToPath(import.meta.url))
export const FROZEN_PATH = join(directory, "instructions.frozen.json")
export const REST_PATH = join(directory, "instructions.rest.json")
export const HOLDOUT_PATH = join(directory, "instructions.holdout.json")
export const FRESH_PATH = join(directory, "instructions.fresh.json")
export const FRESH2_PATH = join(directory, "instructions.fresh2.json")
export const FRESH3_PATH = join(directory, "instructions.fresh3.json")

const load = (path: string, set: Instruction["set"]): ReadonlyArray<Instruction> => {
  const parsed = z.array(Instruction).safeParse(JSON.parse(readFileSync(path, "utf8")))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`${path}: [${issue?.path.join("].")}] ${issue?.message}`)
  }
  return parsed.data.map((instruction) => ({ ...instruction, set }))
}

const sha256 = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex")

export const frozenHash = (): string => sha256(FROZEN_PATH)
export const holdoutHash = (): string => sha256(HOLDOUT_PATH)
export const freshHash = (): string => sha256(FRESH_PATH)
export const fresh2Hash = (): string => sha256(FRESH2_PATH)
export const fresh3Hash = (): string => sha256(FRESH3_PATH)

/**
 * The three files, frozen first, then the rest, then the held-out set; throws when the frozen or the
 * held-out file was edited or an id repeats.
 */
export const loadInstructions = (): ReadonlyArray<Instruction> => {
  const hash = frozenHash()
  if (hash !== FROZEN_SHA256) {
    throw new Error(`${FROZEN_PATH} was edited (sha256 ${hash}); the frozen instruction set may not change`)
  }
  const held = holdoutHash()
  if (held !== HOLDOUT_SHA256) {
    throw new Error(
      `${HOLDOUT_PATH} was edited (sha256 ${held}); the held-out instruction set may not change`,
    )
  }
  let rest: ReadonlyArray<Instruction> = []
  try {
    rest = load(REST_PATH, "rest")
  } catch (cause) {
    if (!(cause instanceof Error && "code" in cause && cause.code === "ENOENT")) throw cause
  }
  const all = [...load(FROZEN_PATH, "frozen"), ...rest, ...load(HOLDOUT_PATH, "holdout")]
  const seen = new Set<string>()
  for (const instruction of all) {
    if (seen.has(instruction.id)) throw new Error(`instruction id ${instruction.id} appears twice`)
    seen.add(instruction.id)
  }
  return all
}

/** Loads a set run only when asked, after checking its committed sha256 and that no id repeats. */
const loadSealed = (
  path: string,
  expectedSha256: string,
  set: "fresh" | "fresh2" | "fresh3",
): ReadonlyArray<Instruction> => {
  const hash = sha256(path)
  if (hash !== expectedSha256) {
    throw new Error(
      `${path} was edited (sha256 ${hash}, committed ${expectedSha256}); the ${set} instruction set may not change`,
    )
  }
  const loaded = load(path, set)
  const seen = new Set<string>()
  for (const instruction of loaded) {
    if (seen.has(instruction.id)) throw new Error(`${path}: instruction id ${instruction.id} appears twice`)
    seen.add(instruction.id)
  }
  return loaded
}

/**
 * The fresh set alone (set "fresh"), hash-checked like the held-out file: an edited file is an error,
 * not a new baseline. `path` and `expectedSha256` are for tests of the check itself.
 *
 * @example
 * const fresh = loadFreshInstructions()
 * const needsModel = fresh.filter((instruction) => instruction.needsModel === true)
 */
export const loadFreshInstructions = (
  path: string = FRESH_PATH,
  expectedSha256: string = FRESH_SHA256,
): ReadonlyArray<Instruction> => loadSealed(path, expectedSha256, "fresh")

/**
 * The fresh2 set alone (set "fresh2"): a fourth held-out set over the older gallery pages and the fresh
 * ones, hash-checked the same way. `path` and `expectedSha256` are for tests of the check itself.
 *
 * @example
 * const fresh2 = loadFresh2Instructions()
 * const chinese = fresh2.filter((instruction) => instruction.lang === "zh")
 */
export const loadFresh2Instructions = (
  path: string = FRESH2_PATH,
  expectedSha256: string = FRESH2_SHA256,
): ReadonlyArray<Instruction> => loadSealed(path, expectedSha256, "fresh2")

/**
 * The fresh3 set alone (set "fresh3"): a fifth held-out set, mostly on its own five gallery pages
 * (`hotel-booking`, `recipe`, `job-application`, `support-ticket`, `newsletter-prefs`) and partly on older
 * ones, hash-checked the same way. `path` and `expectedSha256` are for tests of the check itself.
 *
 * @example
 * const fresh3 = loadFresh3Instructions()
 * const doable = fresh3.filter((instruction) => instruction.needsModel !== true)
 */
export const loadFresh3Instructions = (
  path: string = FRESH3_PATH,
  expectedSha256: string = FRESH3_SHA256,
): ReadonlyArray<Instruction> => loadSealed(path, expectedSha256, "fresh3")
