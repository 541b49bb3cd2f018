import {
  AgentError,
  type AgentTask,
  GuardrailViolation,
  NavigationLoop,
  type PageSnapshot,
  parseTarget,
  readWebUrl,
  type ToolEffects,
} from "@sextant/core"

/**
 * Patterns blocked by default, matched case-insensitively against URLs, selectors, element names and
 * link targets: signing out and destructive actions end sessions or lose data a run cannot restore.
 */
export const defaultBlockedPatterns: ReadonlyArray<string> = [
  String.raw`\blog[\s_-]?out\b`,
  String.raw`\bsign[\s_-]?out\b`,
  String.raw`\bdelete\b`,
  String.raw`\bdestroy\b`,
  String.raw`\bdeactivate\b`,
  String.raw`\bunsubscribe\b`,
  String.raw`\bclose[\s_-]?account\b`,
]

/**
 * What the program that sets a guardrail calls it, for the refusal to name: a CLI names its flags
 * (`{ allowedOrigins: "--allowed-origin" }`), a library its options. Each default is the task field.
 */
export interface GuardrailSettingNames {
  /** Default `constraints.allowedOrigins`. */
  readonly allowedOrigins?: string | undefined
  /** Default `constraints.allowFormSubmission`. */
  readonly allowFormSubmission?: string | undefined
  /** Default `constraints.quotas.navigations`. */
  readonly navigations?: string | undefined
  /** Default `constraints.quotas.clicks`. */
  readonly clicks?: string | undefined
  /** Default `constraints.quotas.submissions`. */
  readonly submissions?: string | undefined
  /** What lifts the default blocked patterns (sign out, delete, …); default `options.blockedPatterns`. */
  readonly blockedPatterns?: string | undefined
  /** Default `constraints.allowedUploadDirs`. */
  readonly allowedUploadDirs?: string | undefined
  /**
   * What lets a secret be typed into a browser whose requests cannot be guarded (`secret-unguarded`);
   * default `options.requireRequestGuard: false`.
   */
  readonly allowUnguardedSecrets?: string | undefined
}

/** Options of the guardrails, each with a default. */
export interface GuardrailOptions {
  /**
   * The names refusals give the settings that change them (see {@link GuardrailSettingNames}).
   *
   * @example
   * ```ts
   * makeGuardrails(task, { settingNames: { navigations: "--max-navigations" } })
   * // a refusal then ends "… is used up: raise it with --max-navigations"
   * ```
   */
  readonly settingNames?: GuardrailSettingNames | undefined
  /** Patterns (regular expression sources, case-insensitive) refused besides `blockedUrlPatterns`. Default {@link defaultBlockedPatterns}. */
  readonly blockedPatterns?: ReadonlyArray<string> | undefined
  /** Landing on one URL this many times is a `NavigationLoop`. Default 3. */
  readonly navigationLoopLimit?: number | undefined
  /** Without `allowedOrigins`, only the start URL's origin is allowed. Default true. */
  readonly restrictToStartOrigin?: boolean | undefined
}

/** One tool call about to run, as the guardrails see it. */
export interface StepIntent {
  readonly tool: string
  readonly effects: ToolEffects
  readonly args: Readonly<Record<string, unknown>>
  /** The page the agent is on. */
  readonly currentUrl: string
  /** The latest snapshot, to see what a ref or selector points at. */
  readonly snapshot?: PageSnapshot | undefined
}

/** What a step will count against the quotas once it runs. */
export interface StepCharge {
  readonly navigates: boolean
  readonly clicks: boolean
  readonly submits: boolean
}

/** The guardrails of one run: stateless checks plus the counters of quotas and visited URLs. */
export interface Guardrails {
  /** Refuses the call with a typed `AgentError` (`GuardrailViolation`), or says what it will count. */
  readonly check: (intent: StepIntent) => { readonly violation: AgentError } | { readonly charge: StepCharge }
  /** Counts a call that passed `check` against the quotas. */
  readonly commit: (charge: StepCharge) => void
  /** Checks a URL the agent is about to load or has landed on. */
  readonly checkUrl: (url: string, base?: string) => AgentError | undefined
  /** Records landing on `url` after a navigation; a `NavigationLoop` error when it is one too many. */
  readonly landed: (url: string) => AgentError | undefined
  /** The origins pages may be on (`constraints.allowedOrigins`, else the start URL's); undefined when any is. */
  readonly allowedOrigins: ReadonlyArray<string> | undefined
  /** What each refusal calls the setting that changes it: the caller's `settingNames` over the task fields. */
  readonly settingNames: Required<GuardrailSettingNames>
  /** Forgets visited URLs (after a replan, the new plan gets a fresh count). */
  readonly resetVisits: () => void
  readonly counts: () => {
    readonly navigations: number
    readonly clicks: number
    readonly submissions: number
  }
}

