/**
 * WebdriverIO answers each BiDi command through a promise with its own 180-second timer that is
 * never cleared when the session ends: a command the browser never answers (a script blocked by an
 * alert, a page that never loads, a killed browser) keeps Node alive for three minutes after
 * `close()`. Sextant sends every command of its sessions itself instead: answers are read off the
 * same socket, nothing holds a timer (time limits are the driver's, set per call), and a closed
 * socket or a closed session rejects whatever is pending at once.
 */

interface BidiPayload {
  readonly id?: number
  readonly type?: string
  readonly error?: string
  readonly message?: string
}

interface BidiHandler {
  send: (command: { readonly method: string; readonly params: unknown }) => Promise<unknown>
  readonly sendAsync: (command: { readonly method: string; readonly params: unknown }) => number
  readonly socket?: {
    readonly on: (event: string, listener: (data?: unknown) => void) => void
    readonly off: (event: string, listener: (data?: unknown) => void) => void
  }
  readonly close?: () => void
}

/** The error a pending command ends with when the connection goes: read as a lost driver. */
class ConnectionLost extends Error {
  readonly code = "ECONNRESET"
}

/** Ends every pending command and stops answering through the session's own handler. */
export interface BidiCommands {
  readonly release: () => void
}

/**
 * Takes over sending the session's BiDi commands (see the module comment). Returns undefined for a
 * session without a BiDi channel.
 */
export const ownBidiCommands = (browser: WebdriverIO.Browser): BidiCommands | undefined => {
  const handler = (browser as unknown as { readonly _bidiHandler?: BidiHandler })._bidiHandler
  if (handler === undefined || typeof handler.sendAsync !== "function") return undefined
  const pending = new Map<
    number,
    { resolve: (payload: BidiPayload) => void; reject: (error: Error) => void }
  >()
  let closed = false
  const rejectAll = (reason: string) => {
    closed = true
    for (const [id, waiter] of pending) {
      pending.delete(id)
      waiter.reject(new ConnectionLost(`WebDriver BiDi ${reason}`))
    }
  }
  const socket = handler.socket
  if (socket === undefined) return undefined
  const onMessage = (data: unknown) => {
    let payload: BidiPayload
    try {
      payload = JSON.parse(String(data)) as BidiPayload
    } catch {
      return
    }
    if (payload.id === undefined) return
    const waiter = pending.get(payload.id)
    if (waiter === undefined) return
    pending.delete(payload.id)
    waiter.resolve(payload)
  }
  const onClose = () => rejectAll("connection closed")
  socket.on("message", onMessage)
  socket.on("close", onClose)
  handler.send = async (command) => {
    if (closed) throw new ConnectionLost(`WebDriver BiDi connection closed before ${command.method}`)
    const id = handler.sendAsync(command)
    const payload = await new Promise<BidiPayload>((resolve, reject) => pending.set(id, { resolve, reject }))
    if (payload.type === "error" || payload.error !== undefined) {
      // The frame WebdriverIO itself writes, which DriverErrors reads the W3C code from.
      throw new Error(
        `WebDriver Bidi command "${command.method}" failed with error: ${payload.error} - ${payload.message ?? ""}`,
      )
    }
    return payload
  }
  return {
    release: () => {
      socket.off("message", onMessage)
      socket.off("close", onClose)
      rejectAll("session ended")
      handler.close?.()
    },
  }
}
