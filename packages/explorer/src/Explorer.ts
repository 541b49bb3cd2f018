import { createHash } from "node:crypto"
import {
  ActOrigins,
  BrowserDriver,
  type DriverError,
  type PageSnapshot,
  type SecretRequestGuard,
  TaskConstraints,
  webOrigin,
} from "@sextant/core"
import {
  checkSecretDestination,
  defaultBlockedPatterns,
  guardSecretRequests,
  makeGuardrails,
  makeRedactor,
  type Redactor,
} from "@sextant/executor"
import { diffScreens, pageCall } from "@sextant/perception"
import { Clock, Effect, type Scope } from "effect"
import type { AppMap, AppPage, FormOutcome, SkippedUrl, Transition } from "./AppMap.ts"
import { fillField, fillsField } from "./internal/Fill.ts"
import { namesCredential, placeholderName, sealForms, secretName } from "./internal/Secrets.ts"
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
  /** Origins that may be loaded besides the start URL's, and that secrets may go to. Default: the start origin only. */
  readonly allowedOrigins?: ReadonlyArray<string> | undefined
  /** Fill and submit each form with its suggested values, once valid and once with a required field empty. Default false. */
  readonly submitForms?: boolean | undefined
  /**
   * Values for fields by label, instead of the suggested ones (credentials, a search term that finds
   * something). A value that fills a password-like field (typed as a password, or `autocomplete`
   * current-password, new-password or one-time-code) is a secret there: see `secretValues`.
   */
  readonly values?: Readonly<Record<string, string>> | undefined
  /**
   * Values that are secrets wherever they land, by label (a token in a plain text field). A secret is
   * bound to the origins known before exploring, the start URL's and `allowedOrigins`: it is typed
   * only into a form whose page, frame and action are on one of them, the driver checks again as it
   * types, and the browser may send the form only to them (a redirect elsewhere is refused). A form it
   * may not go into is not filled and is listed in `skipped` with the reason. The app map and the
   * events hold `<secret:LABEL>` instead of the value.
   */
  readonly secretValues?: Readonly<Record<string, string>> | undefined
  /**
   * Type secrets even where the browser's request guard cannot be armed (a driver without
   * `guardSecrets`, a BiDi session, a browser whose DevTools port is not on this machine). Default
   * false: there a form that holds a secret is not filled, and `skipped` says why. `true` accepts that
   * a page may send a typed secret elsewhere by script or redirect; only the form-action policy and
   * the checks before typing stop it.
   */
  readonly allowUnguardedSecrets?: boolean | undefined
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

// The session-storage key under which the page notes a submission the browser refused.
const REFUSED_KEY = "sextant-explorer-form-refused"

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
export const explore = (startUrl: string, options: ExploreOptions = {}) =>
  Effect.scoped(exploreScoped(startUrl, options))

