import { secretPlaceholder } from "@sextant/core"
import type { ClientSession } from "./ClientSession.ts"

/**
 * Why a session runs no JavaScript of the client's (`eval`, a JavaScript condition of `wait`), or
 * undefined when it may. A session with secrets refuses it from its first call: a script can read a typed
 * secret and answer it in a spelling no redactor knows (reversed, as character codes, written into the
 * page for the next `look`), and a script run before the secret is typed can leave a listener that does
 * so as it is typed.
 */
export const clientScriptRefusal = (session: ClientSession, what: string): string | undefined => {
  const names = Object.keys(session.secrets)
  if (names.length === 0) return undefined
  const secrets = names.map(secretPlaceholder).join(", ")
  return `${what} was not run: this session holds ${secrets}, and JavaScript in the page could read a typed secret and answer it in a spelling no redaction catches; wait for a ref or a CSS selector instead, or start a server without --secret (option secrets) to run scripts`
}
