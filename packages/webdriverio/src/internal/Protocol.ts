import type { DevtoolsSockets } from "./DevtoolsSocket.ts"

/** A script that threw in the page, carrying the W3C code a Classic driver would have answered. */
export class PageScriptException extends Error {
  readonly error = "javascript error"
}

/**
 * The protocol paths one session offers, found once at the start: Chrome DevTools commands through
 * ChromeDriver for page scripts and text input when the endpoint allows them, BiDi for pointer
 * actions, events and the preload script when the session has a BiDi channel (and for scripts when
 * it has no DevTools endpoint), and WebDriver Classic for everything else.
 */
export interface Channels {
  readonly bidi: boolean
  readonly cdp: boolean
  /** The tabs' own DevTools sockets, when Chrome's debugger address is known (a local Chromium). */
  readonly sockets?: DevtoolsSockets
  /**
   * Whether the tabs' sockets stand in for BiDi: a Chromium Sextant launched without BiDi, whose
   * dialogs and new tabs are heard there and whose ordered DevTools commands (input beside a
   * waiting script) go there.
   */
  readonly tabEvents?: boolean
}

/** The tab's own socket, when it stands in for BiDi; without it, sends take the usual path. */
export const tabSocket = (channels: Channels): DevtoolsSockets | undefined =>
  channels.tabEvents === true ? channels.sockets : undefined

/** A pointer or key action in the W3C actions format (shared by Classic and BiDi). */
export type ActionSource =
  | {
      readonly type: "pointer"
      readonly id: string
      readonly parameters: { readonly pointerType: "mouse" }
      readonly actions: ReadonlyArray<Record<string, unknown>>
    }
  | { readonly type: "key"; readonly id: string; readonly actions: ReadonlyArray<Record<string, unknown>> }
  | { readonly type: "wheel"; readonly id: string; readonly actions: ReadonlyArray<Record<string, unknown>> }

interface BidiResult {
  readonly type: "success" | "exception"
  readonly result?: { readonly type: string; readonly value?: unknown }
  readonly exceptionDetails?: { readonly text?: string }
}

interface CdpEvaluation {
  readonly result?: { readonly type: string; readonly value?: unknown }
  readonly exceptionDetails?: {
    readonly text?: string
    readonly exception?: { readonly description?: string }
  }
}

interface BidiSender {
  readonly send: (command: {
    readonly method: string
    readonly params: Record<string, unknown>
  }) => Promise<{ readonly result?: Record<string, unknown> }>
}

// WebdriverIO's BiDi connection, which sends any command and emits it like its own (so request
// counts and logs see it); absent on a session without BiDi.
const bidiSender = (browser: WebdriverIO.Browser): BidiSender | undefined => {
  const handler = (browser as unknown as { readonly _bidiHandler?: Partial<BidiSender> })._bidiHandler
  return typeof handler?.send === "function" ? (handler as BidiSender) : undefined
}

const devtoolsSessions = new WeakMap<WebdriverIO.Browser, Map<string, Promise<string | undefined>>>()

// The DevTools session of a tab, found once through ChromeDriver's BiDi `goog:cdp.getSession`.
const devtoolsSession = (
  browser: WebdriverIO.Browser,
  sender: BidiSender,
  context: string,
): Promise<string | undefined> => {
  let sessions = devtoolsSessions.get(browser)
  if (sessions === undefined) {
    sessions = new Map()
    devtoolsSessions.set(browser, sessions)
  }
  let session = sessions.get(context)
  if (session === undefined) {
    session = sender
      .send({ method: "goog:cdp.getSession", params: { context } })
      .then((answer) => {
        const id = answer.result?.session
        return typeof id === "string" ? id : undefined
      })
      .catch(() => undefined)
    sessions.set(context, session)
  }
  return session
}

/**
 * Whether DevTools commands go over the BiDi socket for the tab `context`, so that a page script
 * can wait there for input sent beside it.
 */
export const inputAlongsideScripts = async (
  browser: WebdriverIO.Browser,
  channels: Channels,
  context: string,
): Promise<boolean> => {
  const socket = tabSocket(channels)
  if (socket !== undefined) return (await socket.sendOnce(context, "Page.enable", {})) !== undefined
  const sender = channels.cdp && channels.bidi ? bidiSender(browser) : undefined
  return sender !== undefined && (await devtoolsSession(browser, sender, context)) !== undefined
}

