import { createHash } from "node:crypto"
import { BrowserDriver, type DriverError, type PageSnapshot, TaskConstraints } from "@sextant/core"
import { defaultBlockedPatterns, makeGuardrails } from "@sextant/executor"
import { diffScreens } from "@sextant/perception"
import { Clock, Effect } from "effect"
import type { AppMap, AppPage, FormOutcome, SkippedUrl, Transition } from "./AppMap.ts"
import { fillField, fillsField } from "./internal/Fill.ts"
import { analyzePage } from "./PageAnalysis.ts"
import type { FormModel, PageModel } from "./PageModel.ts"

/** What the explorer reports as it goes. */
export type ExploreEvent =
  | { readonly type: "page-visit"; readonly url: string; readonly depth: number }
  | {
      readonly type: "page-found"
      readonly id: string
      readonly url: string
      readonly category: string
      readonly title: string
    }
  | { readonly type: "page-same"; readonly url: string; readonly id: string }
  | { readonly type: "url-skip"; readonly url: string; readonly reason: string }
  | {
      readonly type: "form-submit"
      readonly id: string
      readonly form: string
      readonly variant: FormOutcome["variant"]
      readonly url: string
    }
  | {
      readonly type: "explore-end"
      readonly pages: number
      readonly transitions: number
      readonly visits: number
    }

/** Limits and choices of {@link explore}; each has a default. */
export interface ExploreOptions {
  /** Stop after this many distinct pages. Default 30. */
  readonly maxPages?: number | undefined
  /** Follow links at most this many clicks from the start page. Default 3. */
  readonly maxDepth?: number | undefined
  /** Load at most this many URLs in all, duplicates included. Default 4 × `maxPages`. */
  readonly maxVisits?: number | undefined
  /** Load at most this many URLs of one path pattern (`/products/:n`, `/products?page`). Default 3. */
  readonly maxPerPattern?: number | undefined
  /** Only URLs matching one of these (regular expression sources) are loaded; the start URL always is. */
  readonly allow?: ReadonlyArray<string> | undefined
  /** URLs matching one of these are never loaded, besides the guardrails' blocked patterns. */
  readonly deny?: ReadonlyArray<string> | undefined
  /** Origins that may be loaded besides the start URL's. Default: the start origin only. */
  readonly allowedOrigins?: ReadonlyArray<string> | undefined
  /** Fill and submit each form with its suggested values, once valid and once with a required field empty. Default false. */
  readonly submitForms?: boolean | undefined
  /** Values for fields by label, instead of the suggested ones (credentials, a search term that finds something). */
  readonly values?: Readonly<Record<string, string>> | undefined
  /** Analyse a snapshot another way (with a model, say); default the rules of `analyzePage`. */
  readonly analyze?: ((snapshot: PageSnapshot) => Effect.Effect<PageModel, never, never>) | undefined
  /** Progress, as it happens. */
  readonly onEvent?: ((event: ExploreEvent) => void) | undefined
}

const bucket = (count: number): string => (count <= 1 ? String(count) : count < 5 ? "few" : "many")

const pathPattern = (url: string): string => urlPattern(url).split("?")[0] ?? url

/**
 * The semantic fingerprint of a page: the path pattern it landed on (numeric segments as `:n`, no
 * query), its category, its forms (purpose and field types) and the
 * shape of its interactive elements by role and region (counts bucketed), ignoring the texts that
 * differ between items of one kind. Two URLs with equal fingerprints show the same page: `/dashboard`
 * that redirects to `/login`, `/products?page=2` and `/products`, `/products/1` and `/products/2`.
 *
 * @example
 * ```ts
 * import { analyzePage, pageFingerprint } from "@sextant/explorer"
 * pageFingerprint(first, analyzePage(first)) === pageFingerprint(second, analyzePage(second))
 * ```
 */
