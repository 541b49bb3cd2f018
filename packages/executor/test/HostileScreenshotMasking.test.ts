import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { BrowserDriver, decodeAgentTask } from "@sextant/core"
import { withMaskedPage } from "@sextant/perception"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { loadRunReport, renderRunReport, type TraceRecord } from "../src/index.ts"
import { callsThenStop, startRig, type ToolCall } from "./support/HostileRig.ts"
import { temporaryDirectory } from "./support/TemporaryDirectory.ts"

/**
 * A run's screenshots go where no redactor reaches: into the trace folder, the report, and to the model
 * (the `screenshot` tool). On a page that shows a typed secret — a "show password" toggle turns the field
 * into a text field, a greeting echoes it ("Welcome, …") — they must not show it; and on a page that
 * cannot be masked, no screenshot is taken at all, the run goes on and says why. Real headless Chromium
 * (WebdriverIO), the model step policy through the real openai SDK against the scripted server.
 *
 * Two secrets of the same length with no character in common go into two identical fields, each echoed
 * into an identical greeting: drawn masked, each pair renders to the same pixels; drawn as text, the
 * different characters make the images differ.
 */

const FIRST = "hunter2-swordfish"
const SECOND = "QWXZVB7@KMPLNRJGY"

const rig = startRig({ attacker: false })

const tokenTask = (startUrl: string) =>
  Effect.runSync(
    decodeAgentTask({
      goal: "enter both tokens",
      startUrl,
      inputs: { first: FIRST, second: SECOND },
      secretInputs: ["first", "second"],
      constraints: { maxSteps: 12, stepTimeoutMs: 8_000, maxDurationMs: 60_000 },
    }),
  )

/** Runs the token task on `path` with a model that makes `calls`, a screenshot after each failed step. */
const run = async (path: string, calls: ReadonlyArray<ToolCall>) => {
  const directory = temporaryDirectory("sextant-screenshot-mask-")
  const events: Array<TraceRecord> = []
  rig.script(callsThenStop(calls))
  const result = await rig.runModel(tokenTask(`${rig.site.url}${path}`), {
    onEvent: (event) => events.push(event),
    screenshots: "on-failure",
    retry: { maxRetries: 0 },
    traceDirectory: directory,
  })
  const stepEnds = events.flatMap((event) => (event.type === "step-end" ? [event] : []))
  const shots = readdirSync(directory).filter((name) => name.endsWith(".png"))
  return { result, events, stepEnds, shots, directory }
}

const shotOf = (observation: { readonly data?: unknown } | undefined): string | undefined =>
  (observation?.data as { base64?: string } | undefined)?.base64

const typeBoth: ReadonlyArray<ToolCall> = [
  { name: "fill", args: { target: "#first", value: "<secret:first>" } },
  { name: "fill", args: { target: "#second", value: "<secret:second>" } },
]

/** The token page typed again outside a run, base64 screenshots as it is and with its four boxes masked. */
const referenceShots = () =>
  rig.runtime.runPromise(
    BrowserDriver.use((driver) =>
      Effect.gen(function* () {
        yield* driver.navigate(`${rig.site.url}/hostile/shown-secret`)
        yield* driver.act({ selector: "#first" }, "input", FIRST)
        yield* driver.act({ selector: "#second" }, "input", SECOND)
        const shown = yield* driver.screenshot()
        yield* driver.evaluate(
          "for (const id of ['#first', '#second', '#first-echo', '#second-echo']) document.querySelector(id).style.setProperty('-webkit-text-security', 'disc', 'important')",
        )
        const masked = yield* driver.screenshot()
        return [Buffer.from(shown).toString("base64"), Buffer.from(masked).toString("base64")] as const
      }),
    ),
  )

