import type { Command } from "./Command.ts"
import type { Lexicon, SlotType, Template, Verb } from "./lang/Lexicon.ts"
import type { Token } from "./Tokenizer.ts"

/**
 * Sentence templates (see `Template` in `lang/Lexicon.ts`) compiled to token patterns, and the matcher:
 * a clause matches a template when the whole clause fits one sentence; each slot takes a run of tokens,
 * which the grammar's slot fillers turn into a value (a target phrase, a literal, a number …) or refuse.
 */

type Node =
  | { readonly word: string }
  | {
      readonly alt: ReadonlyArray<ReadonlyArray<Node>>
      readonly atomic?: true
      /** `<click:verb>`: the field the verb's words fill, read as an `action`. */
      readonly slot?: string
      readonly type?: SlotType
    }
  | { readonly optional: ReadonlyArray<Node> }
  | { readonly slot: string; readonly type: SlotType }

/** The type of a slot named without one, by its name (the command field it fills). */
const SLOT_TYPES: Readonly<Record<string, SlotType>> = {
  target: "target",
  field: "target",
  source: "target",
  within: "target",
  form: "target",
  list: "target",
  container: "container",
  value: "value",
  text: "value",
  query: "value",
  key: "key",
  count: "quantity",
  ordinal: "ordinal",
  referent: "reference",
}

/**
 * Turns a run of tokens into a slot's value, or undefined when the tokens cannot be one, or null when
 * they are read and carry nothing.
 */
export type SlotFiller = (type: SlotType, tokens: ReadonlyArray<Token>) => unknown

interface Compiled {
  readonly template: Template
  readonly verbs: ReadonlySet<Verb>
  readonly nodes: ReadonlyArray<Node>
}

const compile = (sentence: string, lexicon: Lexicon, verbs: Set<Verb>): ReadonlyArray<Node> => {
  let position = 0
  const sequence = (until: string): Array<Array<Node>> => {
    const options: Array<Array<Node>> = [[]]
    let word = ""
    const flush = () => {
      if (word !== "") options.at(-1)!.push({ word: word.toLowerCase() })
      word = ""
    }
    while (position < sentence.length) {
      const character = sentence[position++]!
      if (until.includes(character)) break
      if (character === " ") flush()
      else if (character === "|") {
        flush()
        options.push([])
      } else if (character === "(") {
        flush()
        options.at(-1)!.push({ alt: sequence(")") })
      } else if (character === "[") {
        flush()
        options.at(-1)!.push({ optional: [{ alt: sequence("]") }] })
      } else if (character === "{" || character === "<") {
        flush()
        const end = sentence.indexOf(character === "{" ? "}" : ">", position)
        const name = sentence.slice(position, end)
        position = end + 1
        if (character === "{") {
          const [slot, type] = name.split(":") as [string, SlotType | undefined]
          options.at(-1)!.push({ slot, type: type ?? SLOT_TYPES[slot] ?? "value" })
        } else {
          const [verb, field] = name.split(":") as [Verb, string | undefined]
          const phrases = lexicon.verbs[verb] ?? []
          verbs.add(verb)
          // A verb is its longest phrase that fits, as the clause splitter read it ("search for", not "search").
          const words = phrases.map((phrase) =>
            phrase.split(" ").map((part) => ({ word: part.toLowerCase() })),
          )
          const alt = words.toSorted((left, right) => right.length - left.length)
          options
            .at(-1)!
            .push(
              field === undefined
                ? { alt, atomic: true }
                : { alt, atomic: true, slot: field, type: "action" },
            )
        }
      } else word += character
    }
    flush()
    return options
  }
  return [{ alt: sequence("") }]
}

/** Every template of the languages, compiled once. */
export const compileTemplates = (languages: ReadonlyArray<Lexicon>): ReadonlyArray<Compiled> =>
  languages.flatMap((lexicon) =>
    lexicon.templates.flatMap((template) =>
      template.sentences.map((sentence) => {
        const verbs = new Set<Verb>()
        const nodes = compile(sentence, lexicon, verbs)
        if (template.verb !== undefined) verbs.add(template.verb)
        return { template, verbs, nodes }
      }),
    ),
  )