// The request guards armed while exploring end with this scope, when the exploration ends.
const exploreScoped = Effect.fn("Explorer.explore")(function* (
  startUrl: string,
  options: ExploreOptions,
): Effect.fn.Return<AppMap, DriverError, BrowserDriver | Scope.Scope> {
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
  const values = options.values ?? {}
  const secretValues = options.secretValues ?? {}
  // Secrets go only to the origins known before exploring; a page found later cannot add one.
  const bound = [
    ...new Set(
      [startUrl, ...(options.allowedOrigins ?? [])].flatMap((url) => {
        const origin = webOrigin(url)
        return origin === undefined ? [] : [origin]
      }),
    ),
  ]
  // Each secret by its placeholder's name: secretValues win over values of the same label.
  const secretsByName = new Map<string, string>(
    [...Object.entries(values), ...Object.entries(secretValues)].map(([label, value]) => [
      secretName(label),
      value,
    ]),
  )
  // The names whose values are hidden in the map and the events: every marked secret, every value
  // for a label that names a password, and every value once it filled a password-like field.
  const hidden = new Set<string>([
    ...Object.keys(secretValues).map(secretName),
    ...Object.keys(values).filter(namesCredential).map(secretName),
  ])
  let redactor: Redactor | undefined
  // The URLs the explorer went to and landed on: a token a site put in one (`?session_token=` after a
  // sign-in link) is hidden in the map, the events and the tests generated from them, as the runs hide it.
  const reached: Array<string> = []
  const redact = <A>(value: A): A => {
    if (redactor === undefined) {
      const names = [...hidden].filter((name) => (secretsByName.get(name) ?? "") !== "")
      const made = makeRedactor({
        inputs: Object.fromEntries(names.map((name) => [name, secretsByName.get(name) as string])),
        secretInputs: names,
      })
      for (const url of reached) made.learnUrl(url)
      redactor = made
    }
    return redactor.value(value)
  }
  const reach = (url: string) => {
    reached.push(url)
    redactor?.learnUrl(url)
  }
  const hide = (name: string) => {
    if (hidden.has(name)) return
    hidden.add(name)
    redactor = undefined
  }
  const emit = (event: ExploreEvent) => {
    if ("url" in event) reach(event.url)
    options.onEvent?.(redact(event))
  }
  const analyzeWith =
    options.analyze ??
    ((snapshot: PageSnapshot) => Effect.succeed(analyzePage(snapshot, { values, secretValues })))
  // Whatever analyzed the page, a secret value is stored as its placeholder only.
  const analyze = (snapshot: PageSnapshot) =>
    Effect.map(analyzeWith(snapshot), (model) => {
      const forms = sealForms(model.forms, snapshot, { values, secretValues })
      for (const form of forms)
        for (const field of form.fields) {
          const name = placeholderName(field.suggestedValue)
          if (name !== undefined && secretsByName.has(name)) hide(name)
        }
      return redact({ ...model, forms })
    })

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

  // The browser's request guards, armed the first time each secret is typed and held until the
  // exploration ends: a request carrying a secret to an origin it is not bound to (a 307 hop, an
  // action swapped on submit, a beacon) fails before it leaves the browser.
  const guards: Array<{ readonly guard: SecretRequestGuard; readonly names: ReadonlyArray<string> }> = []
  const guardedNames = new Set<string>()
  let unguarded: string | undefined
  /** The first blocked request, in words: after it the explorer types no secret again. */
  let secretBlocked: string | undefined

  const armGuard = (names: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const fresh = names.filter((name) => !guardedNames.has(name))
      if (fresh.length === 0 || unguarded !== undefined) return
      const armed = yield* guardSecretRequests(driver, {
        values: fresh.map((name) => secretsByName.get(name) as string),
        origins: bound,
      })
      if ("missing" in armed) {
        unguarded = armed.missing
        return
      }
      guards.push({ guard: armed.guard, names: fresh })
      for (const name of fresh) guardedNames.add(name)
    })

  /** The requests the guards blocked since the last call, in words (never their URLs). */
  const takeBlocked = Effect.gen(function* () {
    const said: Array<string> = []
    for (const { guard, names } of guards)
      for (const request of yield* guard.blocked) {
        const name = names[request.secret]
        said.push(
          `a ${request.resourceType} ${request.method} request to ${request.origin}${request.redirectedFrom === undefined ? "" : ` (a redirect from ${request.redirectedFrom})`} carrying ${name === undefined ? "a secret" : `<secret:${name}>`} in its ${request.carriedIn} was blocked before it left the browser`,
        )
      }
    secretBlocked ??= said[0]
    return said
  })

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
    reach(snapshot.url)
    reach(requested)
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

  /** Why the submit control would send its form where the secrets may not go, or undefined. */
  const submissionOrigin = (selector: string) =>
    pageCall(driver, "submissionTarget", selector).pipe(
      Effect.map((target) => {
        if (target === null) return `its submit control ${selector} is not on the page`
        const origin = webOrigin(target)
        if (origin !== undefined && bound.includes(origin)) return undefined
        return `it sends the form to ${origin ?? target}, which is not an origin the secrets are bound to (${bound.join(", ")}); add the origin with allowedOrigins (--allowed-origin) only if it is meant to receive them`
      }),
    )

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
    const filling = form.fields.filter((field) => field !== emptyField && fillsField(field))
    const secretOf = (value: string): string | undefined => {
      const name = placeholderName(value)
      return name === undefined ? undefined : secretsByName.get(name)
    }
    const secrets = filling.filter((field) => secretOf(field.suggestedValue) !== undefined)
    const withSecret = `form "${form.name}" (${variant}) holds ${[...new Set(secrets.map((field) => field.suggestedValue))].join(", ")}`
    if (secrets.length > 0) {
      for (const said of yield* takeBlocked) skip(page.url, `${said}: the explorer types no secret again`)
      if (secretBlocked !== undefined)
        return skip(
          page.url,
          `${withSecret}, not filled: earlier in this exploration ${secretBlocked}, so the explorer types no secret again; explore again once the pages are trusted`,
        )
    }
    yield* driver.navigate(page.url)
    const before = yield* driver.look()
    if (secrets.length > 0) {
      // The rule every entry point applies, read from the live page: its page, the field's frame and
      // form action, and every password form on it must be on an origin the secrets are bound to.
      for (const field of secrets) {
        const problem = yield* checkSecretDestination(driver, {
          allowed: bound,
          field: { selector: field.locator.selector, label: field.label },
          actor: "explore",
          secret: field.suggestedValue,
          setting: "allowedOrigins (--allowed-origin)",
          fallbackUrl: page.url,
        })
        if (problem !== undefined) return skip(page.url, `${withSecret}, not filled: ${problem}`)
      }
      const sendsTo = yield* submissionOrigin(submit.selector)
      if (sendsTo !== undefined) return skip(page.url, `${withSecret}, not filled: ${sendsTo}`)
      yield* armGuard([...new Set(secrets.flatMap((field) => placeholderName(field.suggestedValue) ?? []))])
      if (unguarded !== undefined && options.allowUnguardedSecrets !== true)
        return skip(
          page.url,
          `${withSecret}, not filled: the browser's requests cannot be guarded (${unguarded}), so a page could send the secret elsewhere; explore in a Chromium Sextant launches without BiDi, or pass allowUnguardedSecrets: true to accept that risk`,
        )
    }
    for (const field of filling) {
      const secret = secretOf(field.suggestedValue)
      const typed = fillField(field.locator.selector, field.fieldType, secret ?? field.suggestedValue)
      // The driver checks again in the page, as it types, that the field still posts to a bound origin.
      yield* secret === undefined ? typed : typed.pipe(Effect.provideService(ActOrigins, { typing: bound }))
    }
    const filled = yield* driver.look(
      secrets.length === 0 ? {} : { secretSelectors: secrets.map((field) => field.locator.selector) },
    )
    if (secrets.length > 0) {
      // A script may have moved the form while it was filled; and the answer to the submission may
      // redirect it elsewhere with its body (307, 308). The page's own form-action policy makes the
      // browser refuse both before anything leaves.
      const sendsTo = yield* submissionOrigin(submit.selector)
      if (sendsTo !== undefined) return skip(page.url, `${withSecret}, filled but not submitted: ${sendsTo}`)
      // A Content-Security-Policy form-action for the page (perception's `limitFormActions`): Chromium
      // applies it to the submission and to every redirect of it, so a 307 to another origin is refused
      // before the body is sent again; the page notes what was refused under REFUSED_KEY.
      yield* pageCall(driver, "limitFormActions", bound.join(" "), REFUSED_KEY)
    }
    yield* driver.act({ selector: submit.selector }, "click")
    const after = yield* driver.look()
    const landed = withoutHash(after.url)
    const blocked = yield* takeBlocked
    if (blocked.length > 0)
      return skip(
        page.url,
        `${secrets.length > 0 ? withSecret : `form "${form.name}" (${variant})`}; submitted, ${blocked.join("; ")}: the page is not recorded, and the explorer types no secret again`,
      )
    if (secrets.length > 0) {
      if (!bound.includes(webOrigin(landed) ?? landed))
        return skip(
          page.url,
          `${withSecret}; submitted, the browser ended on ${landed}, which is not an origin the secrets are bound to (${bound.join(", ")}): the page is not recorded`,
        )
      const refusedAt = yield* pageCall(driver, "takeRefused", REFUSED_KEY)
      if (refusedAt !== null)
        return skip(
          page.url,
          `${withSecret}; submitted to ${refusedAt}, whose answer sent it on to an origin the secrets are not bound to (${bound.join(", ")}): the browser refused to follow (form-action), the secret went no further and the page is not recorded`,
        )
    }
    const diff = diffScreens(filled, after)
    const visibleText = (yield* pageCall(driver, "bodyText")).replace(/\s+/g, " ")
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
      const elsewhere = outcome.url === page.url ? undefined : refusal(outcome.url)
      if (elsewhere !== undefined)
        return skip(outcome.url, `reached by submitting "${form.name}" (${variant}), which ${elsewhere}`)
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
  // A request sent after the last submission (a beacon on unload) may still have been blocked.
  for (const said of yield* takeBlocked) skip(startUrl, `${said}: the explorer types no secret again`)
  if (unguarded !== undefined)
    skip(
      startUrl,
      `requests were not guarded while secrets were typed: ${unguarded}; a page that sends a typed secret elsewhere on submit or by redirect was stopped only by the form-action policy`,
    )
  emit({ type: "explore-end", pages: pages.length, transitions: transitions.length, visits })
  const now = yield* Clock.currentTimeMillis
  const map: AppMap = {
    version: 1,
    startUrl: start,
    createdAt: new Date(now).toISOString(),
    pages,
    transitions,
    skipped,
  }
  return redact(map)
})