describe("a run's screenshots of a page that shows a typed secret", () => {
  it("draws the secret masked where the field turned to text and where the page echoes it", async () => {
    const { result, stepEnds } = await run("/hostile/shown-secret", [
      ...typeBoth,
      { name: "extract", args: { target: "#first-echo" } },
      { name: "screenshot", args: { target: "#first" } },
      { name: "screenshot", args: { target: "#second" } },
      { name: "screenshot", args: { target: "#first-echo" } },
      { name: "screenshot", args: { target: "#second-echo" } },
      { name: "click", args: { target: "#no-such-button" } },
    ])
    const observations = result.observations
    // The page did echo the secret (the observation shows it redacted).
    const echoed = observations.find((observation) => observation.tool === "extract")
    expect(JSON.stringify(echoed?.data)).toContain("Welcome, <secret:first>")
    const shots = observations.filter((observation) => observation.tool === "screenshot")
    expect(shots.map((observation) => observation.ok)).toEqual([true, true, true, true])
    const [firstField, secondField, firstEcho, secondEcho] = shots.map(shotOf)
    expect(firstField?.length ?? 0).toBeGreaterThan(100)
    expect(firstEcho?.length ?? 0).toBeGreaterThan(100)
    // Each field holds a different secret, shown as text: only masked do they draw the same.
    expect(firstField).toBe(secondField)
    // Each greeting echoes a different secret: only masked do they draw the same.
    expect(firstEcho).toBe(secondEcho)

    // The screenshot saved when the click failed is the page with its four boxes masked.
    const saved = stepEnds.find((event) => event.tool === "click")?.screenshot
    expect(saved).toBeDefined()
    const failure = readFileSync(saved as string).toString("base64")
    const [shown, masked] = await referenceShots()
    expect(shown).not.toBe(masked)
    expect(failure).toBe(masked)
  }, 90_000)
})

describe("a run's screenshots of a page that cannot be masked", () => {
  it("takes none, fails the screenshot step saying why, records the failure screenshot as skipped, and goes on", async () => {
    const { result, stepEnds, shots, events, directory } = await run("/hostile/shown-secret?break=1", [
      { name: "fill", args: { target: "#first", value: "<secret:first>" } },
      { name: "screenshot", args: {} },
      { name: "click", args: { target: "#no-such-button" } },
      { name: "extract", args: { target: "#first-echo" } },
    ])
    // The page did show the secret, and the run went on past both screenshots to the last step.
    const echoed = result.observations.find((observation) => observation.tool === "extract")
    expect(echoed?.ok).toBe(true)
    expect(JSON.stringify(echoed?.data)).toContain("Welcome, <secret:first>")

    // The screenshot the model asked for: a failed step with no image, saying what happened and what to do.
    const asked = result.observations.find((observation) => observation.tool === "screenshot")
    expect(asked?.ok).toBe(false)
    expect(shotOf(asked)).toBeUndefined()
    expect(asked?.error?.reason).toBe("MaskingFailed")
    expect(asked?.message).toContain("no screenshot taken")
    expect(asked?.message).toContain("styles are locked on this page")
    expect(asked?.message).toContain("read the page with look instead")

    // The screenshots due after the two failed steps: skipped, with the reason, none stored.
    expect(shots).toEqual([])
    const due = stepEnds.filter((event) => event.tool === "screenshot" || event.tool === "click")
    expect(due).toHaveLength(2)
    for (const event of due) {
      expect(event.ok).toBe(false)
      expect(event.screenshot).toBeUndefined()
      expect(event.screenshotSkipped).toContain("no screenshot taken")
    }
    // The transcript and the run report say so too.
    const transcript = readFileSync(join(directory, `${result.runId}.transcript.txt`), "utf8")
    expect(transcript).toContain("step 2: no screenshot: BrowserDriver.screenshot: no screenshot taken")
    const report = await rig.runtime.runPromise(
      Effect.map(loadRunReport(result.runId, { traceDirectory: directory }), renderRunReport),
    )
    expect(report).toContain("no screenshot: BrowserDriver.screenshot: no screenshot taken")
    expect(report).not.toContain("data:image/png")
    expect(`${JSON.stringify(events)}${transcript}${report}`).not.toContain(FIRST)
    expect(result.status).toBe("FAILED")
  }, 90_000)
})

/**
 * What the masking draws as discs, read in the page: the computed `-webkit-text-security` of each place
 * `/hostile/hidden-secret` shows the token (or could), and the note field's inline value and priority.
 */
