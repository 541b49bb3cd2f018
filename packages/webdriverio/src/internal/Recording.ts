import type {
  DriverRecording,
  PageSnapshot,
  RecordedAction,
  RecordedElement,
  RecordedExchange,
  Target,
} from "@sextant/core"

/** The longest body kept per exchange; a longer one is left out (the exchange is still recorded). */
const maxBodyBytes = 256 * 1024
/** Exchanges kept between two takes; older ones are dropped first. */
const maxExchanges = 500
/** Actions kept between two takes. */
const maxActions = 2_000

/** What the page script says of an element it acted on (see the runtime's `describe`). */
export interface DescribedElement {
  readonly role: string
  readonly name: string
  readonly selectors: ReadonlyArray<string>
}

/** Whether the snapshot the agent last saw says who the target is (so the page need not be asked). */
export const knowsTarget = (target: Target, snapshot: PageSnapshot | undefined): boolean =>
  snapshot !== undefined &&
  ("ref" in target
    ? snapshot.elements[target.ref] !== undefined
    : Object.values(snapshot.elements).some((element) => element.selectors.includes(target.selector)))

/**
 * The element a target names, as a script outside the run can find it: from the snapshot the agent
 * last saw (a ref's role, name and strongest selector), else from what the page script described when
 * it found the element (a tool's temporary marker selector is never kept), else the selector given.
 */
export const recordedElement = (
  target: Target,
  snapshot: PageSnapshot | undefined,
  described: DescribedElement | undefined,
): RecordedElement => {
  const known =
    snapshot === undefined
      ? undefined
      : "ref" in target
        ? snapshot.elements[target.ref]
        : Object.values(snapshot.elements).find((element) => element.selectors.includes(target.selector))
  if (known !== undefined)
    return {
      role: known.role,
      name: known.name,
      selector: "selector" in target ? target.selector : known.selectors[0],
      ...(known.frame.length > 0 ? { frame: known.frame } : {}),
    }
  if (described !== undefined)
    return {
      role: described.role,
      name: described.name,
      selector: described.selectors[0] ?? ("selector" in target ? target.selector : undefined),
    }
  return "selector" in target ? { selector: target.selector } : {}
}

interface Completed {
  readonly id: string
  readonly method: string
  readonly url: string
  readonly status: number
  readonly requestContentType: string | undefined
  readonly responseContentType: string
}

interface ResponseCompletedEvent {
  readonly request: {
    readonly request: string
    readonly method: string
    readonly url: string
    readonly headers?: ReadonlyArray<{ name: string; value: { type: string; value: string } }>
  }
  readonly response: { readonly status: number; readonly mimeType: string }
}

/** What the driver did since the last take: filled by the driver's operations, emptied by `take`. */
export interface Recorder {
  readonly push: (action: RecordedAction) => void
  readonly take: () => Promise<DriverRecording>
  readonly close: () => Promise<void>
}

const headerOf = (event: ResponseCompletedEvent, name: string): string | undefined =>
  event.request.headers?.find((header) => header.name.toLowerCase() === name)?.value.value

/**
 * A recorder; with `traffic`, it also keeps the page's JSON exchanges from WebDriver BiDi network
 * events, with their request and response bodies read through a network data collector.
 */
export const makeRecorder = async (
  browser: WebdriverIO.Browser | undefined,
  traffic: boolean,
): Promise<Recorder> => {
  let actions: Array<RecordedAction> = []
  let completed: Array<Completed> = []
  let collector: string | undefined
  const onCompleted = (event: ResponseCompletedEvent) => {
    const mimeType = event.response.mimeType.toLowerCase()
    if (!mimeType.includes("json")) return
    completed.push({
      id: event.request.request,
      method: event.request.method,
      url: event.request.url,
      status: event.response.status,
      requestContentType: headerOf(event, "content-type"),
      responseContentType: event.response.mimeType,
    })
    if (completed.length > maxExchanges) completed.shift()
  }
  if (traffic && browser !== undefined) {
    await browser.sessionSubscribe({ events: ["network.responseCompleted"] })
    collector = (
      await browser.networkAddDataCollector({
        // Request bodies are collected as well: BiDi names the data type per request or response.
        dataTypes: ["response", "request"] as Array<"response">,
        maxEncodedDataSize: maxBodyBytes,
      })
    ).collector
    browser.on("network.responseCompleted", onCompleted as never)
  }

  const body = async (id: string, dataType: "request" | "response"): Promise<string | undefined> => {
    if (browser === undefined || collector === undefined) return undefined
    const data = (await browser
      .networkGetData({ dataType: dataType as "response", request: id, collector })
      // A body the collector did not keep (too large, or a request without one) is left out.
      .catch(() => undefined)) as { bytes?: { type: string; value: string } } | undefined
    const bytes = data?.bytes
    if (bytes === undefined) return undefined
    return bytes.type === "base64" ? Buffer.from(bytes.value, "base64").toString("utf8") : bytes.value
  }

  return {
    push: (action) => {
      actions.push(action)
      if (actions.length > maxActions) actions.shift()
    },
    take: async () => {
      const taken = actions
      const finished = completed
      actions = []
      completed = []
      const exchanges: Array<RecordedExchange> = []
      for (const entry of finished) {
        const requestBody =
          entry.method === "GET" || entry.method === "HEAD" ? undefined : await body(entry.id, "request")
        const responseBody = await body(entry.id, "response")
        exchanges.push({
          method: entry.method,
          url: entry.url,
          status: entry.status,
          responseContentType: entry.responseContentType,
          ...(responseBody === undefined ? {} : { responseBody }),
          ...(requestBody === undefined
            ? {}
            : { requestBody, requestContentType: entry.requestContentType ?? "application/json" }),
        })
      }
      return { actions: taken, exchanges }
    },
    close: async () => {
      if (browser === undefined || collector === undefined) return
      browser.off("network.responseCompleted", onCompleted as never)
      await browser.networkRemoveDataCollector({ collector }).catch(() => undefined)
    },
  }
}
