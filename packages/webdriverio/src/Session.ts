import { accessSync, constants, mkdtempSync, rmSync } from "node:fs"
import { causeMessage, DriverCrashed, DriverError, InvalidArgument } from "@sextant/core"
import { Effect } from "effect"
import { remote } from "webdriverio"
import { z } from "zod"
import type { RunningChromedriver, SharedChromedriver } from "./Chromedriver.ts"
import { errorCode, toDriverError } from "./DriverErrors.ts"
import { ownBidiCommands } from "./internal/BidiCommands.ts"
import { closeAndWait, listTabs, openContextTab, switchToFreshContext } from "./internal/BrowserContexts.ts"
import { chromedriverDisabledFeatures, chromedriverSwitches, startChromium } from "./internal/Chromium.ts"
import { devtoolsSocketsAt } from "./internal/DevtoolsSocket.ts"
import { watchLibraryPreloads } from "./internal/LibraryPreloads.ts"
import {
  browserProcess,
  isRunning,
  OWNER_ENV,
  ownerId,
  profileFolderPrefix,
  type StartedChromedriver,
  startChromedriver,
  stopBrowser,
  stopProcesses,
  sweepOnce,
  trackBrowser,
} from "./internal/Processes.ts"
import { startWatchdog } from "./internal/Watchdog.ts"

/**
 * Chromium features a launched session turns off, as Playwright does: media routing, translation,
 * lens, optimisation hints and HTTPS upgrades do background work or change what a page sees.
 * ChromeDriver merges this list with its own `--disable-features`.
 */
const disabledFeatures: ReadonlyArray<string> = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "DialMediaRouteProvider",
  "GlobalMediaControls",
  "HttpsUpgrades",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "Translate",
  "AutoDeElevate",
  "OptimizationHints",
]

/**
 * The Chromium flags every launched session gets: headless, quiet, no first-run work, and the
 * switches Playwright launches Chromium with (`chromiumSwitches.ts`) that ChromeDriver does not add
 * itself: no field-trial experiments, no back-forward cache, no background throttling, no
 * extensions, no crash reporter. Those that change how a page looks or reads input (hidden
 * scrollbars, touch-like hover media) are left out.
 */
export const defaultChromeArgs: ReadonlyArray<string> = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-field-trial-config",
  "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
  "--disable-back-forward-cache",
  "--disable-breakpad",
  "--disable-client-side-phishing-detection",
  "--disable-component-extensions-with-background-pages",
  "--disable-default-apps",
  "--disable-extensions",
  `--disable-features=${disabledFeatures.join(",")}`,
  "--disable-ipc-flooding-protection",
  "--disable-prompt-on-repost",
  "--disable-renderer-backgrounding",
  "--disable-search-engine-choice-screen",
  "--force-color-profile=srgb",
  "--metrics-recording-only",
  "--no-service-autorun",
  "--mute-audio",
]

const logLevel = z.enum(["trace", "debug", "info", "warn", "error", "silent"])

/** Options of {@link launch}; every field is optional. */
export const LaunchOptions = z.object({
  /** The Chromium binary; default `SEXTANT_CHROME`, then `/usr/bin/chromium`. */
  chromePath: z.string().min(1).optional(),
  /** The ChromeDriver binary; default `SEXTANT_CHROMEDRIVER`, then `/usr/bin/chromedriver`. */
  chromedriverPath: z.string().min(1).optional(),
  /** Run without a window (default true). */
  headless: z.boolean().default(true),
  /** Extra Chromium flags, after the defaults. */
  args: z.array(z.string()).default([]),
  /** The viewport size in CSS pixels: the page's `innerWidth`×`innerHeight` (the window is sized to give it). */
  windowSize: z
    .object({ width: z.number().int().positive(), height: z.number().int().positive() })
    .default({ width: 1280, height: 800 }),
  /**
   * Open a WebDriver BiDi channel (default false). Without it, a launched Chromium is driven by
   * WebDriver Classic plus the tabs' own DevTools sockets, which carry page loads, scripts, input,
   * dialog and new-tab events and the in-page actor; ChromeDriver's BiDi mapper, which watches every
   * tab, made real-page loads about a quarter slower. Turn it on for what only BiDi offers here:
   * recording the page's JSON traffic (`recordTraffic`).
   */
  bidi: z.boolean().default(false),
  /** How long ChromeDriver and Chromium may take to start, in ms. */
  startTimeoutMs: z.number().int().positive().default(30_000),
  /** WebdriverIO's own log level (default `silent`). */
  logLevel: logLevel.default("silent"),
  /**
   * A ChromeDriver shared by several sessions ({@link startSharedChromedriver}); without it the
   * launch starts a ChromeDriver of its own, ended with the session.
   */
  chromedriver: z
    .custom<SharedChromedriver>(
      (value) => typeof value === "object" && value !== null && "running" in value && "binary" in value,
      { message: "expected a shared ChromeDriver from startSharedChromedriver" },
    )
    .optional(),
  /**
   * End ChromeDriver and Chromium within moments when this Node process dies without closing the
   * session, even by SIGKILL (default true): a tiny detached watchdog per launch notices the process
   * is gone and ends them, instead of leaving them to the next launch's reaper.
   */
  watchdog: z.boolean().default(true),
})
export type LaunchOptions = z.input<typeof LaunchOptions>