const violation = (rule: string, detail: string) =>
  new AgentError({ reason: new GuardrailViolation({ rule, detail }) })

const URL_KEYS = ["url", "href", "link", "to"]
/** Arguments holding lists of URLs a tool will load (the session tools' `submitUrls` and `crawl`). */
const URL_LIST_KEYS = ["urls", "startUrls"]
/** Arguments of tools that do not click but may name pages to load inside their text (the `sql` tool's query). */
const QUERY_KEYS = ["query", "sql"]
const embeddedUrl = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`)]+/gi
/**
 * The first argument of every `load_and_select('…', …)` in a query: the pages the `sql` tool loads,
 * whatever their spelling (`http:host`, `http:\\host` have no `//`). The URL check reads each one.
 */
const rowSourceUrl = /load_and_select\s*\(\s*'((?:[^']|'')*)'/gi

/**
 * The URLs a query string will load: its row sources and any other absolute URL it spells out.
 *
 * @example
 * ```ts
 * import { queryUrls } from "@sextant/executor"
 * queryUrls("SELECT text FROM load_and_select('http:127.0.0.1:9/x', 'p')") // ["http:127.0.0.1:9/x"]
 * ```
 */
export const queryUrls = (query: string): ReadonlyArray<string> => [
  ...[...query.matchAll(rowSourceUrl)].map((match) => (match[1] ?? "").replaceAll("''", "'")),
  ...(query.match(embeddedUrl) ?? []),
]
const TARGET_KEYS = ["target", "ref", "selector", "locator"]
const TEXT_KEYS = ["text", "pattern", "name", "label", "match"]

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/**
 * Builds the guardrails of one task from its constraints: http/https only (plus about:blank), allowed
 * origins, blocked URL and selector patterns, quotas of navigations, clicks and submissions (submissions
 * only with `allowFormSubmission`), and navigation-loop detection.
 *
 * @example
 * ```ts
 * import { decodeAgentTask } from "@sextant/core"
 * import { makeGuardrails } from "@sextant/executor"
 * const guardrails = makeGuardrails(task)
 * guardrails.checkUrl("javascript:alert(1)")?.message // "guardrail 'url-scheme' stopped the step: …"
 * ```
 */
