import { findingWords, type PageElement, type PageForm, type PageSnapshot } from "@sextant/core"
import { KEYWORDS } from "./internal/Keywords.ts"
import { sealForms } from "./internal/Secrets.ts"
import type {
  FieldType,
  FormField,
  FormModel,
  FormPurpose,
  Locator,
  NavigationTarget,
  PageCategory,
  PageModel,
  SuggestedAssertion,
} from "./PageModel.ts"

/** Options of {@link analyzePage}. */
export interface AnalyzeOptions {
  /**
   * Values to suggest for fields, by label (case-insensitive), instead of the generated ones. A value
   * that lands in a password-like field (typed as a password, or `autocomplete` current-password,
   * new-password or one-time-code) is a secret: it is suggested as `<secret:LABEL>`, never in clear.
   */
  readonly values?: Readonly<Record<string, string>> | undefined
  /** Values that are secrets wherever they land, by label: always suggested as `<secret:LABEL>`. */
  readonly secretValues?: Readonly<Record<string, string>> | undefined
}

/** The locator of an element: its role and name, and the strongest selector seen for it. */
export const locatorOf = (element: PageElement): Locator | undefined => {
  const selector = element.selectors[0]
  if (selector === undefined || element.frame.length > 0) return undefined
  return { role: element.role, name: element.name, selector }
}

const cleanLabel = (label: string): string =>
  label
    .replace(/\s*[(（](optional|required|选填|可选|必填)[)）]\s*/gi, " ")
    .replace(/\s*[*＊:：]\s*$/, "")
    .trim()

const INPUT_TYPES: Readonly<Record<string, FieldType>> = {
  email: "email",
  password: "password",
  tel: "tel",
  number: "number",
  range: "number",
  date: "date",
  "datetime-local": "date",
  month: "date",
  url: "url",
  search: "search",
  file: "file",
  checkbox: "checkbox",
  radio: "radio",
}

/** The field type from the input type first, then the role, then the label's words. */
export const fieldTypeOf = (element: PageElement): FieldType => {
  const type = element.attributes.type?.toLowerCase()
  const byType = type === undefined ? undefined : INPUT_TYPES[type]
  if (byType !== undefined) return byType
  if (element.tag === "textarea") return "textarea"
  if (element.tag === "select") return "select"
  if (element.role === "checkbox" || element.role === "switch") return "checkbox"
  if (element.role === "radio") return "radio"
  if (element.role === "searchbox") return "search"
  const label = `${element.name} ${element.attributes.name ?? ""} ${element.attributes.placeholder ?? ""}`
  if (KEYWORDS.password.test(label)) return "password"
  if (KEYWORDS.email.test(label)) return "email"
  if (KEYWORDS.phone.test(label)) return "tel"
  if (KEYWORDS.date.test(label)) return "date"
  if (KEYWORDS.url.test(label)) return "url"
  return "text"
}

const suggestValue = (type: FieldType, label: string, options: ReadonlyArray<string>): string => {
  switch (type) {
    case "email":
      return "test@example.com"
    case "password":
      return "Sextant-Test-1"
    case "tel":
      return "+1 555 0100"
    case "number":
      return "1"
    case "date":
      return "2026-01-15"
    case "url":
      return "https://example.com"
    case "search":
      return "test"
    case "textarea":
      return "Hello, this is a test message sent by Sextant."
    case "select":
    case "radio":
      return options[0] ?? ""
    case "checkbox":
      return "true"
    case "file":
      return ""
    case "text":
      if (KEYWORDS.username.test(label)) return "test-user"
      if (KEYWORDS.name.test(label)) return "Ada Lovelace"
      if (KEYWORDS.search.test(label)) return "test"
      if (KEYWORDS.message.test(label)) return "Hello, this is a test message sent by Sextant."
      return "test"
  }
}

/** A select's options without its placeholder ("Choose a topic", "请选择", an empty first option). */
const realOptions = (element: PageElement): Array<string> =>
  (element.options ?? []).filter(
    (option, index) =>
      !(index === 0 && (option.trim() === "" || /^(choose|select|pick|-+|请选择|选择)/i.test(option))),
  )

const radioGroupOf = (element: PageElement): string =>
  /radiogroup:([^/|]*)/.exec(element.key ?? "")?.[1] ?? element.attributes.name ?? element.name

const isSubmitLike = (element: PageElement): boolean =>
  element.role === "button" && element.attributes.type !== "file"