/** Options of {@link connect}: any remote WebDriver endpoint (ChromeDriver, Selenium Grid, a cloud grid). */
export const ConnectOptions = z.object({
  hostname: z.string().min(1).default("127.0.0.1"),
  port: z.number().int().min(1).max(65535),
  path: z.string().default("/"),
  protocol: z.enum(["http", "https"]).default("http"),
  /** W3C capabilities sent as they are (default: headless Chromium). */
  capabilities: z.record(z.string(), z.unknown()).optional(),
  /** Ask for a WebDriver BiDi channel when `capabilities` do not say (default true). */
  bidi: z.boolean().default(true),
  /** Request headers, e.g. a grid's authentication. */
  headers: z.record(z.string(), z.string()).optional(),
  user: z.string().optional(),
  key: z.string().optional(),
  logLevel: logLevel.default("silent"),
})
export type ConnectOptions = z.input<typeof ConnectOptions>

/**
 * A WebDriver session Sextant drives: the WebdriverIO browser and how it came to be. A launched
 * session knows its profile directory, so the processes it started can be found and ended.
 */
export interface DriverSession {
  readonly browser: WebdriverIO.Browser
  readonly kind: "launched" | "connected" | "wrapped"
  /** The temporary Chromium profile of a launched session. */
  readonly profileDir?: string
  /**
   * The browser context (a DevTools `browserContextId`, or a BiDi user context) a launched session's
   * tabs live in: off the record, cookies, storage and cache of its own.
   */
  readonly browserContext?: string
  /** The process id of the ChromeDriver a launched session runs on (its own, or the shared one). */
  readonly chromedriverPid?: number
  /** The process id of the Chromium browser process of a launched session. */
  readonly browserPid?: number
  /**
   * For a launched session: what died (`"ChromeDriver (pid 812) exited"`), or undefined while
   * ChromeDriver and Chromium both run. Reading it costs one `/proc` lookup per process. For a
   * connected session: what was lost, once {@link DriverSession.probe} found out.
   */
  readonly crashed?: () => string | undefined
  /**
   * For a connected session: asks the remote end whether the session still answers, and says what was
   * lost when it does not (`"the Selenium Grid node http://10.0.0.7:5555 … no longer answers"`); from
   * then on `crashed` says it too. Undefined when it answers, or cannot tell (the question timed out).
   */
  readonly probe?: () => Promise<string | undefined>
  /** For a session on a Selenium Grid: the grid, and the node the session landed on. */
  readonly grid?: GridPlacement
}

/** Where a grid session runs: the grid's URL and the node that holds it (from the grid's `/status`). */
export interface GridPlacement {
  readonly url: string
  /** The node's id and URI as the grid reports them; undefined when the grid does not list the session. */
  readonly node?: { readonly id: string; readonly uri: string } | undefined
}

const invalidOptions = (what: string, error: z.ZodError): DriverError =>
  new DriverError({
    method: what,
    reason: new InvalidArgument({
      detail: error.issues.map((issue) => `${what}.${issue.path.join(".")}: ${issue.message}`).join("; "),
    }),
    cause: error,
  })

const decode = <S extends z.ZodType>(schema: S, what: string, input: unknown) => {
  const result = schema.safeParse(input)
  return result.success
    ? Effect.succeed(result.data as z.output<S>)
    : Effect.fail(invalidOptions(what, result.error))
}

const executable = (path: string, envVar: string, what: string): Effect.Effect<string, DriverError> =>
  Effect.try({
    try: () => {
      accessSync(path, constants.X_OK)
      return path
    },
    catch: (cause) =>
      new DriverError({
        method: "launch",
        reason: new InvalidArgument({
          detail: `${what} was not found at ${path}: install it or set ${envVar} to its path`,
        }),
        cause,
      }),
  })

