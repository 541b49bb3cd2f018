import {
  actorScriptSource,
  foreignRuntimeMarker,
  pageHostCheck,
  pageScriptVersion,
} from "@sextant/perception"

/*
 * How the driver calls the actor (`@sextant/perception`'s `actorScriptSource`, installed as
 * `globalThis.__sextant.actor` before a page's own scripts or on first use) and the perception
 * runtime beside it, on the host `__sextant` a page cannot replace or patch.
 */

/** What the short call answers when the page has no actor or runtime yet (a document the preload script missed). */
export const missingMarker = "__sextant_missing__"

/**
 * What the installing call answers, at the start of the page scripts' own message, when the page's
 * `__sextant` is not one Sextant made: the driver fails the call with `ForeignPageRuntime`.
 */
export { foreignRuntimeMarker }

/**
 * The declaration sent on every call: short, so the page compiles it in microseconds. It calls
 * `__sextant.actor[method](...JSON.parse(argument))` and returns its JSON string, or the missing
 * marker when the document has no actor or no runtime yet, or a `__sextant` that is not a host Sextant
 * made (the installing call then says why).
 */
export const callActorDeclaration = `async function (method, argument) {
  const sextant = globalThis.__sextant
  if (!sextant || !sextant.actor || !(sextant.version >= ${pageScriptVersion}) || !${pageHostCheck}) return ${JSON.stringify(missingMarker)}
  return await sextant.actor[method](...JSON.parse(argument))
}`

/**
 * The declaration that installs the page script and the actor where missing, then makes the call:
 * used once per document the BiDi preload script did not reach (every document on a Classic-only
 * session). A `__sextant` the page made is never called: the page scripts throw, and this answers
 * their message, which starts with the foreign marker.
 */
export const installAndCallDeclaration = (
  pageScriptSource: string,
): string => `async function (method, argument) {
  try {
    if (!globalThis.__sextant || !${pageHostCheck} || !(globalThis.__sextant.version >= ${pageScriptVersion})) { ${pageScriptSource} }
    if (!globalThis.__sextant.actor) { ${actorScriptSource} }
  } catch (error) {
    const message = String((error && error.message) || error)
    if (message.startsWith(${JSON.stringify(foreignRuntimeMarker)})) return message
    throw error
  }
  return await globalThis.__sextant.actor[method](...JSON.parse(argument))
}`

export { actorScriptSource }
