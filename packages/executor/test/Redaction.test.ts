import { assert, describe, it } from "@effect/vitest"
import { decodeAgentTask } from "@sextant/core"
import { Effect } from "effect"
import { makeRedactor } from "../src/index.ts"
import { withStartUrlSecrets } from "../src/internal/StartUrlSecrets.ts"

const redactorOf = (inputs: Readonly<Record<string, string | number>>, secretInputs: ReadonlyArray<string>) =>
  makeRedactor({ inputs: { ...inputs }, secretInputs: [...secretInputs] })

describe("one redactor for every sink", () => {
  const redactor = redactorOf({ password: "p@ss word+1", user: "ada" }, ["password"])

  it.each([
    ["as typed", "typed p@ss word+1"],
    ["URL-encoded", "/login?password=p%40ss%20word%2B1"],
    ["URL-encoded with lower-case escapes", "/login?password=p%40ss%20word%2b1"],
    ["form-encoded, + for a space", "email=ada&password=p%40ss+word%2B1"],
    ["JSON-escaped inside JSON text", JSON.stringify({ body: JSON.stringify({ password: "p@ss word+1" }) })],
    ["base64", `Authorization: Bearer ${btoa("p@ss word+1")}`],
    ["HTML-escaped", '<input value="p@ss word+1">'.replace("@", "@")],
  ])("hides a secret %s", (_label, text) => {
    const hidden = redactor.text(text)
    assert.notInclude(hidden, "p@ss word+1")
    assert.notInclude(hidden, "p%40ss")
    assert.notInclude(hidden, btoa("p@ss word+1"))
    assert.include(hidden, "<secret:password>")
  })

  it("hides a numeric secret stored as a number, in text and in values", () => {
    const pin = redactorOf({ pin: 4242 }, ["pin"])
    assert.deepStrictEqual(pin.value<unknown>({ inputs: { pin: 4242, other: 7 } }), {
      inputs: { pin: "<secret:pin>", other: 7 },
    })
    assert.strictEqual(pin.text("typed 4242 into #pin"), "typed <secret:pin> into #pin")
  })

  it("leaves a short secret inside other text alone instead of corrupting it", () => {
    const token = redactorOf({ apiToken: "42" }, ["apiToken"])
    assert.strictEqual(token.text("total $168.42, 4200 points"), "total $168.42, 4200 points")
    assert.strictEqual(token.text("token=42&page=2"), "token=<secret:apiToken>&page=2")
    assert.strictEqual(token.text('{"token":"42"}'), '{"token":"<secret:apiToken>"}')
    assert.strictEqual(token.text("the code is 42."), "the code is <secret:apiToken>.")
  })

  it("hides a long secret wherever it occurs, also inside a word", () => {
    const long = redactorOf({ password: "wonderland" }, ["password"])
    assert.strictEqual(long.text("xwonderlandx"), "x<secret:password>x")
  })

  it("hides secrets in object keys when redacting, and never reveals into keys", () => {
    assert.deepStrictEqual(redactor.value<unknown>({ "p@ss word+1": "x" }), { "<secret:password>": "x" })
    assert.deepStrictEqual(redactor.reveal({ "<secret:password>": "<secret:password>" }), {
      "<secret:password>": "p@ss word+1",
    })
  })
})

describe("secret placeholders go only into form fields", () => {
  const redactor = redactorOf({ password: "wonderland", email: "ada@example.com" }, ["password"])

  it.each([
    ["fill", { label: "Password", value: "<secret:password>" }],
    ["login", { username: "ada@example.com", password: "<secret:password>" }],
    ["fillForm", { values: { Password: "<secret:password>" }, submit: false }],
  ])("accepts %s with the secret in a field value", (tool, args) => {
    assert.isUndefined(redactor.misplaced(tool, args))
    assert.isTrue(redactor.namesSecret(args))
  })

  it.each([
    ["navigate", { url: "http://127.0.0.1:4000/done?note=<secret:password>" }, "url"],
    ["search", { query: "<secret:password>" }, "query"],
    ["fill", { label: "<secret:password>", value: "x" }, "label"],
    ["click", { target: "a[href*='<secret:password>']" }, "target"],
    ["fillForm", { values: { "<secret:password>": "x" } }, "values.<secret:password> (a key)"],
    ["navigate", { url: "http://127.0.0.1:4000/?p={{inputs.password}}" }, "url"],
  ])("refuses %s with a secret in %j", (tool, args, path) => {
    const message = redactor.misplaced(tool, args)
    assert.isDefined(message)
    assert.include(message, `${tool} argument ${path} holds`)
    assert.include(message, "never into a URL")
  })

  it("lets a plain input reference go anywhere", () => {
    assert.isUndefined(redactor.misplaced("search", { query: "{{inputs.email}}" }))
  })
})