// A launch's own ChromeDriver, seen as the running ChromeDriver a session checks.
const ownChromedriver = (started: StartedChromedriver): RunningChromedriver => ({
  port: started.port,
  pid: started.process.pid,
  exited: () => {
    const child = started.process
    if (child.exitCode === null && child.signalCode === null && isRunning(child.pid ?? 0)) return undefined
    return `ChromeDriver (pid ${child.pid}) exited${child.signalCode === null ? "" : ` on ${child.signalCode}`}`
  },
})

/** The binaries a launch would use, after options and environment variables. */
export const resolveBinaries = (options: { chromePath?: string; chromedriverPath?: string } = {}) => ({
  chrome: options.chromePath ?? process.env.SEXTANT_CHROME ?? "/usr/bin/chromium",
  chromedriver: options.chromedriverPath ?? process.env.SEXTANT_CHROMEDRIVER ?? "/usr/bin/chromedriver",
})

/** How long ending a session waits for the driver to answer, in ms. */
const END_SESSION_TIMEOUT_MS = 5_000
/**
 * How long ending a session whose browser already died waits, in ms: ChromeDriver answers at once
 * that the browser is gone (and forgets the session), so a longer wait would only hold up the close.
 */
const END_DEAD_SESSION_TIMEOUT_MS = 2_000

/** What {@link endSession} asks before it asks the driver to end the session. */
interface EndState {
  /**
   * What makes asking pointless: the driver itself exited (nothing listens), or the remote end
   * already said the session is gone. Undefined while the driver may still hold the session.
   */
  readonly unreachable: () => string | undefined
  /** What died (the driver or the browser), or undefined while both run. */
  readonly crashed?: () => string | undefined
}

/**
 * Sends the session's DELETE, aborted when `signal` is: WebdriverIO takes no signal per command, so
 * for this one command the request options gain it through `transformRequest` (after the user's own),
 * and an aborted DELETE is not sent again. Without it a DELETE the remote end never answers would keep
 * its socket open for WebdriverIO's `connectionRetryTimeout` (two minutes) after the close gave up.
 */
const deleteSession = async (browser: WebdriverIO.Browser, signal: AbortSignal): Promise<void> => {
  const options = browser.options as {
    transformRequest?: ((request: RequestInit) => RequestInit) | undefined
    connectionRetryCount?: number | undefined
  }
  const transform = options.transformRequest
  const retries = options.connectionRetryCount
  options.transformRequest = (request) => {
    const given = transform === undefined ? request : transform(request)
    return { ...given, signal: given.signal ? AbortSignal.any([given.signal, signal]) : signal }
  }
  options.connectionRetryCount = 0
  try {
    await browser.deleteSession()
  } finally {
    options.transformRequest = transform
    options.connectionRetryCount = retries
  }
}

// Ends the session, then whatever BiDi commands are still waiting, and closes the socket: nothing
// the session opened may keep Node alive after it. A session whose browser died is still ended on
// a driver that runs: a shared ChromeDriver serves many sessions and would otherwise keep the dead
// one in its records for the rest of its life; the error it answers for the dead browser is ignored.
// The time limit interrupts the request, which aborts it.
const endSession = (browser: WebdriverIO.Browser, state: EndState) =>
  Effect.suspend(() => {
    const commands = ownedCommands.get(browser)
    const end =
      state.unreachable() === undefined
        ? Effect.tryPromise({
            try: (signal) => deleteSession(browser, signal),
            catch: toDriverError("close"),
          }).pipe(
            Effect.timeout(
              state.crashed?.() === undefined ? END_SESSION_TIMEOUT_MS : END_DEAD_SESSION_TIMEOUT_MS,
            ),
            Effect.ignore,
          )
        : Effect.void
    return Effect.ensuring(
      end,
      Effect.sync(() => commands?.release()),
    )
  })

const ownedCommands = new WeakMap<WebdriverIO.Browser, { readonly release: () => void }>()

// Sends the session's BiDi commands without WebdriverIO's never-cleared timers (see BidiCommands).
const takeOverCommands = (browser: WebdriverIO.Browser): WebdriverIO.Browser => {
  const commands = ownBidiCommands(browser)
  if (commands !== undefined) ownedCommands.set(browser, commands)
  return browser
}

/**
 * Sizes the window so the page's viewport is exactly `size`: `--window-size` sets the outer window,
 * and the browser's own frame takes its share of it (1280×720 gave a 1280×577 viewport).
 */
