import { isCredentialParameter, type PageElement, type PageSnapshot } from "@sextant/core"
import type { FormField, FormModel } from "../PageModel.ts"
import { KEYWORDS } from "./Keywords.ts"

/** Autocomplete tokens that mark a field as taking a secret. */
const SECRET_AUTOCOMPLETE = /(?:^|\s)(?:current-password|new-password|one-time-code)(?:\s|$)/i

/** Field types a secret can be typed into; a choice (select, radio, checkbox) or a file is never one. */
const TYPED = new Set<FormField["fieldType"]>([
  "text",
  "email",
  "password",
  "tel",
  "number",
  "date",
  "url",
  "search",
  "textarea",
])

const PLACEHOLDER = /^<secret:([A-Za-z0-9_.-]+)>$/

/** The name a value given for `label` has in its placeholder: `Password`, `One-time_code`. */
export const secretName = (label: string): string =>
  label.trim().replace(/[^A-Za-z0-9_.-]+/g, "_") || "secret"

/** The placeholder a secret given for `label` is stored as: `<secret:Password>`. */
export const secretPlaceholder = (label: string): string => `<secret:${secretName(label)}>`

/** The secret's name when a whole value is a placeholder, else undefined. */
export const placeholderName = (value: string): string | undefined => PLACEHOLDER.exec(value)?.[1]

/** A field that takes a secret by its nature: typed as a password, or `autocomplete` current-password, new-password or one-time-code. */
export const isPasswordLike = (
  fieldType: FormField["fieldType"],
  element: PageElement | undefined,
): boolean =>
  fieldType === "password" ||
  element?.attributes.type?.toLowerCase() === "password" ||
  SECRET_AUTOCOMPLETE.test(element?.attributes.autocomplete ?? "")

/**
 * Whether a label names a credential: a password (`Password`, `Passcode`, `密码`) or what core's
 * `isCredentialParameter` reads as one (`API key`, `Access token`, `Client secret`). A value given for
 * such a label is a secret wherever it lands, as one for a password-like field is.
 */
export const namesCredential = (label: string): boolean =>
  KEYWORDS.password.test(label) || isCredentialParameter(label)

const entryFor = (
  record: Readonly<Record<string, string>>,
  label: string,
): readonly [string, string] | undefined =>
  Object.entries(record).find(([key]) => key.toLowerCase() === label.toLowerCase())

/** The values the user gave, and the ones they marked secret, by label. */
export interface GivenValues {
  readonly values: Readonly<Record<string, string>>
  readonly secretValues: Readonly<Record<string, string>>
}

/**
 * A field with its suggested value replaced by the placeholder when the value is a secret: a value
 * marked secret (wherever it lands), a given value that fills a password-like field, or one given for a
 * label that names a credential ({@link namesCredential}).
 */
export const sealField = (
  field: FormField,
  element: PageElement | undefined,
  given: GivenValues,
): FormField => {
  const value = field.suggestedValue
  if (value === "" || !TYPED.has(field.fieldType) || placeholderName(value) !== undefined) return field
  const marked =
    entryFor(given.secretValues, field.label) ??
    Object.entries(given.secretValues).find(([, secret]) => secret === value)
  if (marked !== undefined && marked[1] === value)
    return { ...field, suggestedValue: secretPlaceholder(marked[0]) }
  const plain = entryFor(given.values, field.label)
  if (
    plain !== undefined &&
    plain[1] === value &&
    (isPasswordLike(field.fieldType, element) || namesCredential(plain[0]))
  )
    return { ...field, suggestedValue: secretPlaceholder(plain[0]) }
  return field
}

/** The element a field's locator was taken from, in the top document. */
export const elementOfField = (snapshot: PageSnapshot, field: FormField): PageElement | undefined =>
  Object.values(snapshot.elements).find(
    (element) => element.frame.length === 0 && element.selectors[0] === field.locator.selector,
  )

/** Every form of a model with its secret values sealed as placeholders (see {@link sealField}). */
export const sealForms = (
  forms: ReadonlyArray<FormModel>,
  snapshot: PageSnapshot,
  given: GivenValues,
): Array<FormModel> =>
  forms.map((form) => ({
    ...form,
    fields: form.fields.map((field) => sealField(field, elementOfField(snapshot, field), given)),
  }))
