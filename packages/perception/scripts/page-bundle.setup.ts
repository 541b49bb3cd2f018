import { ensurePageBundle } from "./bundle-page.ts"

/**
 * Vitest global setup (every project, through `vitest.shared.ts`): generates perception's page-script
 * bundle, or regenerates it when `src/page/` changed since it was written, before any test imports it.
 */
export default async (): Promise<void> => {
  await ensurePageBundle()
}
