/**
 * What a thrown value says, in words, for a message a user reads: an `Error`'s message, a string as it
 * is, a plain object's own `message` (a tagged error of another copy of a library, a rejected fetch
 * body), and otherwise the object as JSON, cut to 300 characters (its `_tag` when JSON cannot write it).
 * A thrown plain object never reads `[object Object]`.
 *
 * @example
 * ```ts
 * import { causeMessage } from "@sextant/core"
 * causeMessage(new Error("socket hang up")) // "socket hang up"
 * causeMessage({ code: "E_BUSY", retry: false }) // '{"code":"E_BUSY","retry":false}'
 * ```
 */
export const causeMessage = (cause: unknown): string => {
  if (cause instanceof Error) return cause.message
  if (typeof cause === "string") return cause
  if (typeof cause === "object" && cause !== null) {
    const said = (cause as { readonly message?: unknown }).message
    if (typeof said === "string" && said !== "") return said
    const json = jsonOf(cause)
    if (json !== undefined) return json.length > 300 ? `${json.slice(0, 299)}…` : json
    const tag = (cause as { readonly _tag?: unknown })._tag
    return typeof tag === "string" ? tag : Object.prototype.toString.call(cause)
  }
  return String(cause)
}

const jsonOf = (value: object): string | undefined => {
  try {
    return JSON.stringify(value)
  } catch {
    return undefined
  }
}
