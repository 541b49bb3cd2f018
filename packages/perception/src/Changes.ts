const REF = /\[ref=(e\d+)\]|^(e\d+) /

const refOf = (line: string): string | undefined => {
  const match = REF.exec(line)
  return match === null ? undefined : (match[1] ?? match[2])
}

const content = (line: string): string => line.trim().replace(/^- /, "")

/**
 * The lines of `after` that differ from `before`: `+ ` added, `~ ` changed (the same ref, another
 * line), `- ` removed. Lines with a ref are paired by ref, other lines by their text. An empty list
 * means nothing changed.
 *
 * @example
 * ```ts
 * import { diffOutlines } from "@sextant/perception"
 * diffOutlines('- textbox "Email" [ref=e1]', '- textbox "Email" [ref=e1]: a@b.c')
 * // ['~ textbox "Email" [ref=e1]: a@b.c']
 * ```
 */
export const diffOutlines = (before: string, after: string): Array<string> => {
  const beforeLines = before === "" ? [] : before.split("\n")
  const afterLines = after === "" ? [] : after.split("\n")
  const byRef = new Map<string, string>()
  const plain = new Map<string, number>()
  for (const line of beforeLines) {
    const ref = refOf(line)
    const text = content(line)
    if (ref !== undefined) byRef.set(ref, text)
    else plain.set(text, (plain.get(text) ?? 0) + 1)
  }
  const changes: Array<string> = []
  const seenRefs = new Set<string>()
  for (const line of afterLines) {
    const ref = refOf(line)
    const text = content(line)
    if (ref !== undefined) {
      seenRefs.add(ref)
      const previous = byRef.get(ref)
      if (previous === undefined) changes.push(`+ ${text}`)
      else if (previous !== text) changes.push(`~ ${text}`)
      continue
    }
    const left = plain.get(text) ?? 0
    if (left > 0) plain.set(text, left - 1)
    else changes.push(`+ ${text}`)
  }
  for (const [ref, text] of byRef) if (!seenRefs.has(ref)) changes.push(`- ${text}`)
  for (const [text, left] of plain) for (let index = 0; index < left; index++) changes.push(`- ${text}`)
  return changes
}
