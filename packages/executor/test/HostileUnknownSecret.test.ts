import { describe, expect, it } from "vitest"
import { makeRedactor } from "../src/index.ts"
import { EMAIL, guardrailEvents, startRig } from "./support/HostileRig.ts"

/**
 * A page may get the model to write a placeholder of a secret the run was never given
 * (`<secret:github_token>` in a run whose only secret is `password`). Typed as text it would end up in
 * the trace, and an export of the run would read `SEXTANT_SECRET_GITHUB_TOKEN`; the executor refuses
 * the call instead, naming the task's secrets. Real headless Chromium on the fixture site's login page,
 * the model step policy through the real openai SDK against the scripted server.
 */
const rig = startRig()

describe("a tool argument holding a placeholder of a secret the task does not have", () => {
  it("is refused before the tool runs, naming the task's secrets; the placeholder is never typed", async () => {
    const { events } = await rig.withModel(`${rig.site.url}/login`, [
      { name: "fill", args: { target: "#email", value: "<secret:github_token>" } },
      { name: "fill", args: { target: "#email", value: EMAIL } },
    ])
    const refused = guardrailEvents(events).filter((event) => event.rule === "secret-placeholder")
    expect(refused.map((event) => event.message).join("\n")).toContain(
      "fill argument value holds <secret:github_token>, which is not a secret of this task (its secrets are <secret:password>)",
    )
    const typed = events.flatMap((event) =>
      event.type === "recorded"
        ? event.actions.flatMap((action) =>
            action.kind === "act" && action.op === "input" ? [String(action.value)] : [],
          )
        : [],
    )
    // The run went on: the next fill typed the plain e-mail, and nothing typed the placeholder.
    expect(typed).toContain(EMAIL)
    expect(typed.filter((value) => value.includes("<secret:"))).toEqual([])
  }, 60_000)

  it("refuses any placeholder name the task was not given, in any argument, and accepts the task's own", () => {
    const redactor = makeRedactor({ inputs: { password: "wonderland" }, secretInputs: ["password"] })
    expect(redactor.misplaced("fill", { target: "#email", value: "<secret:password>" })).toBeUndefined()
    expect(redactor.misplaced("fill", { target: "#q", value: "find <secret:admin_password> now" })).toBe(
      "fill argument value holds <secret:admin_password>, which is not a secret of this task (its secrets are <secret:password>): a placeholder is replaced only by a secret the task was given, never typed as text; use one of the task's secrets or the plain value",
    )
    expect(redactor.misplaced("fillForm", { values: { Token: "<secret:github_token>" } })).toContain(
      "fillForm argument values.Token holds <secret:github_token>, which is not a secret of this task",
    )
    const none = makeRedactor({ inputs: {}, secretInputs: [] })
    expect(none.misplaced("type", { text: "<secret:password>" })).toContain(
      "holds <secret:password>, which is not a secret of this task (this task has no secrets)",
    )
  })
})
