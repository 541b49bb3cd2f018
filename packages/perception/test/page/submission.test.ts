import { describe, expect, it } from "vitest"
import { type PageModules, pageModulesScript, usePageHarness } from "./support/PageModules.ts"

const harness = usePageHarness()

describe("submission page functions", () => {
  it("submissionTarget and formAction read the submitter's formaction before the form's action", async () => {
    await harness.open(`
      <form action="https://forms.example/post">
        <input id="field"><button id="plain">Send</button>
        <button id="other" formaction="https://elsewhere.example/x">Other</button>
      </form>
      <button id="loose">Loose</button>`)
    const read = await harness.browser.execute(() => {
      const { submission } = (globalThis as unknown as { __page: PageModules }).__page
      return {
        plain: submission.submissionTarget("#plain"),
        other: submission.submissionTarget("#other"),
        loose: submission.submissionTarget("#loose") === location.href,
        missing: submission.submissionTarget("#missing"),
        clickOther: submission.formAction({ selector: "#other" }, false),
        pressField: submission.formAction({ selector: "#field" }, true),
        staleRef: submission.formAction({ ref: "e404" }, false),
        badSelector: submission.formAction({ selector: "p[" }, false),
      }
    })
    expect(read).toEqual({
      plain: "https://forms.example/post",
      other: "https://elsewhere.example/x",
      loose: true,
      missing: null,
      clickOther: { action: "https://elsewhere.example" },
      pressField: { action: "https://forms.example" },
      staleRef: { unresolved: true },
      badSelector: {},
    })
  })

  it("limitFormActions adds a form-action policy and takeRefused reads the refusal once", async () => {
    await harness.open(`<form action="https://elsewhere.example/"><button>Go</button></form>`)
    const origin = new URL(harness.pages.url).origin
    await harness.browser.execute(
      (sources) =>
        (globalThis as unknown as { __page: PageModules }).__page.submission.limitFormActions(sources, "k"),
      origin,
    )
    const policy = await harness.browser.execute(
      () =>
        document.querySelector("meta[http-equiv=Content-Security-Policy]")?.getAttribute("content") ?? null,
    )
    expect(policy).toBe(`form-action ${origin}`)
    await harness.browser.execute(() => document.querySelector("button")!.click())
    await harness.browser.waitUntil(
      async () => (await harness.browser.execute(() => sessionStorage.getItem("k"))) !== null,
      { timeout: 5000 },
    )
    await harness.browser.execute(await pageModulesScript())
    const refused = await harness.browser.execute(() => [
      (globalThis as unknown as { __page: PageModules }).__page.submission.takeRefused("k"),
      (globalThis as unknown as { __page: PageModules }).__page.submission.takeRefused("k"),
    ])
    expect(refused[0]).toContain("elsewhere.example")
    expect(refused[1]).toBeNull()
  })
})

describe("spec page functions", () => {
  it("elementState says whether the element is shown, by the one visibility rule", async () => {
    await harness.open(`
      <main><p id="a">Hello</p><p id="b" style="visibility:hidden">Gone</p>
      <input id="c" value="typed"><a id="d" style="display:contents"><b>Card</b></a></main>`)
    const states = await harness.browser.execute(() => {
      const { spec } = (globalThis as unknown as { __page: PageModules }).__page
      return {
        a: spec.elementState("#a"),
        b: spec.elementState("#b")?.visible,
        c: spec.elementState("#c")?.value,
        d: spec.elementState("#d")?.visible,
        none: spec.elementState("#none"),
        count: spec.countMatches("p"),
        main: spec.mainText(),
      }
    })
    expect(states).toEqual({
      a: { text: "Hello", visible: true },
      b: false,
      c: "typed",
      d: true,
      none: null,
      count: 2,
      main: expect.stringContaining("Hello"),
    })
  })
})