/**
 * Sends one Chrome DevTools command with a small answer to the tab `context`: over the tab's own
 * socket when it stands in for BiDi, else over the BiDi socket (`goog:cdp.sendCommand`) when the
 * session has one; either keeps commands in the order they were sent and costs no HTTP request
 * (0.35 ms less than the endpoint). Else through ChromeDriver's `goog/cdp/execute` endpoint.
 */
export const devtools = async (
  browser: WebdriverIO.Browser,
  channels: Channels,
  context: string,
  method: string,
  params: Record<string, unknown>,
): Promise<unknown> => {
  const sent = await tabSocket(channels)?.send(context, method, params)
  if (sent !== undefined) return sent.result
  const sender = channels.bidi ? bidiSender(browser) : undefined
  const session = sender === undefined ? undefined : await devtoolsSession(browser, sender, context)
  if (sender === undefined || session === undefined) return browser.sendCommandAndGetResult(method, params)
  const answer = await sender.send({ method: "goog:cdp.sendCommand", params: { method, params, session } })
  return answer.result?.result
}

/**
 * Calls a function declaration in the page with string arguments; one round trip on every path.
 * Chrome DevTools `Runtime.evaluate` through ChromeDriver's endpoint comes first when the session
 * allows it: it answers a JSON string without BiDi's remote-value serialisation (3 ms less on a
 * small page, 140 ms less on a large one), and without the BiDi mapper's copy of the answer that
 * makes `goog:cdp.sendCommand` 0.5 ms slower on a small page. It runs in the main world of the
 * window ChromeDriver has current, which the driver keeps equal to its BiDi context. `direct`
 * sends it on the tab's own DevTools socket first (2 ms less than ChromeDriver's HTTP hop), and
 * takes the usual path when that socket is missing or fails.
 */
export const callFunction = async (
  browser: WebdriverIO.Browser,
  channels: Channels,
  context: string,
  declaration: string,
  args: ReadonlyArray<string>,
  { viaSocket = false, direct = false }: { readonly viaSocket?: boolean; readonly direct?: boolean } = {},
): Promise<unknown> => {
  if (channels.cdp) {
    const evaluation = {
      expression: `(${declaration}).apply(null, ${JSON.stringify(args)})`,
      awaitPromise: true,
      returnByValue: true,
    }
    const sent =
      direct && channels.sockets !== undefined
        ? await channels.sockets.send(context, "Runtime.evaluate", evaluation)
        : undefined
    // viaSocket: a short answer, or a script waiting for input sent on the socket (ChromeDriver
    // runs one command at a time, so an HTTP call would hold the input back).
    const response = (
      sent !== undefined
        ? sent.result
        : viaSocket
          ? await devtools(browser, channels, context, "Runtime.evaluate", evaluation)
          : await browser.sendCommandAndGetResult("Runtime.evaluate", evaluation)
    ) as CdpEvaluation
    const exception = response.exceptionDetails
    if (exception !== undefined) {
      throw new PageScriptException(
        exception.exception?.description ?? exception.text ?? "the page script threw",
      )
    }
    return response.result?.value
  }
  if (channels.bidi) {
    const response = (await browser.scriptCallFunction({
      functionDeclaration: declaration,
      arguments: args.map((value) => ({ type: "string" as const, value })),
      target: { context },
      awaitPromise: true,
      resultOwnership: "none",
    })) as BidiResult
    if (response.type === "exception") {
      throw new PageScriptException(response.exceptionDetails?.text ?? "the page script threw")
    }
    return response.result?.value
  }
  return browser.executeScript(`return (${declaration}).apply(null, arguments)`, [...args])
}

/** Sends one W3C actions sequence: BiDi `input.performActions` or Classic `POST /actions`. */
export const performActions = async (
  browser: WebdriverIO.Browser,
  channels: Channels,
  context: string,
  actions: ReadonlyArray<ActionSource>,
): Promise<void> => {
  if (channels.bidi) {
    await browser.inputPerformActions({ context, actions: actions as never })
    return
  }
  await browser.performActions(actions as never)
}