const fitViewport = (
  browser: WebdriverIO.Browser,
  size: { readonly width: number; readonly height: number },
  binary: string,
) =>
  Effect.tryPromise({
    try: async () => {
      const [innerWidth, innerHeight, outerWidth, outerHeight] = (await browser.execute(
        "return [window.innerWidth, window.innerHeight, window.outerWidth, window.outerHeight]",
      )) as [number, number, number, number]
      windowFrames.set(binary, { width: outerWidth - innerWidth, height: outerHeight - innerHeight })
      if (innerWidth === size.width && innerHeight === size.height) return
      await browser.setWindowSize(
        size.width + outerWidth - innerWidth,
        size.height + outerHeight - innerHeight,
      )
    },
    catch: toDriverError("launch"),
  })

// The size of the browser's own frame around the viewport, per binary and headless mode, as the last
// launch measured it: the next launch's window is sized with it and needs no resize.
const windowFrames = new Map<string, { readonly width: number; readonly height: number }>()

/**
 * Moves the session into a tab of a fresh browser context and closes the first tab. The profile's
 * own context keeps a disk cache and a cookie store that cost Chromium's network service about 22 ms
 * of CPU per real-page load; a launched profile is thrown away on close anyway, so nothing it could
 * keep is lost. Answers the context's id.
 */
const freshContext = (browser: WebdriverIO.Browser, bidi: boolean) =>
  Effect.tryPromise({
    try: async () => switchToFreshContext(browser, bidi, { tab: await browser.getWindowHandle() }),
    catch: toDriverError("launch"),
  })

/**
 * The launch options a driver with `driver` options needs: a BiDi channel when it records traffic
 * and the caller did not choose one.
 */
export const launchOptionsFor = (
  options: LaunchOptions,
  driver: { readonly recordTraffic?: boolean | undefined } | undefined,
): LaunchOptions =>
  options.bidi === undefined && driver?.recordTraffic === true ? { ...options, bidi: true } : options

/**
 * Launches headless Chromium through the system ChromeDriver in a Scope. Closing the scope ends
 * the session, ChromeDriver and every Chromium process, and removes the temporary profile.
 * Nothing is ever downloaded: a missing binary fails with a message naming its env var.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { launch } from "@sextant/webdriverio"
 * const title = Effect.scoped(
 *   Effect.gen(function* () {
 *     const session = yield* launch({})
 *     yield* Effect.promise(() => session.browser.url("http://127.0.0.1:4000/"))
 *     return yield* Effect.promise(() => session.browser.getTitle())
 *   }),
 * )
 * ```
 */
