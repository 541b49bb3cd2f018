import { devtoolsSocketEvent } from "../../src/internal/DevtoolsSocket.ts"

/** How many messages a session's client has sent, by channel; the counts grow as it sends. */
export interface MessageCounts {
  /** Commands on a tab's own DevTools socket. */
  socket: number
  /** WebDriver HTTP commands (DevTools commands sent through ChromeDriver among them). */
  http: number
  /** WebDriver BiDi messages. */
  bidi: number
}

/** Counts the messages `browser` sends from now on, on every channel the driver may use. */
export const countMessages = (browser: WebdriverIO.Browser): MessageCounts => {
  const counts: MessageCounts = { socket: 0, http: 0, bidi: 0 }
  browser.on(devtoolsSocketEvent as never, () => {
    counts.socket += 1
  })
  browser.on("request.start", () => {
    counts.http += 1
  })
  browser.on("bidiCommand", () => {
    counts.bidi += 1
  })
  return counts
}
