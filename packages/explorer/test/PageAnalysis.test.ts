import { LanguageModel, PageSnapshot } from "@sextant/core"
import { make as makeOpenAi } from "@sextant/openai"
import { type OpenAiServer, Reply, startOpenAiServer } from "@sextant/testing"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { analyzePage, analyzePageWithModel } from "../src/index.ts"

interface FieldSpec {
  readonly ref: string
  readonly role: string
  readonly name: string
  readonly tag?: string
  readonly attributes?: Record<string, string>
  readonly required?: boolean
}

/** A snapshot of a page with the given forms, as `look()` would give it. */
const snapshotOf = (
  title: string,
  heading: string,
  forms: ReadonlyArray<{
    readonly name: string
    readonly key: string
    readonly fields: ReadonlyArray<FieldSpec>
  }>,
): PageSnapshot => {
  const elements: Record<string, unknown> = {}
  for (const form of forms)
    for (const field of form.fields)
      elements[field.ref] = {
        ref: field.ref,
        role: field.role,
        name: field.name,
        tag: field.tag ?? "input",
        attributes: field.attributes ?? {},
        visible: true,
        required: field.required,
        selectors: [`#${field.ref}-id`],
        key: `${field.role}|${field.name}|main:/form:${form.name}|${heading}|0`,
        region: "main",
        form: form.key,
      }
  return PageSnapshot.parse({
    url: "http://127.0.0.1:4000/zh/account",
    title,
    tree: `- h1 "${heading}"`,
    elements,
    actions: [],
    forms: forms.map((form) => ({
      key: form.key,
      name: form.name,
      fields: form.fields.map((field) => field.ref),
      submit: form.fields.find((field) => field.role === "button")?.ref,
    })),
    outputs: [{ key: `main:heading:${heading}`, region: "main", text: heading }],
    stats: { nodes: 10, elements: 5, lines: 5, chars: 100 },
  })
}

const chineseLogin = snapshotOf("用户登录 - 示例商城", "用户登录", [
  {
    name: "登录",
    key: "form|登录|main:|0",
    fields: [
      { ref: "e1", role: "textbox", name: "电子邮件", attributes: { type: "text" } },
      { ref: "e2", role: "textbox", name: "密码", attributes: { type: "text" } },
      { ref: "e3", role: "textbox", name: "手机号（选填）", attributes: { type: "text" } },
      { ref: "e4", role: "button", name: "登录", tag: "button" },
    ],
  },
])

describe("analyzePage (rules)", () => {
  it("types Chinese-labelled fields by their words and classifies a Chinese login page", () => {
    const model = analyzePage(chineseLogin)
    expect(model.category).toBe("Login")
    expect(model.analyzer).toBe("rules")
    expect(model.forms[0]?.purpose).toBe("login")
    expect(model.forms[0]?.submitLabel).toBe("登录")
    expect(model.forms[0]?.fields.map((field) => [field.label, field.fieldType, field.required])).toEqual([
      ["电子邮件", "email", true],
      ["密码", "password", true],
      ["手机号", "tel", false],
    ])
  })

  it("classifies a Chinese registration form by its confirm-password field", () => {
    const model = analyzePage(
      snapshotOf("注册", "创建账号", [
        {
          name: "新用户",
          key: "form|新用户|main:|0",
          fields: [
            { ref: "e1", role: "textbox", name: "用户名", attributes: { type: "text" }, required: true },
            { ref: "e2", role: "textbox", name: "密码", attributes: { type: "password" }, required: true },
            {
              ref: "e3",
              role: "textbox",
              name: "确认密码",
              attributes: { type: "password" },
              required: true,
            },
            { ref: "e4", role: "button", name: "提交", tag: "button" },
          ],
        },
      ]),
    )
    expect(model.category).toBe("Registration")
    expect(model.forms[0]?.fields.map((field) => [field.fieldType, field.suggestedValue])).toEqual([
      ["text", "test-user"],
      ["password", "Sextant-Test-1"],
      ["password", "Sextant-Test-1"],
    ])
  })

  it("classifies an English search form by its button and uses given values by label", () => {
    const model = analyzePage(
      snapshotOf("Find products", "Catalogue", [
        {
          name: "Catalogue",
          key: "form|Catalogue|main:|0",
          fields: [
            { ref: "e1", role: "textbox", name: "Keywords", attributes: { type: "text" } },
            { ref: "e2", role: "button", name: "Search", tag: "button" },
          ],
        },
      ]),
      { values: { keywords: "brass" } },
    )
    expect(model.category).toBe("Search")
    expect(model.forms[0]?.purpose).toBe("search")
    expect(model.forms[0]?.fields[0]?.suggestedValue).toBe("brass")
  })
})