const fieldsOf = (
  snapshot: PageSnapshot,
  form: PageForm,
  values: Readonly<Record<string, string>>,
): Array<FormField> => {
  const elements = form.fields
    .filter((ref) => ref !== form.submit)
    .map((ref) => snapshot.elements[ref])
    .filter((element): element is PageElement => element !== undefined && !isSubmitLike(element))
  const anyOptional = elements.some((element) => KEYWORDS.optional.test(element.name))
  const fields: Array<FormField> = []
  const radioGroups = new Map<string, Array<PageElement>>()
  for (const element of elements) {
    const type = fieldTypeOf(element)
    if (type === "radio") {
      const group = radioGroupOf(element)
      const members = radioGroups.get(group)
      if (members === undefined) radioGroups.set(group, [element])
      else {
        members.push(element)
        continue
      }
    }
    const locator = locatorOf(element)
    if (locator === undefined) continue
    const label = type === "radio" ? radioGroupOf(element) : cleanLabel(element.name)
    const markedRequired =
      element.required === true || KEYWORDS.required.test(element.name) || /[*＊]\s*$/.test(element.name)
    const required =
      markedRequired ||
      (anyOptional && !KEYWORDS.optional.test(element.name) && type !== "checkbox" && type !== "file")
    fields.push({
      label,
      fieldType: type,
      required,
      suggestedValue: "",
      locator,
      ...(type === "select" ? { options: realOptions(element) } : {}),
    })
  }
  return fields.map((field) => {
    const options =
      field.fieldType === "radio"
        ? (radioGroups.get(field.label) ?? []).map((member) => member.name)
        : (field.options ?? [])
    const given = Object.entries(values).find(
      ([label]) => label.toLowerCase() === field.label.toLowerCase(),
    )?.[1]
    const suggestedValue = given ?? suggestValue(field.fieldType, field.label, options)
    // A radio group is filled by clicking the chosen radio, so its locator is that radio's.
    const chosen = radioGroups.get(field.label)?.find((member) => member.name === suggestedValue)
    const chosenLocator = field.fieldType === "radio" && chosen !== undefined ? locatorOf(chosen) : undefined
    return {
      ...field,
      ...(field.fieldType === "radio" ? { options } : {}),
      ...(chosenLocator === undefined ? {} : { locator: chosenLocator }),
      suggestedValue,
    }
  })
}

const formPurposeOf = (
  form: PageForm,
  fields: ReadonlyArray<FormField>,
  submitLabel: string,
): FormPurpose => {
  const words = `${form.name} ${submitLabel}`
  const passwords = fields.filter((field) => field.fieldType === "password")
  const labels = fields.map((field) => field.label).join(" ")
  if (
    passwords.length >= 2 ||
    KEYWORDS.registration.test(words) ||
    (passwords.length === 1 && KEYWORDS.confirm.test(labels))
  )
    return "registration"
  if (passwords.length === 1 || KEYWORDS.login.test(words)) return "login"
  if (
    form.key.startsWith("search|") ||
    fields.some((field) => field.fieldType === "search") ||
    KEYWORDS.search.test(words)
  )
    return "search"
  if (KEYWORDS.checkout.test(`${words} ${labels}`)) return "checkout"
  if (KEYWORDS.settings.test(words)) return "settings"
  if (KEYWORDS.contact.test(words) || fields.some((field) => field.fieldType === "textarea")) return "contact"
  return "other"
}

const formsOf = (snapshot: PageSnapshot, values: Readonly<Record<string, string>>): Array<FormModel> =>
  snapshot.forms.flatMap((form) => {
    const fields = fieldsOf(snapshot, form, values)
    if (fields.length === 0) return []
    const submitElement = form.submit === undefined ? undefined : snapshot.elements[form.submit]
    const submit = submitElement === undefined ? undefined : locatorOf(submitElement)
    const submitLabel = submitElement?.name ?? ""
    return [
      {
        purpose: formPurposeOf(form, fields, submitLabel),
        name: form.name,
        fields,
        ...(submitElement === undefined ? {} : { submitLabel }),
        ...(submit === undefined ? {} : { submit }),
      },
    ]
  })

const headingsOf = (snapshot: PageSnapshot): Array<string> =>
  snapshot.outputs
    .filter((output) => output.region === "main" && output.key.split(":")[1] === "heading")
    .map((output) => output.text)

/** The page title without the site name after a separator ("Sign in · Sextant Shop" → "Sign in"). */
const pageTitle = (title: string): string => title.split(/\s+[·|–—-]\s+/)[0]?.trim() ?? title

const sameOrigin = (href: string, base: string): string | undefined => {
  try {
    const url = new URL(href, base)
    if (url.origin !== new URL(base).origin) return undefined
    url.hash = ""
    return url.href
  } catch {
    return undefined
  }
}

