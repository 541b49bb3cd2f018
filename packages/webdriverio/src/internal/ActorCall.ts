import { actorScriptSource, pageScriptVersion } from "@sextant/perception"

/*
 * How the driver calls the actor (`@sextant/perception`'s `actorScriptSource`, installed as
 * `globalThis.__sextant.actor` before a page's own scripts or on first use) and the perception
 * runtime beside it.
 */

/** What the short call answers when the page has no actor or runtime yet (a document the preload script missed). */
export const missingMarker = "__sextant_missing__"

/**
 * The declaration sent on every call: short, so the page compiles it in microseconds. It calls
 * `__sextant.actor[method](...JSON.parse(argument))` and returns its JSON string, or the missing
 * marker when the document has no actor or no runtime yet.
 */
export const callActorDeclaration = `async function (method, argument) {
  const sextant = globalThis.__sextant
  if (!sextant || !sextant.actor || !(sextant.version >= ${pageScriptVersion})) return ${JSON.stringify(missingMarker)}
  return await sextant.actor[method](...JSON.parse(argument))
}`

/**
 * The declaration that installs the page script and the actor where missing, then makes the call:
 * used once per document the BiDi preload script did not reach (every document on a Classic-only
 * session).
 */
export const installAndCallDeclaration = (
  pageScriptSource: string,
): string => `async function (method, argument) {
  if (!globalThis.__sextant || !(globalThis.__sextant.version >= ${pageScriptVersion})) { ${pageScriptSource} }
  if (!globalThis.__sextant.actor) { ${actorScriptSource} }
  return await globalThis.__sextant.actor[method](...JSON.parse(argument))
}`

export { actorScriptSource }
