import { z } from "zod"

/** What a page is for, as the analysis classifies it. */
export const PageCategory = z.enum([
  "Login",
  "Registration",
  "Search",
  "Dashboard",
  "Settings",
  "Listing",
  "Detail",
  "Checkout",
  "Form",
  "Error",
  "Other",
])
export type PageCategory = z.output<typeof PageCategory>

/** The kind of value a form field takes. */
export const FieldType = z.enum([
  "text",
  "email",
  "password",
  "tel",
  "number",
  "date",
  "url",
  "search",
  "textarea",
  "select",
  "radio",
  "checkbox",
  "file",
])
export type FieldType = z.output<typeof FieldType>

/** What a form is for. */
export const FormPurpose = z.enum([
  "login",
  "registration",
  "search",
  "contact",
  "checkout",
  "settings",
  "other",
])
export type FormPurpose = z.output<typeof FormPurpose>

/**
 * How a test finds an element again: the role and accessible name it had (its semantic identity) and
 * the strongest CSS selector seen for it. Refs are never stored: they only live as long as a browser.
 */
export const Locator = z.object({
  role: z.string().min(1),
  name: z.string(),
  selector: z.string().min(1),
})
export type Locator = z.output<typeof Locator>

/** One field of a form. */
export const FormField = z.object({
  label: z.string(),
  fieldType: FieldType,
  required: z.boolean(),
  /** A value that makes the field valid, for generated tests; the first real option for a select. */
  suggestedValue: z.string(),
  locator: Locator,
  /** Options of a select or the choices of a radio group, as shown. */
  options: z.array(z.string()).optional(),
})
export type FormField = z.output<typeof FormField>

/** One form of a page. */
export const FormModel = z.object({
  purpose: FormPurpose,
  name: z.string(),
  fields: z.array(FormField),
  submitLabel: z.string().optional(),
  submit: Locator.optional(),
})
export type FormModel = z.output<typeof FormModel>

/** A same-origin link a user can follow from the page. */
export const NavigationTarget = z.object({
  name: z.string(),
  url: z.string(),
  locator: Locator.optional(),
})
export type NavigationTarget = z.output<typeof NavigationTarget>

/** A check a smoke test of the page can make. */
export const SuggestedAssertion = z.discriminatedUnion("type", [
  z.object({ type: z.literal("TitleContains"), text: z.string().min(1) }),
  z.object({ type: z.literal("TextPresent"), text: z.string().min(1) }),
  z.object({ type: z.literal("ElementVisible"), locator: Locator }),
])
export type SuggestedAssertion = z.output<typeof SuggestedAssertion>

/**
 * What a page is and offers, derived from its screen semantics: its purpose and category, its forms
 * with typed fields, the texts it shows, checks a test can make, and where it links to.
 */
export const PageModel = z.object({
  url: z.string(),
  title: z.string(),
  purpose: z.string(),
  category: PageCategory,
  forms: z.array(FormModel),
  outputs: z.array(z.string()),
  suggestedAssertions: z.array(SuggestedAssertion),
  navigationTargets: z.array(NavigationTarget),
  /** `rules` or `model`: which analyzer produced the model. */
  analyzer: z.enum(["rules", "model"]).default("rules"),
})
export type PageModel = z.output<typeof PageModel>