/** A mouse click at viewport coordinates: move, press, release in one command. */
export const clickActions = (x: number, y: number, clickCount = 1): ReadonlyArray<ActionSource> => {
  const presses: Array<Record<string, unknown>> = []
  for (let index = 0; index < clickCount; index++) {
    presses.push({ type: "pointerDown", button: 0 }, { type: "pointerUp", button: 0 })
  }
  return [
    {
      type: "pointer",
      id: "sextant-mouse",
      parameters: { pointerType: "mouse" },
      actions: [{ type: "pointerMove", x: Math.round(x), y: Math.round(y), origin: "viewport" }, ...presses],
    },
  ]
}

/**
 * A trusted mouse click at viewport coordinates by the fastest path the session has: Chrome
 * DevTools `Input.dispatchMouseEvent` (move, press, release) sent back to back on the tab's own
 * socket (when it stands in for BiDi) or the BiDi socket,
 * else one BiDi `input.performActions`, else the three DevTools commands through ChromeDriver's
 * endpoint, else Classic `POST /actions`. Back to back, the press need not wait for the frame a
 * move waits for, and the socket keeps the three in order.
 */
export const click = async (
  browser: WebdriverIO.Browser,
  channels: Channels,
  context: string,
  x: number,
  y: number,
): Promise<void> => {
  const at = { x: Math.round(x), y: Math.round(y) }
  const events = [
    { type: "mouseMoved", ...at },
    { type: "mousePressed", ...at, button: "left", buttons: 1, clickCount: 1 },
    { type: "mouseReleased", ...at, button: "left", buttons: 0, clickCount: 1 },
  ]
  const socket = tabSocket(channels)
  if (socket !== undefined) {
    const sent = await Promise.all(
      events.map((event) => socket.send(context, "Input.dispatchMouseEvent", event)),
    )
    if (sent.every((answer) => answer !== undefined)) return
    // Part of it landed: sending it again would click twice.
    if (sent.some((answer) => answer !== undefined)) {
      throw new Error("the browser took only part of the click (Input.dispatchMouseEvent)")
    }
  }
  const sender = channels.cdp && channels.bidi ? bidiSender(browser) : undefined
  const session = sender === undefined ? undefined : await devtoolsSession(browser, sender, context)
  if (sender !== undefined && session !== undefined) {
    await Promise.all(
      events.map((event) =>
        sender.send({
          method: "goog:cdp.sendCommand",
          params: { method: "Input.dispatchMouseEvent", params: event, session },
        }),
      ),
    )
    return
  }
  if (channels.bidi || !channels.cdp) {
    await performActions(browser, channels, context, clickActions(x, y))
    return
  }
  for (const event of events) await browser.sendCommandAndGetResult("Input.dispatchMouseEvent", event)
}

/** A mouse move to viewport coordinates. */
export const moveActions = (x: number, y: number): ReadonlyArray<ActionSource> => [
  {
    type: "pointer",
    id: "sextant-mouse",
    parameters: { pointerType: "mouse" },
    // A move to where the pointer already is sends no mouse event: a pointer left on that spot by
    // the page before would never enter the element. Coming from a pixel beside it always does.
    actions: [
      { type: "pointerMove", x: Math.max(0, Math.round(x) - 1), y: Math.round(y), origin: "viewport" },
      { type: "pointerMove", x: Math.round(x), y: Math.round(y), origin: "viewport" },
    ],
  },
]

/** WebDriver's code points for named keys. */
export const namedKeys: Readonly<Record<string, string>> = {
  Backspace: "\uE003",
  Tab: "\uE004",
  Enter: "\uE007",
  Shift: "\uE008",
  Control: "\uE009",
  Alt: "\uE00A",
  Pause: "\uE00B",
  Escape: "\uE00C",
  Space: "\uE00D",
  " ": "\uE00D",
  PageUp: "\uE00E",
  PageDown: "\uE00F",
  End: "\uE010",
  Home: "\uE011",
  ArrowLeft: "\uE012",
  ArrowUp: "\uE013",
  ArrowRight: "\uE014",
  ArrowDown: "\uE015",
  Insert: "\uE016",
  Delete: "\uE017",
  Meta: "\uE03D",
  F1: "\uE031",
  F2: "\uE032",
  F3: "\uE033",
  F4: "\uE034",
  F5: "\uE035",
  F6: "\uE036",
  F7: "\uE037",
  F8: "\uE038",
  F9: "\uE039",
  F10: "\uE03A",
  F11: "\uE03B",
  F12: "\uE03C",
}