const hiddenStyles = `const drawn = (element) => getComputedStyle(element).getPropertyValue("-webkit-text-security")
const box = document.querySelector("token-box").shadowRoot
const note = document.getElementById("note")
const framed = document.querySelector("token-frame").shadowRoot.querySelector("iframe").contentDocument
return {
  shadowField: drawn(box.getElementById("token")),
  shadowText: drawn(box.getElementById("token-echo")),
  shadowBareText: drawn(document.querySelector("token-note")),
  framedField: drawn(framed.getElementById("framed")),
  framedText: drawn(framed.getElementById("framed-echo")),
  longText: drawn(document.getElementById("long")),
  hugeText: drawn(document.getElementById("huge")),
  plainField: drawn(document.getElementById("plain")),
  noteField: drawn(note),
  noteInline: [note.style.getPropertyValue("-webkit-text-security"), note.style.getPropertyPriority("-webkit-text-security")],
}`

interface HiddenStyles {
  readonly shadowField: string
  readonly shadowText: string
  readonly shadowBareText: string
  readonly framedField: string
  readonly framedText: string
  readonly longText: string
  readonly hugeText: string
  readonly plainField: string
  readonly noteField: string
  readonly noteInline: readonly [string, string]
}

describe("the screenshot masking of a token the page hides from a plain look", () => {
  it("draws as discs the token in shadow roots and a frame inside one, past 2,000 characters of text, and under a page rule that unmasks fields, then gives every style back", async () => {
    const redact = (text: string) => text.replaceAll(FIRST, "<secret:first>")
    const [before, during, after] = await rig.runtime.runPromise(
      BrowserDriver.use((driver) =>
        Effect.gen(function* () {
          yield* driver.navigate(`${rig.site.url}/hostile/hidden-secret`)
          yield* driver.act({ selector: "#token" }, "input", FIRST)
          yield* driver.act({ selector: "#plain" }, "input", FIRST)
          yield* driver.act({ selector: "#note" }, "input", FIRST)
          const read = driver.evaluate(hiddenStyles) as Effect.Effect<HiddenStyles, never>
          // The page did show the token in each place, as text.
          const shown = yield* driver.evaluate(
            `return [document.querySelector("token-box").shadowRoot.getElementById("token").value,
              document.querySelector("token-box").shadowRoot.getElementById("token-echo").textContent,
              document.querySelector("token-note").shadowRoot.textContent,
              document.querySelector("token-frame").shadowRoot.querySelector("iframe").contentDocument.body.textContent,
              window.frames.length,
              document.getElementById("long").textContent.length,
              document.getElementById("long").textContent.endsWith(arguments[0])]`,
            [FIRST],
          )
          expect(shown).toEqual([
            FIRST,
            `Welcome, ${FIRST}`,
            `Signed in with ${FIRST}`,
            `Token ${FIRST}`,
            // The frame in the shadow root is not one of the window's frames.
            0,
            2_100 + 7 + FIRST.length,
            true,
          ])
          return [yield* read, yield* withMaskedPage(driver, redact, read), yield* read] as const
        }),
      ),
    )
    expect(before).toEqual({
      shadowField: "none",
      shadowText: "none",
      shadowBareText: "none",
      framedField: "none",
      framedText: "none",
      longText: "none",
      hugeText: "none",
      plainField: "none",
      noteField: "circle",
      noteInline: ["circle", "important"],
    })
    // A field and a paragraph inside an open shadow root, and text that is a shadow root's own.
    expect.soft(during.shadowField, "the field in the shadow root").toBe("disc")
    expect.soft(during.shadowText, "the greeting in the shadow root").toBe("disc")
    expect.soft(during.shadowBareText, "the shadow root's bare text").toBe("disc")
    // A field and a paragraph in a same-origin frame inside a shadow root.
    expect.soft(during.framedField, "the field in the frame in the shadow root").toBe("disc")
    expect.soft(during.framedText, "the paragraph in the frame in the shadow root").toBe("disc")
    // The token after character 2,000 of one element's text; an element too long to read, masked unread.
    expect.soft(during.longText, "the token past character 2,000").toBe("disc")
    expect.soft(during.hugeText, "the text too long to read").toBe("disc")
    // Fields the page's stylesheet unmasks with !important.
    expect.soft(during.plainField, "the field under the page's !important rule").toBe("disc")
    expect.soft(during.noteField, "the field with its own inline !important").toBe("disc")
    // Given back: the note field's inline value with its priority, everything else as it was.
    expect(after).toEqual(before)
  }, 90_000)
})
