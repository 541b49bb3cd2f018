import { execFile, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { createRequire, stripTypeScriptTypes } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import type { FieldValue, TestSuite } from "../../src/index.ts"

/** What a generated file did when it ran against the recording fakes. */
export interface GeneratedRun {
  readonly code: number
  readonly output: string
  /** Every call the file made to `browser`, its elements, `fetch`, vitest's `describe`/`it`/`expect` and `console.log`. */
  readonly calls: ReadonlyArray<ReadonlyArray<unknown>>
  /** The environment variables the generated file itself read (Node's own reads are left out). */
  readonly envReads: ReadonlyArray<string>
}

/** A recorded HTTP answer the fake `fetch` gives. */
export interface FakeResponse {
  readonly method: string
  readonly url: string
  readonly status: number
  readonly body: string
}

// The preload: records env reads made from the generated file, fakes `fetch`, records `console.log`.
const PRELOAD = `import { readFileSync, writeFileSync } from "node:fs"
const config = JSON.parse(readFileSync(new URL("./config.json", import.meta.url), "utf8"))
const calls = []
const envReads = []
globalThis.__calls = calls
const real = process.env
process.env = new Proxy(real, {
  get(target, key) {
    if (typeof key === "string" && (new Error().stack ?? "").includes(config.script)) envReads.push(key)
    return Reflect.get(target, key)
  },
})
globalThis.fetch = async (url, init = {}) => {
  const href = String(url)
  calls.push(["fetch", href, init.method ?? "GET", init.headers ?? {}, init.body ?? null])
  const answer = config.responses.find((response) => response.url === href && response.method === (init.method ?? "GET"))
  return { status: answer?.status ?? 599, json: async () => (answer === undefined ? null : JSON.parse(answer.body)) }
}
const log = console.log
console.log = (...args) => { calls.push(["log", ...args.map(String)]) }
process.on("exit", () => writeFileSync(new URL("./recorded.json", import.meta.url), JSON.stringify({ calls, envReads })))
`

const FAKE_WEBDRIVERIO = `const record = (...call) => globalThis.__calls.push(call)
const probe = { includes(text) { record("includes", text); return true }, replace() { return probe }, toString() { return "probe" } }
const element = () => ({
  isExisting: async () => true,
  click: async () => record("click"),
  setValue: async (value) => record("setValue", value),
  selectByVisibleText: async (value) => record("selectByVisibleText", value),
  isSelected: async () => false,
  moveTo: async () => record("moveTo"),
  getText: async () => probe,
  waitForDisplayed: async (options) => record("waitForDisplayed", options?.reverse === true),
  waitForExist: async () => record("waitForExist"),
  getComputedRole: async () => "none",
})
export const remote = async () => ({
  url: async (url) => record("url", url),
  getUrl: async () => probe,
  getTitle: async () => probe,
  $: (selector) => { record("$", selector); return element() },
  $$: (selector) => { record("$$", selector); return [] },
  keys: async (keys) => record("keys", keys),
  pause: async (ms) => record("pause", ms),
  // The script's check before it types a secret asks where the field's page and form are: the base URL.
  execute: async (script) =>
    String(script).includes("form.action") ? [process.env.BASE_URL ?? "", process.env.BASE_URL ?? ""] : undefined,
  waitUntil: async (check) => { try { await check() } catch (error) { record("error", String(error)) } },
  uploadFile: async (path) => { record("uploadFile", path); return "uploaded" },
  deleteSession: async () => record("deleteSession"),
})
`

const FAKE_VITEST = `const calls = globalThis.__calls
const pending = []
export const describe = (name, body) => { calls.push(["describe", name]); body() }
export const it = (name, body) => { calls.push(["it", name]); pending.push(body) }
export const expect = (actual) => ({
  toBe: (expected) => calls.push(["expect", Object.is(actual, expected), actual, expected]),
  toEqual: (expected) => calls.push(["expect", JSON.stringify(actual) === JSON.stringify(expected), actual, expected]),
})
setTimeout(async () => {
  for (const body of pending) {
    try { await body() } catch (error) { calls.push(["error", String(error)]) }
  }
}, 0)
`

const packageDirectory = (name: string): string => {
  let directory = dirname(createRequire(import.meta.url).resolve(name))
  while (
    !existsSync(join(directory, "package.json")) ||
    !readFileSync(join(directory, "package.json"), "utf8").includes(`"name": "${name}"`)
  )
    directory = dirname(directory)
  return directory
}

const fakeModule = (root: string, name: string, source: string): void => {
  const directory = join(root, "node_modules", name)
  mkdirSync(directory, { recursive: true })
  writeFileSync(
    join(directory, "package.json"),
    JSON.stringify({ name, type: "module", exports: "./index.mjs" }),
  )
  writeFileSync(join(directory, "index.mjs"), source)
}

/**
 * The syntax errors of a generated TypeScript file (an empty list when it parses): Node's type
 * stripper parses the TypeScript, then `node --check` parses the module that is left.
 */
export const syntaxErrors = (source: string, fileName: string): ReadonlyArray<string> => {
  let javascript: string
  try {
    javascript = stripTypeScriptTypes(source)
  } catch (error) {
    return [String(error)]
  }
  const directory = mkdtempSync(join(tmpdir(), "sextant-parse-"))
  const file = join(directory, `${fileName}.mjs`)
  writeFileSync(file, javascript)
  const checked = spawnSync(process.execPath, ["--check", file], { encoding: "utf8" })
  rmSync(directory, { recursive: true, force: true })
  return checked.status === 0 ? [] : [checked.stderr]
}

/**
 * Runs a generated file with plain Node in a child process, with `webdriverio` and `vitest` replaced
 * by recording fakes, the real `zod`, `fetch` faked, and only the given environment.
 */
export const runGenerated = (
  source: string,
  fileName: string,
  environment: Readonly<Record<string, string>>,
  responses: ReadonlyArray<FakeResponse> = [],
): Promise<GeneratedRun> => {
  const root = mkdtempSync(join(tmpdir(), "sextant-generated-"))
  writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }))
  writeFileSync(join(root, fileName), source)
  writeFileSync(join(root, "preload.mjs"), PRELOAD)
  writeFileSync(join(root, "config.json"), JSON.stringify({ script: fileName, responses }))
  fakeModule(root, "webdriverio", FAKE_WEBDRIVERIO)
  fakeModule(root, "vitest", FAKE_VITEST)
  symlinkSync(packageDirectory("zod"), join(root, "node_modules", "zod"))
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "./preload.mjs", fileName],
      { cwd: root, env: { PATH: process.env.PATH ?? "", ...environment }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1
        const recordedPath = join(root, "recorded.json")
        const recorded = existsSync(recordedPath)
          ? (JSON.parse(readFileSync(recordedPath, "utf8")) as Pick<GeneratedRun, "calls" | "envReads">)
          : { calls: [], envReads: [] }
        resolve({ code, output: `${stdout}${stderr}`, ...recorded })
      },
    )
  })
}

