import type { Missing, SextantSession } from "./Sextant.ts"

/**
 * Opens Sextant's WebdriverIO driver on the system Chromium, or says why it cannot be measured yet.
 */
export const openSextant = async (): Promise<
  (SextantSession & { readonly value: SextantSession }) | Missing
> => {
  const driver: Record<string, unknown> = await import("@sextant/webdriverio")
  if (typeof driver.launch !== "function") return { missing: "@sextant/webdriverio exports no launch() yet" }
  return { missing: "@sextant/webdriverio launch() is not wired into the bench yet" }
}
