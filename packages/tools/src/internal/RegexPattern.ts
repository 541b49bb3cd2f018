import { z } from "zod"

const compiles = (pattern: string): boolean => {
  try {
    new RegExp(pattern)
    return true
  } catch {
    return false
  }
}

/** Tool input for a regular expression given as text: refused, with the field named, when it does not compile. */
export const RegexPattern = z
  .string()
  .min(1)
  .refine(compiles, "must be a valid JavaScript regular expression")