export const makeGuardrails = (
  task: Pick<AgentTask, "constraints" | "startUrl"> & { readonly goal?: string | undefined },
  options: GuardrailOptions = {},
): Guardrails => {
  const constraints = task.constraints
  // The default patterns keep a run from wandering into an action nobody asked for. A goal that itself
  // names the action ("click Delete", "hover over Account and click Sign out") asks for it, so that
  // default is lifted for this run; patterns the caller passed or the task's constraints hold stay.
  const asked = (source: string) => task.goal !== undefined && new RegExp(source, "i").test(task.goal)
  const defaults = options.blockedPatterns ?? defaultBlockedPatterns.filter((source) => !asked(source))
  const patterns = [...defaults, ...constraints.blockedUrlPatterns].map((source) => new RegExp(source, "i"))
  const allowedOrigins: ReadonlyArray<string> | undefined =
    constraints.allowedOrigins?.map((origin) => originOf(origin) ?? origin) ??
    (options.restrictToStartOrigin !== false && task.startUrl !== undefined
      ? [originOf(task.startUrl) ?? task.startUrl]
      : undefined)
  const names: Required<GuardrailSettingNames> = {
    allowedOrigins: "constraints.allowedOrigins",
    allowFormSubmission: "constraints.allowFormSubmission",
    navigations: "constraints.quotas.navigations",
    clicks: "constraints.quotas.clicks",
    submissions: "constraints.quotas.submissions",
    blockedPatterns: "options.blockedPatterns",
    allowedUploadDirs: "constraints.allowedUploadDirs",
    allowUnguardedSecrets: "options.requireRequestGuard: false",
    ...Object.fromEntries(
      Object.entries(options.settingNames ?? {}).filter(([, name]) => name !== undefined),
    ),
  }
  // A default pattern is lifted by the caller's setting; the task's own are the task's to change.
  const defaultSources = new Set(defaults)
  const patternHint = (pattern: RegExp) =>
    defaultSources.has(pattern.source)
      ? ` (a default pattern: lift the defaults with ${names.blockedPatterns}, or name the action in the goal)`
      : ""
  const loopLimit = options.navigationLoopLimit ?? 3
  const visits = new Map<string, number>()
  const used = { navigations: 0, clicks: 0, submissions: 0 }

  const blocked = (text: string): RegExp | undefined => patterns.find((pattern) => pattern.test(text))

  const checkUrl = (raw: string, base?: string): AgentError | undefined => {
    const trimmed = raw.trim()
    if (trimmed === "about:blank") return undefined
    const reading = readWebUrl(trimmed, base)
    if (!reading.ok) return violation("url-scheme", reading.detail)
    const url = reading.url
    if (allowedOrigins !== undefined && !allowedOrigins.includes(url.origin)) {
      return violation(
        "allowed-origins",
        `${url.origin} is not an allowed origin (allowed: ${allowedOrigins.join(", ")}): add it with ${names.allowedOrigins} if the task needs it`,
      )
    }
    const pattern = blocked(url.href)
    if (pattern !== undefined) {
      return violation(
        "blocked-pattern",
        `${url.href} matches the blocked pattern /${pattern.source}/${patternHint(pattern)}`,
      )
    }
    return undefined
  }

  const check: Guardrails["check"] = (intent) => {
    const args = intent.args
    let navigates = intent.effects.navigates
    let submits = intent.effects.submits
    const clicks = intent.effects.clicks
    // Every URL a tool may load goes through the same check, however the tool takes it.
    const urls = [
      ...URL_KEYS.map((key) => args[key]).filter((value): value is string => typeof value === "string"),
      ...URL_LIST_KEYS.flatMap((key) => {
        const value = args[key]
        return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []
      }),
      ...(clicks
        ? []
        : QUERY_KEYS.flatMap((key) => {
            const value = args[key]
            return typeof value === "string" ? queryUrls(value) : []
          })),
    ]
    for (const url of urls) {
      const error = checkUrl(url, intent.currentUrl)
      if (error !== undefined) return { violation: error }
    }
    for (const key of [...TARGET_KEYS, ...TEXT_KEYS]) {
      const value = args[key]
      if (typeof value !== "string") continue
      const pattern = blocked(value)
      if (pattern !== undefined) {
        return {
          violation: violation(
            "blocked-pattern",
            `${key} ${JSON.stringify(value)} matches the blocked pattern /${pattern.source}/${patternHint(pattern)}`,
          ),
        }
      }
      if (!TARGET_KEYS.includes(key) || intent.snapshot === undefined) continue
      const target = parseTarget(value)
      const element =
        "ref" in target
          ? intent.snapshot.elements[target.ref]
          : Object.values(intent.snapshot.elements).find((candidate) =>
              candidate.selectors.includes(target.selector),
            )
      if (element === undefined) continue
      const namePattern = blocked(element.name)
      if (namePattern !== undefined) {
        return {
          violation: violation(
            "blocked-pattern",
            `${value} is "${element.name}", which matches the blocked pattern /${namePattern.source}/${patternHint(namePattern)}`,
          ),
        }
      }
      const href = element.attributes.href
      if (clicks && href !== undefined && !href.startsWith("#")) {
        const error = checkUrl(href, intent.currentUrl)
        if (error !== undefined) return { violation: error }
        navigates = true
      }
      const isSubmit =
        element.attributes.type === "submit" ||
        intent.snapshot.forms.some((form) => form.submit === element.ref)
      if (clicks && isSubmit) submits = true
    }
    if (navigates && !constraints.allowNavigation) {
      return {
        violation: violation(
          "navigation",
          `${intent.tool} would navigate but constraints.allowNavigation is false`,
        ),
      }
    }
    if (submits && !constraints.allowFormSubmission) {
      return {
        violation: violation(
          "form-submission",
          `${intent.tool} would submit a form but form submission is not allowed: allow it with ${names.allowFormSubmission} if submitting is intended`,
        ),
      }
    }
    const quotas = constraints.quotas
    if (navigates && used.navigations >= quotas.navigations) {
      return {
        violation: violation(
          "quota.navigations",
          `the navigation quota of ${quotas.navigations} is used up: raise it with ${names.navigations}`,
        ),
      }
    }
    if (clicks && used.clicks >= quotas.clicks) {
      return {
        violation: violation(
          "quota.clicks",
          `the click quota of ${quotas.clicks} is used up: raise it with ${names.clicks}`,
        ),
      }
    }
    if (submits && used.submissions >= quotas.submissions) {
      return {
        violation: violation(
          "quota.submissions",
          `the submission quota of ${quotas.submissions} is used up: raise it with ${names.submissions}`,
        ),
      }
    }
    return { charge: { navigates, clicks, submits } }
  }

  return {
    check,
    commit: (charge) => {
      if (charge.navigates) used.navigations++
      if (charge.clicks) used.clicks++
      if (charge.submits) used.submissions++
    },
    checkUrl,
    landed: (url) => {
      const count = (visits.get(url) ?? 0) + 1
      visits.set(url, count)
      return count >= loopLimit ? new AgentError({ reason: new NavigationLoop({ url, count }) }) : undefined
    },
    allowedOrigins,
    settingNames: names,
    resetVisits: () => visits.clear(),
    counts: () => ({ ...used }),
  }
}