export const launch = Effect.fn("webdriverio.launch")(function* (input: LaunchOptions = {}) {
  const options = yield* decode(LaunchOptions, "launch", input)
  const binaries = resolveBinaries(options)
  const chrome = yield* executable(binaries.chrome, "SEXTANT_CHROME", "Chromium")
  const shared = options.chromedriver
  const chromedriverPath =
    shared === undefined
      ? yield* executable(binaries.chromedriver, "SEXTANT_CHROMEDRIVER", "ChromeDriver")
      : shared.binary
  // Browsers left by a Sextant process that was killed outright are ended before a new one starts.
  yield* Effect.sync(sweepOnce)

  const profileDir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(profileFolderPrefix())),
    (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true })),
  )
  // Sextant starts Chromium itself while ChromeDriver starts, and ChromeDriver attaches to it
  // (`debuggerAddress`); a BiDi session has ChromeDriver launch Chromium, as its mapper needs.
  const attach = !options.bidi
  // Ends the browser with the session, and on Node's exit, when no ChromeDriver of its own does.
  if (shared !== undefined || attach) {
    yield* Effect.acquireRelease(
      Effect.sync(() => trackBrowser(profileDir)),
      (untrack) =>
        Effect.sync(() => {
          stopBrowser(profileDir)
          untrack()
        }),
    )
  }
  if (options.watchdog) {
    yield* Effect.acquireRelease(
      Effect.sync(() => startWatchdog(profileDir, `${OWNER_ENV}=${ownerId()}`)),
      (watchdog) => Effect.sync(() => watchdog?.release()),
    )
  }
  const frame = windowFrames.get(`${chrome} ${options.headless}`)
  const args = [
    ...(options.headless
      ? defaultChromeArgs
      : defaultChromeArgs.filter((arg) => arg !== "--headless=new")
    ).map((arg) =>
      attach && arg.startsWith("--disable-features=")
        ? `${arg},${chromedriverDisabledFeatures.join(",")}`
        : arg,
    ),
    ...(attach ? chromedriverSwitches : []),
    // The window is sized so the viewport comes out right at once when an earlier launch measured
    // the browser's frame; otherwise fitViewport corrects it.
    `--window-size=${options.windowSize.width + (frame?.width ?? 0)},${options.windowSize.height + (frame?.height ?? 0)}`,
    `--user-data-dir=${profileDir}`,
    ...options.args,
  ]
  // A shared ChromeDriver outlives the session: closing ends only this session's Chromium.
  const [chromedriver, chromium] = yield* Effect.all(
    [
      shared === undefined
        ? Effect.acquireRelease(
            startChromedriver(chromedriverPath, profileDir, options.startTimeoutMs),
            (started) => Effect.sync(() => stopProcesses(started.process, profileDir)),
          ).pipe(Effect.map(ownChromedriver))
        : shared.running,
      attach
        ? Effect.tryPromise({
            try: () => startChromium(chrome, args, profileDir, options.startTimeoutMs),
            catch: (cause) =>
              new DriverError({
                method: "launch",
                reason: new DriverCrashed({
                  detail: `Chromium at ${chrome} did not start: ${causeMessage(cause)}`,
                }),
                cause,
              }),
          })
        : Effect.succeed(undefined),
    ],
    { concurrency: 2 },
  )
  let browserPid: number | undefined = chromium?.process.pid
  const chromedriverPid = chromedriver.pid
  const crashed = (): string | undefined => {
    const driverExit = chromedriver.exited()
    if (driverExit !== undefined) return driverExit
    if (browserPid !== undefined && !isRunning(browserPid)) return `Chromium (pid ${browserPid}) exited`
    return undefined
  }
  // WebdriverIO's own preload scripts come out of the sessions Sextant launches (LibraryPreloads).
  const preloads = options.bidi ? watchLibraryPreloads() : undefined
  const session = Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        remote(
          {
            hostname: "127.0.0.1",
            port: chromedriver.port,
            logLevel: options.logLevel,
            connectionRetryCount: 0,
            capabilities: {
              browserName: "chrome",
              webSocketUrl: options.bidi,
              "wdio:enforceWebDriverClassic": !options.bidi,
              unhandledPromptBehavior: "ignore",
              "goog:chromeOptions":
                chromium === undefined
                  ? { binary: chrome, args }
                  : { debuggerAddress: chromium.debuggerAddress },
            },
          },
          preloads?.modifier,
        ).then(takeOverCommands),
      catch: (cause) =>
        new DriverError({
          method: "launch",
          reason: new DriverCrashed({
            detail: `Chromium at ${chrome} did not start: ${causeMessage(cause).split("\n")[0]}`,
          }),
          cause,
        }),
    }).pipe(
      Effect.timeoutOrElse({
        duration: options.startTimeoutMs,
        orElse: () =>
          Effect.fail(
            new DriverError({
              method: "launch",
              reason: new DriverCrashed({
                detail: `Chromium did not start within ${options.startTimeoutMs} ms`,
              }),
            }),
          ),
      }),
    ),
    (opened) => endSession(opened, { unreachable: chromedriver.exited, crashed }),
  )
  let browser: WebdriverIO.Browser
  let browserContext: string
  if (chromium === undefined) {
    browser = yield* session
    if (preloads !== undefined) yield* Effect.promise(() => preloads.remove(browser))
    browserContext = yield* freshContext(browser, options.bidi)
  } else {
    // The session's tab and its fresh context are made on the browser's socket while ChromeDriver
    // attaches; the first tab is closed once the session is in the new one.
    const sockets = devtoolsSocketsAt(chromium.debuggerAddress)
    ;[browser, browserContext] = yield* Effect.gen(function* () {
      const [attached, made] = yield* Effect.all(
        [session, Effect.tryPromise({ try: () => openContextTab(sockets), catch: toDriverError("launch") })],
        { concurrency: 2 },
      )
      yield* Effect.tryPromise({
        try: async () => {
          await attached.switchToWindow(made.tab)
          for (const other of await listTabs(sockets)) {
            if (typeof other.targetId === "string" && other.targetId !== made.tab) {
              await closeAndWait(sockets, { tab: other.targetId })
            }
          }
        },
        catch: toDriverError("launch"),
      })
      return [attached, made.context] as const
    }).pipe(Effect.ensuring(Effect.sync(() => sockets.close())))
  }
  yield* fitViewport(browser, options.windowSize, `${chrome} ${options.headless}`)
  browserPid ??= browserProcess(profileDir)
  return {
    browser,
    kind: "launched",
    profileDir,
    browserContext,
    chromedriverPid,
    ...(browserPid === undefined ? {} : { browserPid }),
    crashed,
  } satisfies DriverSession as DriverSession
})

/**
 * Opens a session on any remote WebDriver endpoint (Selenium Grid, a cloud grid, a ChromeDriver
 * you started) in a Scope; closing the scope ends the session.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { connect } from "@sextant/webdriverio"
 * const program = Effect.scoped(
 *   Effect.gen(function* () {
 *     const session = yield* connect({ hostname: "grid.internal", port: 4444, path: "/wd/hub" })
 *     return session.browser.sessionId
 *   }),
 * )
 * ```
 */
