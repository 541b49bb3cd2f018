import { startFixtureSite } from "@sextant/fixture-site"
import type { TableSection } from "../Report.ts"
import {
  freshSections,
  freshSummary,
  type GalleryMode,
  type GalleryOutcome,
  gallerySections,
  gallerySummary,
  runGallery,
  type SealedSet,
} from "./GalleryBench.ts"
import {
  type Instruction,
  loadFresh2Instructions,
  loadFresh3Instructions,
  loadFreshInstructions,
  loadInstructions,
} from "./Instructions.ts"

export interface GallerySectionOptions {
  readonly seed: number
  /**
   * Instruction ids, families, pages or sets (frozen, rest, holdout) to keep (comma-separated on the
   * command line); all when empty.
   */
  readonly only?: ReadonlyArray<string>
  readonly modes?: ReadonlyArray<GalleryMode>
  /**
   * "fresh": run the fresh set (`instructions.fresh.json`) instead of the frozen, written-after and
   * held-out sets, and report its figures; "fresh2" and "fresh3": the same for the fresh2 set
   * (`instructions.fresh2.json`) and the fresh3 set (`instructions.fresh3.json`). Never run unless asked.
   */
  readonly set?: SealedSet
  readonly progress: (line: string) => void
}

export const selectInstructions = (
  all: ReadonlyArray<Instruction>,
  only: ReadonlyArray<string> | undefined,
): ReadonlyArray<Instruction> => {
  if (only === undefined || only.length === 0) return all
  const chosen = all.filter(
    (instruction) =>
      only.includes(instruction.id) ||
      only.includes(instruction.family) ||
      only.includes(instruction.page) ||
      only.includes(instruction.set),
  )
  if (chosen.length === 0)
    throw new Error(`--instructions ${only.join(",")} matches no instruction id, family, page or set`)
  return chosen
}

/** Runs the gallery on its own fixture site (the given seed) and renders its tables. */
export const gallerySection = async (
  options: GallerySectionOptions,
): Promise<{
  sections: ReadonlyArray<TableSection>
  outcomes: ReadonlyArray<GalleryOutcome>
  summary: unknown
}> => {
  const sealed = options.set
  const instructions = selectInstructions(
    sealed === "fresh"
      ? loadFreshInstructions()
      : sealed === "fresh2"
        ? loadFresh2Instructions()
        : sealed === "fresh3"
          ? loadFresh3Instructions()
          : loadInstructions(),
    options.only,
  )
  const site = await startFixtureSite({ port: 0, seed: options.seed })
  try {
    options.progress(
      `gallery${sealed === undefined ? "" : ` (${sealed} set)`}: ${instructions.length} instructions on ${site.url} (seed ${options.seed})`,
    )
    const outcomes = await runGallery({
      base: site.url,
      instructions,
      ...(options.modes === undefined ? {} : { modes: options.modes }),
      progress: options.progress,
    })
    if (sealed !== undefined)
      return {
        sections: freshSections(outcomes, options.seed, sealed),
        outcomes,
        summary: {
          agent: freshSummary(outcomes, "agent", sealed),
          oneShot: freshSummary(outcomes, "oneShot", sealed),
        },
      }
    return {
      sections: gallerySections(outcomes, options.seed),
      outcomes,
      summary: { agent: gallerySummary(outcomes, "agent"), oneShot: gallerySummary(outcomes, "oneShot") },
    }
  } finally {
    await site.close()
  }
}
