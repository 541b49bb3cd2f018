import { hideUrlCredentials } from "@sextant/core"
import type { CreateAgentOptions } from "../createAgent.ts"

/** True for a PostgreSQL URL (`postgres://…` or `postgresql://…`): the store is then `@sextant/postgres`. */
export const isPostgresUrl = (value: string): boolean => /^postgres(ql)?:\/\//i.test(value.trim())

/**
 * The location as messages show it: a URL's password and its credential query parameters
 * (`?password=`) replaced by `***`, a path as it is.
 */
export const displayStore = (value: string): string => {
  if (!isPostgresUrl(value)) return value
  return URL.canParse(value.trim())
    ? hideUrlCredentials(value.trim())
    : "(a postgres:// URL that does not parse)"
}

/** `--store` or the config's `store` as createAgent's option: `:memory:`, a postgres:// URL, or a file. */
export const storeOption = (value: string): NonNullable<CreateAgentOptions["store"]> =>
  value === ":memory:" ? "memory" : isPostgresUrl(value) ? { url: value.trim() } : { path: value }

/**
 * What is wrong with `--store` (or the config's `store`), or undefined: a URL must be a PostgreSQL one
 * that parses and names a host; anything else is a file path.
 */
export const storeIssue = (value: string): string | undefined => {
  const trimmed = value.trim()
  if (isPostgresUrl(trimmed)) {
    const parsed = URL.canParse(trimmed) ? new URL(trimmed) : undefined
    return parsed === undefined || parsed.hostname === ""
      ? `${displayStore(trimmed)} is not a PostgreSQL URL: write it as postgres://user:password@host:5432/database`
      : undefined
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed))
    return `${trimmed.split("://")[0]}:// is not a store Sextant knows: give an SQLite file path or a postgres:// URL`
  return undefined
}