export const connect = Effect.fn("webdriverio.connect")(function* (input: ConnectOptions) {
  const options = yield* decode(ConnectOptions, "connect", input)
  const endpoint = `${options.protocol}://${options.hostname}:${options.port}${options.path}`
  return yield* openRemote(
    options,
    (sessionId, answer) => `the WebDriver session ${sessionId} at ${endpoint} no longer answers (${answer})`,
  )
})

/** Opens the session of {@link connect}; `lostAs` words what a probe found lost. */
const openRemote = Effect.fnUntraced(function* (
  options: z.output<typeof ConnectOptions>,
  lostAs: (sessionId: string, answer: string) => string,
) {
  const capabilities = options.capabilities ?? {
    browserName: "chrome",
    unhandledPromptBehavior: "ignore",
    "goog:chromeOptions": { args: [...defaultChromeArgs] },
  }
  // What was lost once a probe found the session gone: then closing waits for the remote end only as
  // long as for a dead browser. It still asks: a grid's router that could not reach a node for a moment
  // would otherwise leave the session running there, holding the node's slot until the grid's own timeout.
  let lost: string | undefined
  const browser = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        remote({
          hostname: options.hostname,
          port: options.port,
          path: options.path,
          protocol: options.protocol,
          logLevel: options.logLevel,
          connectionRetryCount: 0,
          ...(options.headers === undefined ? {} : { headers: options.headers }),
          ...(options.user === undefined ? {} : { user: options.user }),
          ...(options.key === undefined ? {} : { key: options.key }),
          capabilities: {
            webSocketUrl: options.bidi,
            "wdio:enforceWebDriverClassic": !options.bidi,
            ...capabilities,
          } as WebdriverIO.Capabilities,
        }).then(takeOverCommands),
      catch: (cause) => {
        const mapped = toDriverError("connect", {
          target: `${options.protocol}://${options.hostname}:${options.port}${options.path}`,
        })(cause)
        return mapped.reason._tag === "DriverUnknown"
          ? new DriverError({
              method: "connect",
              reason: new DriverCrashed({
                detail: `no WebDriver session at ${options.protocol}://${options.hostname}:${options.port}${options.path}: ${mapped.reason.detail}`,
              }),
              cause,
            })
          : mapped
      },
    }),
    (opened) => endSession(opened, { unreachable: () => undefined, crashed: () => lost }),
  )
  return {
    browser,
    kind: "connected",
    crashed: () => lost,
    probe: async () => {
      if (lost === undefined) {
        const answer = await probeSession(browser)
        if (answer !== undefined) lost = lostAs(browser.sessionId, answer)
      }
      return lost
    },
  } satisfies DriverSession as DriverSession
})

/** How long {@link probeSession} waits for the remote end's answer, in ms. */
const PROBE_TIMEOUT_MS = 3_000

/**
 * Asks a remote session for its window handle (one Classic command, which the remote end answers at
 * once unless a page load holds it): answers the W3C code and detail when the remote end says the
 * session is gone or cannot be reached, and undefined when it answers, or only the window is gone, or
 * the question timed out (a page still loading is no lost session).
 */