const matchNodes = (
  nodes: ReadonlyArray<Node>,
  tokens: ReadonlyArray<Token>,
  at: number,
  slots: Record<string, ReadonlyArray<Token>>,
  done: (at: number) => boolean,
): boolean => {
  if (nodes.length === 0) return done(at)
  const [node, ...rest] = nodes as [Node, ...Array<Node>]
  if ("word" in node) {
    const token = tokens[at]
    return token !== undefined && token.kind !== "quoted" && token.value === node.word
      ? matchNodes(rest, tokens, at + 1, slots, done)
      : false
  }
  if ("alt" in node && node.atomic === true) {
    const option = node.alt.find((words) =>
      words.every((word, offset) => "word" in word && tokens[at + offset]?.value === word.word),
    )
    if (option === undefined) return false
    if (node.slot !== undefined) slots[node.slot] = tokens.slice(at, at + option.length)
    if (matchNodes(rest, tokens, at + option.length, slots, done)) return true
    if (node.slot !== undefined) delete slots[node.slot]
    return false
  }
  if ("alt" in node)
    return node.alt.some((option) => matchNodes([...option, ...rest], tokens, at, slots, done))
  if ("optional" in node)
    return (
      matchNodes([...node.optional, ...rest], tokens, at, slots, done) ||
      matchNodes(rest, tokens, at, slots, done)
    )
  // A slot takes one token or more, the longest run first; words only read ("_…") and a slot right
  // before another slot or a verb take the shortest first (the verb is the first one, as the clause
  // splitter read it).
  const ends = Array.from({ length: tokens.length - at }, (_, index) => tokens.length - index)
  const next = rest[0]
  const fewest =
    node.slot.startsWith("_") ||
    (next !== undefined &&
      (("slot" in next && !("alt" in next)) || ("atomic" in next && next.atomic === true)))
  for (const end of fewest ? ends.toReversed() : ends) {
    slots[node.slot] = tokens.slice(at, end)
    if (matchNodes(rest, tokens, end, slots, done)) return true
  }
  delete slots[node.slot]
  return false
}

/**
 * The commands of the first template of `verb` that the whole clause fits, with every slot filled (one
 * command, or one per item of its `each` slot), or undefined. `tokens` are the clause's tokens,
 * starting with its verb.
 */
export const matchTemplates = (
  templates: ReadonlyArray<Compiled>,
  verb: Verb,
  tokens: ReadonlyArray<Token>,
  fill: SlotFiller,
): ReadonlyArray<Command> | undefined => {
  for (const { template, verbs, nodes } of templates) {
    if (!verbs.has(verb)) continue
    let command: Record<string, unknown> | undefined
    const slots: Record<string, ReadonlyArray<Token>> = {}
    matchNodes(nodes, tokens, 0, slots, (at) => {
      if (at !== tokens.length) return false
      const filled: Record<string, unknown> = { kind: template.kind, ...template.fixed }
      // "field.container" fills the container of the field slot: after the slot it belongs to.
      const entries = Object.entries(slots).toSorted(
        ([left], [right]) => Number(left.includes(".")) - Number(right.includes(".")),
      )
      for (const [name, span] of entries) {
        const node = findSlot(nodes, name)
        const value = fill(node?.type ?? "value", span)
        if (value === undefined) return false
        // null: the words were read and say nothing more ("click" as an `action`).
        if (value === null) continue
        // A reference, or a slot named "_…", is read but carries nothing into the command.
        if (node?.type === "reference" || name.startsWith("_")) continue
        // "{*:choice}" gives the command the fields of its value.
        if (name === "*") {
          Object.assign(filled, value)
          continue
        }
        const [head, inner] = name.split(".") as [string, string | undefined]
        const own =
          template.defaults?.[head] === undefined
            ? value
            : { ...template.defaults[head], ...(value as object) }
        filled[head] = inner === undefined ? own : { ...(filled[head] as object), [inner]: value }
      }
      command = filled
      return true
    })
    const found: Record<string, unknown> | undefined = command
    if (found === undefined) continue
    const repeat = template.repeat
    if (repeat !== undefined && typeof found[repeat] === "number") {
      const { [repeat]: times, ...once } = found
      return Array.from({ length: times as number }, () => once as unknown as Command)
    }
    const each = template.each
    if (each === undefined) return [found as unknown as Command]
    return (found[each] as ReadonlyArray<unknown>).map(
      (item) => ({ ...found, [each]: item }) as unknown as Command,
    )
  }
  return undefined
}

type SlotNode = { readonly slot?: string; readonly type?: SlotType }

const findSlot = (nodes: ReadonlyArray<Node>, name: string): SlotNode | undefined => {
  for (const node of nodes) {
    if ("slot" in node && node.slot === name) return node
    const inner =
      "alt" in node
        ? node.alt.map((option) => findSlot(option, name)).find((found) => found !== undefined)
        : "optional" in node
          ? findSlot(node.optional, name)
          : undefined
    if (inner !== undefined) return inner
  }
  return undefined
}
