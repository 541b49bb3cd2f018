import { BrowserDriver, defineTool, type PageElement, parseTarget, type Target } from "@sextant/core"
import { pageCall } from "@sextant/perception"
import { Effect } from "effect"
import { z } from "zod"
import { clickTool, fillTool, pressTool } from "../browser/Input.ts"
import { TargetText } from "../browser/Outputs.ts"
import {
  CompoundError,
  ControlNotFound,
  LoginRejected,
  LoginUnconfirmed,
  SignInUnfinished,
} from "./CompoundError.ts"
import { named, pageErrorText, usable } from "./internal/Page.ts"

/** Names of a username field, in the languages the rule planner reads. */
const usernamePattern = /e-?mail|user|login|account|identifier|phone|账号|帳號|用户|用戶|邮箱|郵箱|手机/i
/** Names of a button that submits a login form. */
const signInPattern = /sign ?in|log ?in|login|log on|continue|submit|登录|登入|登陆/i

const isPassword = (element: PageElement) => element.attributes.type?.toLowerCase() === "password"

const findControls = (
  elements: ReadonlyArray<PageElement>,
  snapshotForms: ReadonlyArray<{
    readonly fields: ReadonlyArray<string>
    readonly submit?: string | undefined
  }>,
) => {
  const password = elements.find(isPassword)
  const form =
    password === undefined ? undefined : snapshotForms.find((item) => item.fields.includes(password.ref))
  const inForm = (element: PageElement) => form === undefined || form.fields.includes(element.ref)
  const textFields = elements.filter(
    (element) =>
      ["textbox", "combobox", "searchbox"].includes(element.role) && !isPassword(element) && inForm(element),
  )
  const username =
    named(textFields, usernamePattern) ??
    textFields.find((element) => /username|email/.test(element.attributes.autocomplete ?? "")) ??
    textFields
      .filter(
        (element) => password === undefined || Number(element.ref.slice(1)) < Number(password.ref.slice(1)),
      )
      .at(-1)
  const buttons = elements.filter((element) => element.role === "button" && inForm(element))
  const submit =
    named(buttons, signInPattern) ??
    (form?.submit === undefined ? undefined : elements.find((element) => element.ref === form.submit))
  return { password, username, submit }
}

/**
 * The `login` tool: fill a login form and submit it, finding the fields by meaning when no
 * selectors are given; success is the page moving on (a navigation, the form gone) to a page that
 * asks for no one-time code and says the account is not locked, failure the error the page shows
 * (`LoginRejected`) or what the page still asks (`SignInUnfinished`).
 *
 * @example
 * ```ts
 * import { loginTool } from "@sextant/tools"
 * const signedIn = loginTool.run({ username: "alice@example.com", password: "wonderland" })
 * ```
 */
export const loginTool = defineTool({
  name: "login",
  group: "forms",
  description: [
    "Log in on the current page: fill the username (email) and password fields and press the sign-in button.",
    "Without selectors the fields are found by meaning: the password field, a text field named like email/user/login, a button named like Sign in/Log in/登录.",
    "Succeeds when the page moves on (navigation or the form gone); fails with the page's own error text (e.g. Invalid email or password) when the site rejects the credentials,",
    "and fails with SignInUnfinished when the site asks for a one-time code next or says the account is locked (do not call login again then: ask the user).",
  ].join(" "),
  input: z.object({
    username: z.string().min(1).describe("Username or email"),
    password: z.string().min(1).describe("Password (never shown in results)"),
    selectors: z
      .object({
        username: TargetText.optional(),
        password: TargetText.optional(),
        submit: TargetText.optional(),
      })
      .optional()
      .describe("Refs or CSS selectors of the fields and the button, when they cannot be found by meaning"),
  }),
  output: z.object({
    loggedIn: z.literal(true),
    url: z.string(),
    title: z.string(),
    hint: z.string(),
  }),
  effects: { clicks: true, submits: true, navigates: true },
  run: ({ username, password, selectors }) =>
    Effect.gen(function* () {
      const driver = yield* BrowserDriver
      const before = yield* driver.look()
      const found = findControls(usable(before), before.forms)
      const missing = (control: string) =>
        new CompoundError({
          tool: "login",
          reason: new ControlNotFound({
            control,
            url: before.url,
            hint: "navigate to the login page first, or give selectors",
          }),
        })
      const targetOf = (given: string | undefined, element: PageElement | undefined): Target | undefined =>
        given !== undefined ? parseTarget(given) : element === undefined ? undefined : { ref: element.ref }
      const passwordTarget = targetOf(selectors?.password, found.password)
      if (passwordTarget === undefined) return yield* missing("password field")
      const usernameTarget = targetOf(selectors?.username, found.username)
      if (usernameTarget === undefined) return yield* missing("username or email field")
      const submitTarget = targetOf(selectors?.submit, found.submit)
      const asText = (target: Target) => ("ref" in target ? target.ref : target.selector)

      yield* fillTool.run({ target: asText(usernameTarget), value: username })
      yield* fillTool.run({ target: asText(passwordTarget), value: password })
      const result =
        submitTarget === undefined
          ? yield* pressTool.run({ key: "Enter", target: asText(passwordTarget) })
          : yield* clickTool.run({ target: asText(submitTarget) })

      const after = yield* driver.look()
      const passwordStillThere = usable(after).some(isPassword)
      const error = passwordStillThere ? yield* pageErrorText(after) : ""
      if (error !== "") {
        return yield* new CompoundError({
          tool: "login",
          reason: new LoginRejected({ pageError: error, url: after.url }),
        })
      }
      // A rejected form often re-renders at the same URL, so only a new URL counts as moving on.
      const moved = after.url !== before.url
      if (!passwordStillThere || moved) {
        // The password form gone is not a sign-in done: the site may ask for a one-time code next, or
        // say in plain text that the account is locked. Perception's `goalFacts` reads both, the same
        // reading the executor's "logged in" check makes; answering `loggedIn: true` here would be a
        // false success to a caller using the tool directly.
        const facts = yield* pageCall(driver, "goalFacts", { texts: [], selectors: [] })
        if (facts.signInUnfinished !== "") {
          return yield* new CompoundError({
            tool: "login",
            reason: new SignInUnfinished({ asks: facts.signInUnfinished, url: facts.url }),
          })
        }
        return { loggedIn: true as const, url: after.url, title: after.title, hint: result.hint }
      }
      return yield* new CompoundError({ tool: "login", reason: new LoginUnconfirmed({ url: after.url }) })
    }),
})