const probeSession = async (browser: WebdriverIO.Browser): Promise<string | undefined> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([
      browser.getWindowHandle(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, PROBE_TIMEOUT_MS)
      }),
    ])
    return undefined
  } catch (error) {
    const found = errorCode(error)
    if (found === undefined) return undefined
    return found.code === "unknown error" ||
      found.code === "invalid session id" ||
      found.code === "connection lost"
      ? `${found.code}: ${found.detail}`
      : undefined
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Wraps a WebdriverIO browser you already have (e.g. `browser` inside a WDIO test). Sextant never
 * ends it: closing what you build on it leaves the session running.
 *
 * @example
 * ```ts
 * import { fromBrowser } from "@sextant/webdriverio"
 * const session = fromBrowser(browser)
 * ```
 */
export const fromBrowser = (browser: WebdriverIO.Browser): DriverSession => ({ browser, kind: "wrapped" })

export {
  /** Ends browsers (and profiles) whose owning Node process died; see {@link launch}. */
  OWNER_ENV,
  type Reaped,
  reapOrphans,
} from "./internal/Processes.ts"

/** Options of {@link launch} with defaults applied. */
export type ResolvedLaunchOptions = z.output<typeof LaunchOptions>

/** Options of {@link connectGrid}: a Selenium Grid 4 and the Chromium sessions Sextant asks it for. */
export const GridOptions = z.object({
  /** The grid's URL (the hub or router), e.g. `http://grid.internal:4444`; `user:password@` becomes Basic auth. */
  url: z.url({
    protocol: /^https?$/,
    error: "must be the grid's http or https URL, e.g. http://127.0.0.1:4444",
  }),
  /**
   * The Chromium binary on the node (`goog:chromeOptions.binary`). Default: none sent, so the node's
   * own stereotype or ChromeDriver's search decides (a node started as in the README says `/usr/bin/chromium`).
   */
  chromePath: z.string().min(1).optional(),
  /** Run without a window (default true). */
  headless: z.boolean().default(true),
  /** Extra Chromium flags, after Sextant's defaults. */
  args: z.array(z.string()).default([]),
  /** The viewport size in CSS pixels. */
  windowSize: z
    .object({ width: z.number().int().positive(), height: z.number().int().positive() })
    .default({ width: 1280, height: 800 }),
  /** Ask for a WebDriver BiDi channel, which the grid proxies (default true). */
  bidi: z.boolean().default(true),
  /** Further capabilities merged into the request (`platformName`, `se:name`, …). */
  capabilities: z.record(z.string(), z.unknown()).optional(),
  /** Request headers, e.g. the grid's authentication. */
  headers: z.record(z.string(), z.string()).optional(),
  /** How long the grid may take to start a session (it queues requests while every slot is busy), in ms. */
  startTimeoutMs: z.number().int().positive().default(60_000),
  logLevel: logLevel.default("silent"),
})
export type GridOptions = z.input<typeof GridOptions>

const GridStatus = z.object({
  value: z.object({
    ready: z.boolean().optional(),
    message: z.string().optional(),
    nodes: z.array(
      z.object({
        id: z.string(),
        uri: z.string(),
        availability: z.string().optional(),
        slots: z
          .array(
            z.object({
              stereotype: z.record(z.string(), z.unknown()).optional(),
              session: z.object({ sessionId: z.string() }).nullable().optional(),
            }),
          )
          .default([]),
      }),
    ),
  }),
})
type GridStatus = z.output<typeof GridStatus>

/** How long the grid's `/status` may take to answer, in ms. */
const STATUS_TIMEOUT_MS = 5_000

const gridFailure = (detail: string, cause?: unknown) =>
  new DriverError({ method: "connectGrid", reason: new InvalidArgument({ detail }), cause })

/** The grid's URL without credentials or a trailing slash, as messages name it. */
const shownUrl = (url: URL): string => `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`

/** Reads the grid's `/status`, or fails saying the URL holds no Selenium Grid. */
const gridStatus = (url: URL, headers: Record<string, string>) =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(`${shownUrl(url)}/status`, {
        headers,
        signal: AbortSignal.any([signal, AbortSignal.timeout(STATUS_TIMEOUT_MS)]),
      })
      return { status: response.status, body: await response.text() }
    },
    catch: (cause) =>
      gridFailure(
        `no Selenium Grid answers at ${shownUrl(url)} (GET /status: ${describeFetchError(cause)}): start the grid, or give the URL and port its hub or router listens on`,
        cause,
      ),
  }).pipe(
    Effect.flatMap(({ status, body }) => {
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
      const parsed = GridStatus.safeParse(json)
      return parsed.success
        ? Effect.succeed(parsed.data)
        : Effect.fail(
            gridFailure(
              `${shownUrl(url)} is not a Selenium Grid 4 (GET /status answered HTTP ${status}${parsed.error.issues[0] === undefined ? "" : `, ${parsed.error.issues[0].path.join(".")}: ${parsed.error.issues[0].message}`}): give the URL of the grid's hub or router, e.g. http://grid.internal:4444`,
            ),
          )
    }),
  )

const describeFetchError = (cause: unknown): string => {
  const inner = (cause as { readonly cause?: { readonly code?: unknown; readonly message?: unknown } } | null)
    ?.cause
  if (typeof inner?.code === "string") return inner.code
  // fetch refuses some ports itself (9, 25, …: the Fetch standard's bad ports) before connecting.
  if (typeof inner?.message === "string" && inner.message !== "") return inner.message
  if (cause instanceof Error && cause.name === "TimeoutError")
    return `no answer within ${STATUS_TIMEOUT_MS} ms`
  return causeMessage(cause)
}

/** What the grid's nodes that are up offer, by browser name, for the message when none offers Chrome. */
const offered = (status: GridStatus): ReadonlyArray<string> =>
  status.value.nodes.flatMap((node) =>
    node.availability === undefined || node.availability === "UP"
      ? node.slots.map((slot) => String(slot.stereotype?.browserName ?? "(no browserName)"))
      : [],
  )