const navigationTargetsOf = (snapshot: PageSnapshot): Array<NavigationTarget> => {
  const seen = new Set<string>()
  const targets: Array<NavigationTarget> = []
  for (const element of Object.values(snapshot.elements)) {
    const href = element.attributes.href
    if (element.role !== "link" || href === undefined || element.frame.length > 0) continue
    const url = sameOrigin(href, snapshot.url)
    if (url === undefined || seen.has(url)) continue
    seen.add(url)
    const locator = locatorOf(element)
    // A link with no name is listed by the words guessed for it (`(href orders)`), as before it had a mark.
    targets.push({ name: findingWords(element), url, ...(locator === undefined ? {} : { locator }) })
  }
  return targets
}

const categoryOf = (
  snapshot: PageSnapshot,
  forms: ReadonlyArray<FormModel>,
  headings: ReadonlyArray<string>,
): PageCategory => {
  const words = [pageTitle(snapshot.title), ...headings.slice(0, 2)].join(" ")
  const purposes = new Set(forms.map((form) => form.purpose))
  if (KEYWORDS.error.test(words) && forms.length === 0) return "Error"
  if (purposes.has("registration")) return "Registration"
  if (purposes.has("login")) return "Login"
  if (purposes.has("checkout")) return "Checkout"
  if (purposes.has("search") && (KEYWORDS.search.test(words) || forms.length === 1)) return "Search"
  if (KEYWORDS.settings.test(words)) return "Settings"
  if (KEYWORDS.dashboard.test(words)) return "Dashboard"
  const actions = Object.values(snapshot.elements)
    .filter((element) => element.region === "main" && element.role === "button")
    .map((element) => element.name)
    .join(" ")
  if (KEYWORDS.detail.test(actions)) return "Detail"
  const counted = snapshot.outputs.filter((output) => output.region === "results" && (output.count ?? 0) >= 3)
  const paged = Object.values(snapshot.elements).some((element) => element.attributes.rel === "next")
  if (counted.length > 0 || paged) return "Listing"
  if (forms.some((form) => form.fields.length >= 2)) return "Form"
  return "Other"
}

const PURPOSES: Readonly<Record<PageCategory, string>> = {
  Login: "Sign in to an account",
  Registration: "Create an account",
  Search: "Search the site",
  Dashboard: "Show the signed-in user's overview",
  Settings: "Change settings",
  Listing: "List items to browse",
  Detail: "Show one item's details",
  Checkout: "Pay for an order",
  Form: "Send information through a form",
  Error: "Report an error",
  Other: "Show content",
}

const assertionsOf = (
  snapshot: PageSnapshot,
  forms: ReadonlyArray<FormModel>,
  headings: ReadonlyArray<string>,
): Array<SuggestedAssertion> => {
  const assertions: Array<SuggestedAssertion> = []
  const title = pageTitle(snapshot.title)
  if (title !== "") assertions.push({ type: "TitleContains", text: title })
  const heading = headings[0]
  if (heading !== undefined && heading !== "") assertions.push({ type: "TextPresent", text: heading })
  for (const form of forms)
    if (form.submit !== undefined) assertions.push({ type: "ElementVisible", locator: form.submit })
  return assertions
}

/**
 * The rule analysis of a page: forms with typed fields (input type, role, then label words in English
 * and Chinese), their purpose, the page's category, the texts it shows, assertions a smoke test can
 * make and the same-origin links it offers. Pure: no browser, no model. A secret value (one of
 * `secretValues`, or one of `values` for a password-like field) is suggested as its placeholder
 * `<secret:LABEL>`, so the model never holds it.
 *
 * @example
 * ```ts
 * import { analyzePage } from "@sextant/explorer"
 * const model = analyzePage(snapshot)
 * model.category // "Login"
 * model.forms[0]?.fields.map((field) => field.fieldType) // ["email", "password"]
 * ```
 */
export const analyzePage = (snapshot: PageSnapshot, options: AnalyzeOptions = {}): PageModel => {
  const values = options.values ?? {}
  const secretValues = options.secretValues ?? {}
  const forms = sealForms(formsOf(snapshot, { ...values, ...secretValues }), snapshot, {
    values,
    secretValues,
  })
  const headings = headingsOf(snapshot)
  const category = categoryOf(snapshot, forms, headings)
  const outputs = [
    ...new Set(
      snapshot.outputs
        .filter(
          (output) => output.region === "main" || output.region === "results" || output.region === "alert",
        )
        .map((output) => output.text)
        .filter((text) => text.trim() !== ""),
    ),
  ]
  return {
    url: snapshot.url,
    title: snapshot.title,
    purpose: headings[0] === undefined ? PURPOSES[category] : `${PURPOSES[category]}: ${headings[0]}`,
    category,
    forms,
    outputs,
    suggestedAssertions: assertionsOf(snapshot, forms, headings),
    navigationTargets: navigationTargetsOf(snapshot),
    analyzer: "rules",
  }
}