export const pageFingerprint = (snapshot: PageSnapshot, model: PageModel): string => {
  const counts = new Map<string, number>()
  for (const element of Object.values(snapshot.elements)) {
    const key = `${element.role}@${element.frame.length > 0 ? "frame" : (element.region ?? "main")}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const shape = [...counts.entries()].map(([key, count]) => `${key}:${bucket(count)}`).sort()
  const forms = model.forms
    .map((form) => `${form.purpose}(${form.fields.map((field) => field.fieldType).join(",")})`)
    .sort()
  const text = [pathPattern(snapshot.url), model.category, ...forms, ...shape].join("\n")
  return createHash("sha256").update(text).digest("hex").slice(0, 16)
}

/** The path pattern of a URL: numeric segments as `:n`, query values dropped. */
export const urlPattern = (url: string): string => {
  try {
    const parsed = new URL(url)
    const path = parsed.pathname.replace(/\/\d+(?=\/|$)/g, "/:n")
    const keys = [...new Set(parsed.searchParams.keys())].sort()
    return keys.length === 0 ? path : `${path}?${keys.join("&")}`
  } catch {
    return url
  }
}

const withoutHash = (url: string): string => {
  try {
    const parsed = new URL(url)
    parsed.hash = ""
    return parsed.href
  } catch {
    return url
  }
}

interface QueueItem {
  readonly url: string
  readonly depth: number
  readonly from?: string | undefined
  readonly label?: string | undefined
  readonly locator?: Transition["locator"] | undefined
}

const MAIN_TEXT_REGIONS = new Set(["main", "results", "alert"])

/**
 * Explores a web app breadth-first from `startUrl` through the `BrowserDriver`: loads each same-origin
 * link within the limits (pages, depth, visits, per-pattern, allow/deny, the executor's guardrails),
 * analyses each page, merges URLs that show the same page by semantic fingerprint, and records the
 * transitions between pages. With `submitForms` it also fills and submits each form and records what
 * happened. A URL that fails to load is listed in `skipped` with the reason; the exploration goes on.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { explore, appMapToMermaid } from "@sextant/explorer"
 * const map = yield* explore("http://127.0.0.1:4000/", { maxPages: 20, onEvent: console.log })
 * console.log(appMapToMermaid(map))
 * ```
 */
export const explore = Effect.fn("Explorer.explore")(function* (
  startUrl: string,
  options: ExploreOptions = {},
): Effect.fn.Return<AppMap, DriverError, BrowserDriver> {
  const driver = yield* BrowserDriver
  const maxPages = options.maxPages ?? 30
  const maxDepth = options.maxDepth ?? 3
  const maxVisits = options.maxVisits ?? maxPages * 4
  const maxPerPattern = options.maxPerPattern ?? 3
  const allow = (options.allow ?? []).map((source) => new RegExp(source, "i"))
  const deny = [...defaultBlockedPatterns, ...(options.deny ?? [])].map((source) => ({
    source,
    pattern: new RegExp(source, "i"),
  }))
  const guardrails = makeGuardrails({
    startUrl,
    constraints: TaskConstraints.parse({
      ...(options.allowedOrigins === undefined
        ? {}
        : { allowedOrigins: [new URL(startUrl).origin, ...options.allowedOrigins] }),
    }),
  })
  const emit = options.onEvent ?? (() => undefined)
  const analyze =
    options.analyze ??
    ((snapshot: PageSnapshot) => Effect.succeed(analyzePage(snapshot, { values: options.values })))

  const pages: Array<AppPage> = []
  const byFingerprint = new Map<string, AppPage>()
  const transitions: Array<Transition> = []
  const skipped: Array<SkippedUrl> = []
  const queued = new Set<string>()
  const perPattern = new Map<string, number>()
  let visits = 0

  const skip = (url: string, reason: string) => {
    skipped.push({ url, reason })
    emit({ type: "url-skip", url, reason })
  }

  const refusal = (url: string): string | undefined => {
    if (url === withoutHash(startUrl)) return undefined
    const guardrail = guardrails.checkUrl(url)
    if (guardrail !== undefined) return guardrail.message
    const denied = deny.find(({ pattern }) => pattern.test(url))
    if (denied !== undefined) return `matches the deny pattern ${JSON.stringify(denied.source)}`
    if (allow.length > 0 && !allow.some((pattern) => pattern.test(url))) return "matches no allow pattern"
    return undefined
  }

  /** Adds the page a snapshot shows, or finds it again; returns it and whether it is new. */
  const record = Effect.fnUntraced(function* (snapshot: PageSnapshot, depth: number, requested: string) {
    const model = yield* analyze(snapshot)
    const fingerprint = pageFingerprint(snapshot, model)
    const known = byFingerprint.get(fingerprint)
    if (known !== undefined) {
      const url = withoutHash(snapshot.url)
      for (const alias of [requested, url])
        if (alias !== known.url && !known.aliases.includes(alias)) known.aliases.push(alias)
      emit({ type: "page-same", url: requested, id: known.id })
      return { page: known, added: false }
    }
    const page: AppPage = {
      id: `p${pages.length}`,
      fingerprint,
      url: withoutHash(snapshot.url),
      aliases: requested === withoutHash(snapshot.url) ? [] : [requested],
      depth,
      model,
      formOutcomes: {},
    }
    pages.push(page)
    byFingerprint.set(fingerprint, page)
    emit({ type: "page-found", id: page.id, url: page.url, category: model.category, title: model.title })
    return { page, added: true }
  })

  const enqueue = (queue: Array<QueueItem>, page: AppPage) => {
    if (page.depth >= maxDepth) return
    for (const target of page.model.navigationTargets) {
      const url = withoutHash(target.url)
      if (queued.has(url)) {
        const known = pages.find((candidate) => candidate.url === url || candidate.aliases.includes(url))
        if (known !== undefined && known.id !== page.id)
          transitions.push({
            from: page.id,
            to: known.id,
            kind: "link",
            label: target.name,
            locator: target.locator,
          })
        continue
      }
      queued.add(url)
      queue.push({ url, depth: page.depth + 1, from: page.id, label: target.name, locator: target.locator })
    }
  }

  const submitForm = Effect.fnUntraced(function* (
    page: AppPage,
    form: FormModel,
    variant: FormOutcome["variant"],
    queue: Array<QueueItem>,
  ) {
    const submit = form.submit
    if (submit === undefined) return
    const emptyField =
      variant === "missing-required" ? form.fields.find((field) => field.required) : undefined
    if (variant === "missing-required" && emptyField === undefined) return
    const refused = deny.find(({ pattern }) => pattern.test(`${form.name} ${form.submitLabel ?? ""}`))
    if (refused !== undefined)
      return skip(page.url, `form "${form.name}" matches the deny pattern ${JSON.stringify(refused.source)}`)
    yield* driver.navigate(page.url)
    const before = yield* driver.look()
    for (const field of form.fields) {
      if (field === emptyField || !fillsField(field)) continue
      yield* fillField(field.locator.selector, field.fieldType, field.suggestedValue)
    }
    const filled = yield* driver.look()
    yield* driver.act({ selector: submit.selector }, "click")
    const after = yield* driver.look()
    const diff = diffScreens(filled, after)
    const shown = yield* driver.evaluate(`return document.body ? document.body.innerText : ""`)
    const visibleText = (typeof shown === "string" ? shown : "").replace(/\s+/g, " ")
    const outcome: FormOutcome = {
      variant,
      ...(emptyField === undefined ? {} : { emptyField: emptyField.label }),
      url: withoutHash(after.url),
      // Only texts a user can read (and a test can find in the page's text), not accessible names alone.
      appeared: [
        ...new Set(
          diff.addedOutputs
            .filter((output) => MAIN_TEXT_REGIONS.has(output.region) && output.text.trim() !== "")
            .map((output) => output.text)
            .filter((text) => visibleText.includes(text.replace(/\s+/g, " "))),
        ),
      ],
      signals: [...diff.signals],
    }
    const outcomes = page.formOutcomes[form.name] ?? []
    outcomes.push(outcome)
    page.formOutcomes[form.name] = outcomes
    emit({ type: "form-submit", id: page.id, form: form.name, variant, url: outcome.url })
    if (diffScreens(before, after).navigated || outcome.url !== page.url) {
      if (pages.length >= maxPages) return
      const result = yield* record(after, page.depth + 1, outcome.url)
      if (result.page.id !== page.id)
        transitions.push({
          from: page.id,
          to: result.page.id,
          kind: "form",
          label: form.name,
          locator: submit,
        })
      if (result.added) enqueue(queue, result.page)
    }
  })

  const start = withoutHash(startUrl)
  const queue: Array<QueueItem> = [{ url: start, depth: 0 }]
  queued.add(start)
  while (queue.length > 0) {
    const item = queue.shift() as QueueItem
    const refused = refusal(item.url)
    if (refused !== undefined) {
      skip(item.url, refused)
      continue
    }
    if (pages.length >= maxPages) {
      skip(item.url, `maxPages (${maxPages}) reached`)
      continue
    }
    if (visits >= maxVisits) {
      skip(item.url, `maxVisits (${maxVisits}) reached`)
      continue
    }
    const pattern = urlPattern(item.url)
    const seenOfPattern = perPattern.get(pattern) ?? 0
    if (seenOfPattern >= maxPerPattern) {
      skip(item.url, `maxPerPattern (${maxPerPattern}) reached for ${pattern}`)
      continue
    }
    perPattern.set(pattern, seenOfPattern + 1)
    visits++
    emit({ type: "page-visit", url: item.url, depth: item.depth })
    const loaded = yield* driver.navigate(item.url).pipe(
      Effect.flatMap(() => driver.look()),
      Effect.map((snapshot) => ({ snapshot }) as const),
      Effect.catch((error: DriverError) => Effect.succeed({ error } as const)),
    )
    if ("error" in loaded) {
      skip(item.url, loaded.error.message)
      continue
    }
    const landed = withoutHash(loaded.snapshot.url)
    const redirected = landed === item.url ? undefined : refusal(landed)
    if (redirected !== undefined) {
      skip(item.url, `redirected to ${landed}, which ${redirected}`)
      continue
    }
    const { page, added } = yield* record(loaded.snapshot, item.depth, item.url)
    if (item.from !== undefined && item.from !== page.id)
      transitions.push({
        from: item.from,
        to: page.id,
        kind: "link",
        label: item.label ?? item.url,
        ...(item.locator === undefined ? {} : { locator: item.locator }),
      })
    if (!added) continue
    enqueue(queue, page)
    if (options.submitForms === true) {
      for (const form of page.model.forms) {
        for (const variant of ["valid", "missing-required"] as const) {
          yield* submitForm(page, form, variant, queue).pipe(
            Effect.catch((error: DriverError) =>
              Effect.sync(() =>
                skip(page.url, `submitting "${form.name}" (${variant}) failed: ${error.message}`),
              ),
            ),
          )
        }
      }
    }
  }
  emit({ type: "explore-end", pages: pages.length, transitions: transitions.length, visits })
  const now = yield* Clock.currentTimeMillis
  return {
    version: 1,
    startUrl: start,
    createdAt: new Date(now).toISOString(),
    pages,
    transitions,
    skipped,
  }
})