/** The node holding `sessionId`, as the grid's status lists it. */
export const gridNodeOf = (status: unknown, sessionId: string): GridPlacement["node"] => {
  const parsed = GridStatus.safeParse(status)
  if (!parsed.success) return undefined
  const node = parsed.data.value.nodes.find((candidate) =>
    candidate.slots.some((slot) => slot.session?.sessionId === sessionId),
  )
  return node === undefined ? undefined : { id: node.id, uri: node.uri }
}

/**
 * Opens a headless Chromium session on a Selenium Grid 4 in a Scope: the grid is asked first whether it
 * answers and has a node that offers Chrome (so a wrong URL or a grid without such a node fails at
 * once, saying what to do, instead of waiting in the grid's queue), then for a session with Sextant's
 * Chromium flags; the session knows the node it landed on (`session.grid.node`). A node lost while the
 * session runs fails the driver's calls with `DriverCrashed` naming the node; a new session lands on
 * a node that is still up. The Chrome DevTools features that need the browser's debugger port (the
 * request guard of `guardSecrets`, tab-crash events) are not available through a grid: the port is
 * the node's own loopback. `guardSecrets` says so rather than guard nothing.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { connectGrid, makeDriver } from "@sextant/webdriverio"
 * const program = Effect.scoped(
 *   Effect.gen(function* () {
 *     const session = yield* connectGrid({ url: "http://grid.internal:4444" })
 *     const driver = yield* makeDriver(session)
 *     yield* driver.navigate("https://example.com/")
 *     return session.grid?.node?.uri
 *   }),
 * )
 * ```
 */
export const connectGrid = Effect.fn("webdriverio.connectGrid")(function* (input: GridOptions) {
  const options = yield* decode(GridOptions, "connectGrid", input)
  const url = new URL(options.url)
  const basic: Record<string, string> =
    url.username === ""
      ? {}
      : {
          Authorization: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`,
        }
  const headers = { ...basic, ...(options.headers ?? {}) }
  const shown = shownUrl(url)
  const status = yield* gridStatus(url, headers)
  const browsers = offered(status)
  if (!browsers.some((name) => name.toLowerCase() === "chrome")) {
    return yield* gridFailure(
      browsers.length === 0
        ? `the Selenium Grid at ${shown} has no node that is up: start a node with Chromium and ChromeDriver (java -jar selenium-server.jar node --hub …) and try again`
        : `the Selenium Grid at ${shown} has no node that offers Chrome (its nodes offer: ${[...new Set(browsers)].join(", ")}): start a node with Chromium and ChromeDriver`,
    )
  }
  const args = [
    ...(options.headless ? defaultChromeArgs : defaultChromeArgs.filter((arg) => arg !== "--headless=new")),
    `--window-size=${options.windowSize.width},${options.windowSize.height}`,
    ...options.args,
  ]
  // Named once the session exists and the grid says where it landed.
  let where = `on the Selenium Grid at ${shown}`
  const session = yield* openRemote(
    {
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port),
      path: url.pathname === "" ? "/" : url.pathname,
      protocol: url.protocol === "https:" ? "https" : "http",
      bidi: options.bidi,
      logLevel: options.logLevel,
      ...(Object.keys(headers).length === 0 ? {} : { headers }),
      capabilities: {
        browserName: "chrome",
        unhandledPromptBehavior: "ignore",
        "goog:chromeOptions": {
          args,
          ...(options.chromePath === undefined ? {} : { binary: options.chromePath }),
        },
        ...(options.capabilities ?? {}),
      },
    },
    (sessionId, answer) =>
      `session ${sessionId} ${where} no longer answers: the node is gone or lost its browser (${answer})`,
  ).pipe(
    Effect.timeoutOrElse({
      duration: options.startTimeoutMs,
      orElse: () =>
        Effect.fail(
          new DriverError({
            method: "connectGrid",
            reason: new DriverCrashed({
              detail: `the Selenium Grid at ${shown} started no session within ${options.startTimeoutMs} ms (every node that offers Chrome may be busy): try again later, add nodes, or raise startTimeoutMs`,
            }),
          }),
        ),
    }),
  )
  yield* fitViewport(session.browser, options.windowSize, `grid ${shown}`)
  const placed = yield* gridStatus(url, headers).pipe(
    Effect.map((answer) => gridNodeOf(answer, session.browser.sessionId)),
    Effect.orElseSucceed(() => undefined),
  )
  if (placed !== undefined) where = `on the Selenium Grid node ${placed.uri} (id ${placed.id})`
  return { ...session, grid: { url: shown, node: placed } } satisfies DriverSession as DriverSession
})