/**
 * The calls a WebdriverIO script exported from `suite` makes against the recording fake, in order:
 * what the suite says, with every text as it is in the suite and `variables` read for marked fields.
 */
export const expectedWdioCalls = (
  suite: TestSuite,
  baseUrl: string,
  variables: Readonly<Record<string, string>>,
): Array<Array<unknown>> => {
  const calls: Array<Array<unknown>> = []
  const find = (selector: string) => calls.push(["$", selector])
  for (const test of suite.tests) {
    calls.push(["url", new URL(test.startUrl, baseUrl).href])
    for (const step of test.steps) {
      const fill = (field: FieldValue) => {
        const value = field.variable === undefined ? (field.value ?? "") : (variables[field.variable] ?? "")
        find(field.target.selector)
        if (field.fieldType === "select") calls.push(["selectByVisibleText", value])
        else if (field.fieldType === "radio") calls.push(["click"])
        else if (field.fieldType === "checkbox") {
          find(field.target.selector)
          if (value !== "false") calls.push(["click"])
        } else if (field.fieldType === "file") {
          calls.push(["uploadFile", value], ["setValue", "uploaded"])
        } else calls.push(["setValue", value])
      }
      switch (step.type) {
        case "Navigate":
          calls.push(["url", new URL(step.url, baseUrl).href])
          break
        case "Click":
          find(step.target.selector)
          calls.push(["click"])
          break
        case "Hover":
          find(step.target.selector)
          calls.push(["moveTo"])
          break
        case "Press":
          if (step.target !== undefined) find(step.target.selector)
          calls.push(["keys", step.key.split("+")])
          break
        case "FillForm":
          step.fields.forEach(fill)
          break
        case "FillAndSubmit":
          step.fields.forEach(fill)
          find(step.submit.selector)
          calls.push(["click"])
          break
        case "Wait":
          if (step.ms !== undefined) calls.push(["pause", step.ms])
          if (step.selector !== undefined) {
            find(step.selector)
            calls.push(
              step.state === "present" ? ["waitForExist"] : ["waitForDisplayed", step.state === "hidden"],
            )
          }
          if (step.text !== undefined) calls.push(["$", "body"], ["includes", step.text])
          break
        case "Assert": {
          const assertion = step.assertion
          switch (assertion.type) {
            case "UrlContains":
            case "TitleContains":
              calls.push(["includes", assertion.text])
              break
            case "UrlEquals":
              break
            case "TextPresent":
            case "TextAbsent":
              calls.push(["$", "body"], ["includes", assertion.text])
              break
            case "ElementText":
              find(assertion.target.selector)
              calls.push(["includes", assertion.text])
              break
            case "ElementVisible":
              find(assertion.target.selector)
              calls.push(["waitForDisplayed", false])
              break
            case "ElementCount":
              calls.push(["$$", assertion.selector])
              break
          }
        }
      }
    }
    calls.push(["log", `ok ${test.name} (ended on probe)`])
  }
  calls.push(["deleteSession"])
  return calls
}
