import { z } from "zod"

/** How the driver waits and looks; every field has a default. */
export const DriverOptions = z.object({
  /** How long `act` waits for its element to exist, show and be uncovered, in ms. */
  actionWaitMs: z.number().int().nonnegative().default(2_000),
  /** After an action, the longest wait for requests and DOM changes to settle, in ms. */
  settleMs: z.number().int().nonnegative().default(3_000),
  /** After an action, how long the DOM must stay unchanged to count as settled, in ms. */
  quietMs: z.number().int().nonnegative().default(10),
  /** The longest wait for a navigation an action started, in ms. */
  navigationTimeoutMs: z.number().int().positive().default(30_000),
  /**
   * How long `navigate` waits for a page's load event before it stops a page that has already
   * rendered (as pressing Esc does) and answers with `stoppedLoadingAfterMs`, in ms. A page that has
   * rendered nothing is waited for up to the navigation's limit. At or above that limit, `navigate`
   * always waits for the load event. Applies to loads on the tab's DevTools socket (a launched
   * Chromium, or a BiDi session whose debugger is reachable).
   */
  pageLoadWaitMs: z.number().int().nonnegative().default(5_000),
  /** The default `waitFor` time limit, in ms. */
  waitTimeoutMs: z.number().int().positive().default(10_000),
  /** The longest a look may take before it fails with `Timeout`, in ms. */
  lookTimeoutMs: z.number().int().positive().default(10_000),
  /** The longest an action may take, navigation it started included, before it fails with `Timeout`, in ms. */
  actTimeoutMs: z.number().int().positive().default(60_000),
  /**
   * The time limit of every other driver call (look, evaluate, tabs, …), in ms; navigate, act and
   * waitFor get their own limit plus this much.
   */
  commandTimeoutMs: z.number().int().positive().default(30_000),
  /** How often a launched session checks that ChromeDriver and Chromium still run while a call waits, in ms. */
  crashCheckMs: z.number().int().positive().default(250),
  /** How many times `navigate` loads a page again that answered 5xx or 429. */
  statusRetries: z.number().int().nonnegative().default(2),
  /** The first wait before loading such a page again, doubled each time, in ms (Retry-After wins). */
  statusBackoffMs: z.number().int().nonnegative().default(500),
  /** The longest Retry-After `navigate` waits for; a longer one fails at once, naming it, in ms. */
  maxRetryAfterMs: z.number().int().nonnegative().default(10_000),
  /**
   * Keep the page's JSON exchanges (method, URL, status, request and response bodies) for
   * `takeRecording`, from WebDriver BiDi network events; needs a BiDi session. Off by default.
   */
  recordTraffic: z.boolean().default(false),
  /** Options for every look, including the one after each action. */
  look: z
    .object({
      maxTokens: z.number().int().positive().optional(),
      mode: z.enum(["full", "interactive"]).optional(),
      secretSelectors: z.array(z.string()).optional(),
    })
    .default({}),
})
export type DriverOptions = z.input<typeof DriverOptions>