const aliases: Readonly<Record<string, string>> = {
  Return: "Enter",
  Esc: "Escape",
  Ctrl: "Control",
  Cmd: "Meta",
  Command: "Meta",
  Option: "Alt",
  Del: "Delete",
  Up: "ArrowUp",
  Down: "ArrowDown",
  Left: "ArrowLeft",
  Right: "ArrowRight",
}

/**
 * The key values of a chord such as `Enter`, `Control+a` or `Shift+Tab`, or undefined when a part
 * is neither a named key nor a single character.
 */
export const chordKeys = (chord: string): ReadonlyArray<string> | undefined => {
  const parts = chord === "+" ? ["+"] : chord.split("+").filter((part) => part !== "")
  const keys: Array<string> = []
  for (const part of parts) {
    const name = aliases[part] ?? part
    const named = namedKeys[name]
    if (named !== undefined) keys.push(named)
    else if ([...part].length === 1) keys.push(part)
    else return undefined
  }
  return keys.length === 0 ? undefined : keys
}

/** Presses a chord: every key down in order, then up in reverse. Repeated `times`. */
export const keyActions = (keys: ReadonlyArray<string>, times = 1): ReadonlyArray<ActionSource> => {
  const actions: Array<Record<string, unknown>> = []
  for (let round = 0; round < times; round++) {
    for (const key of keys) actions.push({ type: "keyDown", value: key })
    for (const key of [...keys].reverse()) actions.push({ type: "keyUp", value: key })
  }
  return [{ type: "key", id: "sextant-keyboard", actions }]
}

/** Types text as key presses, one per character. */
export const typeActions = (text: string): ReadonlyArray<ActionSource> => {
  const actions: Array<Record<string, unknown>> = []
  for (const character of text) {
    const value = character === "\n" ? namedKeys.Enter! : character === "\t" ? namedKeys.Tab! : character
    actions.push({ type: "keyDown", value }, { type: "keyUp", value })
  }
  return [{ type: "key", id: "sextant-keyboard", actions }]
}

/**
 * Inserts text at the caret as the browser does for an IME commit: Chrome DevTools
 * `Input.insertText` through ChromeDriver when allowed (trusted `beforeinput`/`input`, one command),
 * else typed key presses.
 */
export const insertText = async (
  browser: WebdriverIO.Browser,
  channels: Channels,
  context: string,
  text: string,
): Promise<void> => {
  if (text === "") return
  if (channels.cdp) {
    await devtools(browser, channels, context, "Input.insertText", { text })
    return
  }
  await performActions(browser, channels, context, typeActions(text))
}

/** Whether ChromeDriver forwards Chrome DevTools commands for this session (a grid may not). */
export const probeCdp = async (browser: WebdriverIO.Browser): Promise<boolean> => {
  try {
    await browser.sendCommandAndGetResult("Runtime.evaluate", { expression: "1", returnByValue: true })
    return true
  } catch {
    return false
  }
}

/**
 * Press at one point, move in steps, release at another: a drag of an element, or a text selection
 * from its first to its last character. The steps and pauses let pointer-event drag libraries see moves.
 */
export const dragActions = (x: number, y: number, toX: number, toY: number): ReadonlyArray<ActionSource> => {
  const steps = 5
  const moves: Array<Record<string, unknown>> = []
  for (let step = 1; step <= steps; step++) {
    moves.push({
      type: "pointerMove",
      x: Math.round(x + ((toX - x) * step) / steps),
      y: Math.round(y + ((toY - y) * step) / steps),
      origin: "viewport",
      duration: 20,
    })
  }
  return [
    {
      type: "pointer",
      id: "sextant-mouse",
      parameters: { pointerType: "mouse" },
      actions: [
        { type: "pointerMove", x: Math.round(x), y: Math.round(y), origin: "viewport" },
        { type: "pointerDown", button: 0 },
        { type: "pause", duration: 30 },
        ...moves,
        { type: "pause", duration: 30 },
        { type: "pointerUp", button: 0 },
      ],
    },
  ]
}

/** A trusted mouse wheel over a point: scrolls whatever scrolls under it (a list, a text area, a box). */
export const wheelActions = (x: number, y: number, deltaY: number): ReadonlyArray<ActionSource> => [
  {
    type: "wheel",
    id: "sextant-wheel",
    actions: [
      {
        type: "scroll",
        x: Math.round(x),
        y: Math.round(y),
        deltaX: 0,
        deltaY: Math.round(deltaY),
        origin: "viewport",
      },
    ],
  },
]
