import { Box, PageElement, PageRegion } from "@sextant/core"
import { z } from "zod"

/**
 * One element as the page script reports it: core's `PageElement` with the fields the script always
 * sends made required, so a page that answers less fails to parse instead of yielding gaps.
 */
export const RawElement = PageElement.extend({
  key: z.string(),
  attributes: z.record(z.string(), z.string()),
  box: Box,
  selectors: z.array(z.string()),
  region: PageRegion,
})
export type RawElement = z.output<typeof RawElement>

/**
 * One element as the page sends it, a row (see `packElement` in `../page/look.ts`), back as the
 * object {@link RawElement} reads; anything else is left as it is, for {@link RawElement} to judge.
 */
export const unpackElement = (row: unknown): unknown => {
  if (!Array.isArray(row)) return row
  const [ref, key, role, name, tag, attributes, visible, x, y, width, height, selectors, region, rest] = row
  return {
    ...(typeof rest === "object" && rest !== null && !Array.isArray(rest) ? rest : {}),
    ref,
    key,
    role,
    name,
    tag,
    attributes,
    visible: visible === 1 ? true : visible === 0 ? false : visible,
    box: { x, y, width, height },
    selectors,
    region,
  }
}

/** An element as a row or as an object, read as {@link RawElement}. */
const PackedElement = z.preprocess(unpackElement, RawElement)

/**
 * What `__sextant.look()` answers, as one JSON string: the rendered outline lines, the containers
 * that `within` can open (ref, label, first line, end line), the elements behind the refs, the forms,
 * and the text runs by region that screen semantics reads. Elements come as rows (`packElement`), or
 * as objects.
 */
export const RawSnapshot = z.object({
  v: z.number(),
  url: z.string(),
  title: z.string(),
  mode: z.enum(["full", "interactive"]),
  lines: z.array(z.string()),
  anchors: z.array(z.tuple([z.string(), z.string(), z.number(), z.number()])),
  elements: z.array(PackedElement),
  forms: z.array(
    z.object({
      key: z.string(),
      ref: z.string(),
      name: z.string(),
      fields: z.array(z.string()),
      submit: z.string().optional(),
    }),
  ),
  texts: z.array(
    z
      .tuple([PageRegion, z.string(), z.string()])
      .or(z.tuple([PageRegion, z.string(), z.string(), z.number()])),
  ),
  nodes: z.number(),
  ms: z.number(),
  scroll: z.object({ y: z.number(), height: z.number(), viewportHeight: z.number() }),
  stale: z.string().optional(),
})
export type RawSnapshot = z.output<typeof RawSnapshot>