describe("analyzePage with secret values", () => {
  const signIn = snapshotOf("Sign in", "Sign in", [
    {
      name: "Sign in",
      key: "form|Sign in",
      fields: [
        { ref: "e1", role: "textbox", name: "Email", attributes: { type: "email" } },
        { ref: "e2", role: "textbox", name: "Password", attributes: { type: "password" } },
        {
          ref: "e3",
          role: "textbox",
          name: "Code",
          attributes: { type: "text", autocomplete: "one-time-code" },
        },
        { ref: "e4", role: "textbox", name: "Token", attributes: { type: "text" } },
        { ref: "e5", role: "button", name: "Sign in", tag: "button" },
      ],
    },
  ])
  const suggested = (model: ReturnType<typeof analyzePage>) =>
    Object.fromEntries((model.forms[0]?.fields ?? []).map((field) => [field.label, field.suggestedValue]))

  it("suggests a placeholder for a value that fills a password or one-time-code field, or is marked secret", () => {
    const model = analyzePage(signIn, {
      values: { Email: "alice@example.com", Password: "wonderland", Code: "123456" },
      secretValues: { Token: "tok-abc" },
    })
    expect(suggested(model)).toEqual({
      Email: "alice@example.com",
      Password: "<secret:Password>",
      Code: "<secret:Code>",
      Token: "<secret:Token>",
    })
    expect(JSON.stringify(model)).not.toMatch(/wonderland|123456|tok-abc/)
  })
})

describe("analyzePageWithModel (through the openai SDK)", () => {
  let server: OpenAiServer | undefined
  afterEach(async () => {
    await server?.close()
  })

  const analyzeWith = async (reply: ReturnType<typeof Reply.json>) => {
    server = await startOpenAiServer({ replies: [reply] })
    const baseURL = server.baseURL
    return Effect.runPromise(
      Effect.gen(function* () {
        const model = yield* makeOpenAi({ baseURL, apiKey: "test-key", model: "test-model", maxRetries: 0 })
        return yield* analyzePageWithModel(chineseLogin).pipe(Effect.provideService(LanguageModel, model))
      }),
    )
  }

  it("takes the model's category, purpose and field types, keeping the rules' locators", async () => {
    const model = await analyzeWith(
      Reply.json({
        purpose: "Sign in to the shop",
        category: "Login",
        forms: [
          {
            name: "登录",
            purpose: "login",
            fields: [{ label: "手机号", fieldType: "text", required: true }],
          },
        ],
      }),
    )
    expect(model.analyzer).toBe("model")
    expect(model.purpose).toBe("Sign in to the shop")
    const phone = model.forms[0]?.fields.find((field) => field.label === "手机号")
    expect(phone).toMatchObject({ fieldType: "text", required: true, locator: { selector: "#e3-id" } })
    expect(server?.requests[0]?.text).toContain("电子邮件")
  })

  it("falls back to the rules when the model's answer does not parse", async () => {
    const model = await analyzeWith(Reply.text("I think this is a login page."))
    expect(model).toEqual(analyzePage(chineseLogin))
  })

  it("falls back to the rules when the answer is JSON of the wrong shape", async () => {
    const model = await analyzeWith(Reply.json({ category: "Homepage" }))
    expect(model.analyzer).toBe("rules")
    expect(model.category).toBe("Login")
  })
})