describe("secretInputs", () => {
  it("must name inputs: a typo is an error naming it, so the real secret is never stored", () => {
    const decoded = Effect.runSync(
      Effect.result(
        decodeAgentTask({ goal: "log in", inputs: { password: "wonderland" }, secretInputs: ["pasword"] }),
      ),
    )
    assert.strictEqual(decoded._tag, "Failure")
    if (decoded._tag === "Failure") {
      assert.include(decoded.failure.message, "task.secretInputs[0]")
      assert.include(decoded.failure.message, '"pasword" is not one of the inputs ("password")')
    }
  })
})

describe("credentials of the start URL", () => {
  const task = withStartUrlSecrets(
    Effect.runSync(
      decodeAgentTask({
        goal: "open the rota",
        startUrl: "https://alice:p@ss%2Fw0rd@staff.example/rota?access_token=tk-991&page=2",
        inputs: { password: "hunter22" },
        secretInputs: ["password"],
      }),
    ),
  )
  const redactor = makeRedactor(task)
  const onStart = "https://alice:<secret:start_url_password>@staff.example/next"

  it("become secret inputs of their own, hidden wherever the URL is written", () => {
    assert.deepStrictEqual(task.secretInputs, ["password", "start_url_password", "start_url_access_token"])
    assert.strictEqual(task.inputs.start_url_password, "p@ss/w0rd")
    assert.strictEqual(
      redactor.text(`open ${task.startUrl}`),
      "open https://alice:<secret:start_url_password>@staff.example/rota?access_token=<secret:start_url_access_token>&page=2",
    )
  })

  it("are not added twice when a resumed run already holds them", () => {
    assert.deepStrictEqual(withStartUrlSecrets(task).secretInputs, task.secretInputs)
  })

  it("go back only to the start origin, in the place they had, and count as typed anywhere else", () => {
    assert.isUndefined(redactor.misplaced("navigate", { url: onStart }))
    assert.isFalse(redactor.namesSecret({ url: onStart }, "navigate"))
    assert.strictEqual(
      redactor.reveal({ url: onStart }).url,
      "https://alice:p%40ss%2Fw0rd@staff.example/next",
    )
    assert.include(
      redactor.misplaced("navigate", {
        url: "https://alice:<secret:start_url_password>@elsewhere.example/",
      }) ?? "",
      "never into a URL",
    )
    assert.include(
      redactor.misplaced("navigate", { url: "https://staff.example/?q=<secret:start_url_password>" }) ?? "",
      "never into a URL",
    )
    assert.include(
      redactor.misplaced("navigate", { url: "https://alice:<secret:password>@staff.example/" }) ?? "",
      "never into a URL",
    )
    // Typed into a field it is a secret like any other: the origin checks and the request guard apply.
    assert.isUndefined(redactor.misplaced("fill", { target: "#pw", value: "<secret:start_url_password>" }))
    assert.isTrue(redactor.namesSecret({ target: "#pw", value: "<secret:start_url_password>" }, "fill"))
    assert.isTrue(redactor.namesSecret({ value: onStart }, "fill"))
  })
})

describe("credentials of the pages a run reaches (learnUrl)", () => {
  it("are hidden from then on, never revealed or typed; short values and placeholders are not learned", () => {
    const redactor = makeRedactor({ inputs: { password: "hunter22" }, secretInputs: ["password"] })
    const home = "https://shop.example/home?session_token=sess-0123456789&key=1&page=2#id_token=idt-abcdefgh"
    assert.strictEqual(redactor.text(home), home)
    redactor.learnUrl(home)
    // A URL read back from the store already shows its placeholders: nothing more is learned from it.
    redactor.learnUrl("https://shop.example/home?session_token=<secret:page_url_session_token>")
    assert.strictEqual(
      redactor.text(`landed on ${home} as hunter22`),
      "landed on https://shop.example/home?session_token=<secret:page_url_session_token>&key=1&page=2#id_token=<secret:page_url_id_token> as <secret:password>",
    )
    assert.deepStrictEqual(redactor.value({ hint: "sess-0123456789" }), {
      hint: "<secret:page_url_session_token>",
    })
    assert.deepStrictEqual(redactor.reveal({ value: "<secret:page_url_session_token>" }), {
      value: "<secret:page_url_session_token>",
    })
    assert.include(
      redactor.misplaced("fill", { target: "#q", value: "<secret:page_url_session_token>" }) ?? "",
      "a credential a page put in its own URL",
    )
    assert.deepStrictEqual(redactor.names, ["password"])
  })
})

describe("credentials of the JSON a page sends or receives (learnJson)", () => {
  it("hides the strings under keys named like a credential, at any depth; other bodies teach nothing", () => {
    const redactor = makeRedactor({ inputs: {}, secretInputs: [] })
    const body =
      '{"user":{"name":"alice","refreshToken":"rt-0123456789"},"access_token":"at-abcdefghij","token_type":"bearer"}'
    redactor.learnJson("not json at-abcdefghij")
    assert.strictEqual(redactor.text(body), body)
    redactor.learnJson(body)
    assert.strictEqual(
      redactor.text(body),
      '{"user":{"name":"alice","refreshToken":"<secret:page_json_refreshToken>"},"access_token":"<secret:page_json_access_token>","token_type":"bearer"}',
    )
  })
})
