import { secretCall, secretFunctionSource } from "./internal/EnvValues.ts"
import { ROLE_ALIASES } from "./internal/Fallback.ts"
import { commentText, jsNumber, jsString } from "./internal/Literal.ts"
import type { Locator } from "./PageModel.ts"
import type { Assertion, FieldValue, TestSpec, TestStep, TestSuite } from "./TestSpec.ts"

/** Options of {@link exportWdioScript}. */
export interface WdioExportOptions {
  /** The base URL written into the script; `BASE_URL` in the environment overrides it when it runs. */
  readonly baseUrl?: string | undefined
  /** How long a wait or an assertion keeps checking, in milliseconds. Default 5000. */
  readonly timeoutMs?: number | undefined
}

// Every text from the suite (a page, a run, a spec file) enters the script only as a string literal.
const literal = jsString

/** A field's value in the script: its text as a literal, or a read of the variable the spec marked. */
const valueExpression = (field: FieldValue): string =>
  field.variable !== undefined ? secretCall(field.variable) : literal(field.value ?? "")

const find = (locator: Locator): string =>
  `await find(${literal(locator.selector)}, ${literal(locator.role)}, ${literal(locator.name)})`

const fillLine = (field: FieldValue): string => {
  // A field that reads a secret from the environment is checked first: typed only on the site under test.
  const element = field.variable === undefined ? find(field.target) : `await onSite(${find(field.target)})`
  const value = valueExpression(field)
  switch (field.fieldType) {
    case "select":
      return `  await (${element}).selectByVisibleText(${value})`
    case "radio":
      return `  await (${element}).click()`
    case "checkbox":
      return `  if ((await (${element}).isSelected()) !== (${value} !== "false")) await (${element}).click()`
    case "file":
      return `  await (${element}).setValue(await browser.uploadFile(${value}))`
    default:
      return `  await (${element}).setValue(${value})`
  }
}

const assertionLines = (assertion: Assertion): Array<string> => {
  switch (assertion.type) {
    case "UrlContains":
      return [
        `  await expectThat(async () => (await browser.getUrl()).includes(${literal(assertion.text)}), ${literal(`the URL contains "${assertion.text}"`)})`,
      ]
    case "UrlEquals":
      return [
        `  await expectThat(async () => (await browser.getUrl()) === new URL(${literal(assertion.url)}, baseUrl).href, ${literal(`the URL is ${assertion.url}`)})`,
      ]
    case "TitleContains":
      return [
        `  await expectThat(async () => (await browser.getTitle()).includes(${literal(assertion.text)}), ${literal(`the title contains "${assertion.text}"`)})`,
      ]
    case "TextPresent":
      return [
        `  await expectThat(async () => (await pageText()).includes(${literal(assertion.text)}), ${literal(`the page shows "${assertion.text}"`)})`,
      ]
    case "TextAbsent":
      return [
        `  await expectThat(async () => !(await pageText()).includes(${literal(assertion.text)}), ${literal(`the page does not show "${assertion.text}"`)})`,
      ]
    case "ElementText":
      return [
        `  await expectThat(async () => (await (${find(assertion.target)}).getText()).includes(${literal(assertion.text)}), ${literal(`${assertion.target.role} "${assertion.target.name}" shows "${assertion.text}"`)})`,
      ]
    case "ElementVisible":
      return [`  await (${find(assertion.target)}).waitForDisplayed({ timeout })`]
    case "ElementCount":
      return [
        `  await expectThat(async () => (await browser.$$(${literal(assertion.selector)}).length) === ${jsNumber(assertion.count)}, ${literal(`${assertion.count} elements match ${assertion.selector}`)})`,
      ]
    case "FieldHolds": {
      const label = `${assertion.target.role} "${assertion.target.name}"`
      if (assertion.fieldType === "checkbox" || assertion.fieldType === "radio") {
        const wanted = assertion.value !== "false"
        // A native box's `checked`, else an ARIA one's `aria-checked`, as Sextant's runner reads it.
        const checked =
          '(element: HTMLInputElement) => element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio") ? element.checked : element.getAttribute("aria-checked") === "true"'
        return [
          `  await expectThat(async () => (await browser.execute(${checked}, ${find(assertion.target)})) === ${wanted}, ${literal(`${label} is ${wanted ? "checked" : "unchecked"}`)})`,
        ]
      }
      const read =
        assertion.fieldType === "select"
          ? '(element: HTMLSelectElement) => element.selectedOptions[0]?.text ?? ""'
          : "(element: HTMLInputElement) => element.value"
      return [
        `  await expectThat(async () => (await browser.execute(${read}, ${find(assertion.target)})) === ${literal(assertion.value)}, ${literal(`${label} holds "${assertion.value}"`)})`,
      ]
    }
  }
}

const stepLines = (step: TestStep): Array<string> => {
  switch (step.type) {
    case "Navigate":
      return [`  await browser.url(new URL(${literal(step.url)}, baseUrl).href)`]
    case "Click":
      return [`  await (${find(step.target)}).click()`]
    case "Hover":
      return [`  await (${find(step.target)}).moveTo()`]
    case "Press":
      return [
        ...(step.target === undefined
          ? []
          : [`  await browser.execute((element) => element.focus(), ${find(step.target)})`]),
        `  await browser.keys([${step.key.split("+").map(literal).join(", ")}])`,
      ]
    case "FillForm":
      return step.fields.map(fillLine)
    case "FillAndSubmit":
      return [...step.fields.map(fillLine), `  await (${find(step.submit)}).click()`]
    case "Wait":
      return [
        ...(step.ms === undefined ? [] : [`  await browser.pause(${jsNumber(step.ms)})`]),
        ...(step.selector === undefined
          ? []
          : [
              step.state === "present"
                ? `  await browser.$(${literal(step.selector)}).waitForExist({ timeout })`
                : `  await browser.$(${literal(step.selector)}).waitForDisplayed({ timeout${step.state === "hidden" ? ", reverse: true" : ""} })`,
            ]),
        ...(step.text === undefined
          ? []
          : [
              `  await expectThat(async () => (await pageText()).includes(${literal(step.text)}), ${literal(`the page shows "${step.text}"`)})`,
            ]),
      ]
    case "Assert":
      return assertionLines(step.assertion)
  }
}

const testFunction = (spec: TestSpec, index: number): string =>
  [
    // Readability only, and only printable ASCII: the name itself is in the tests table as a literal.
    `// ${commentText(spec.name)}`,
    `async function test${index + 1}(): Promise<void> {`,
    `  await browser.url(new URL(${literal(spec.startUrl)}, baseUrl).href)`,
    ...spec.steps.flatMap(stepLines),
    "}",
  ].join("\n")

/**
 * A standalone WebdriverIO test in TypeScript for a suite: it needs only `webdriverio` (no Sextant
 * package), runs with `node file.ts` on Node 24, finds each element by its strongest selector and falls
 * back to its role and accessible name by the same rules as `runTest` (and says so), waits for each assertion, reads the fields the suite marked
 * with `variable` from the environment, prints one line per test and exits 1 when one fails.
 * Every text from the suite is written as an escaped string literal (see the package README): a page
 * title, a label or a typed value is data in the script, never code, and `${env.NAME}` in it is text. `BASE_URL`, `SEXTANT_CHROME` and
 * `SEXTANT_CHROMEDRIVER` choose the site, the browser and the driver.
 *
 * @example
 * ```ts
 * import { writeFileSync } from "node:fs"
 * import { exportWdioScript } from "@sextant/explorer"
 * writeFileSync("shop.wdio.ts", exportWdioScript(suite))
 * // BASE_URL=http://127.0.0.1:4000 SHOP_PASSWORD=… node shop.wdio.ts
 * ```
 */
export const exportWdioScript = (suite: TestSuite, options: WdioExportOptions = {}): string => {
  const baseUrl = options.baseUrl ?? suite.baseUrl ?? "http://127.0.0.1:4000"
  const timeout = jsNumber(options.timeoutMs ?? 5000)
  const tests = suite.tests.map(testFunction)
  return `// ${commentText(suite.name)}: exported by Sextant. Runs with plain WebdriverIO: BASE_URL=... node <this file>
import { remote } from "webdriverio"

const baseUrl = process.env.BASE_URL ?? ${literal(baseUrl)}
const timeout = ${timeout}

${secretFunctionSource}

const browser = await remote({
  logLevel: "error",
  capabilities: {
    browserName: "chrome",
    "goog:chromeOptions": {
      binary: process.env.SEXTANT_CHROME ?? "/usr/bin/chromium",
      args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
    },
    "wdio:chromedriverOptions": { binary: process.env.SEXTANT_CHROMEDRIVER ?? "/usr/bin/chromedriver" },
  },
})

// Roles that stand for one another, as in Sextant's own runner (sextant test).
const roleAliases: Record<string, Array<string>> = ${JSON.stringify(ROLE_ALIASES)}

/**
 * The element by its selector, or else the one element with its role (or an alias) and accessible name,
 * as \`sextant test\` finds it; several such elements are no match. Waits for it up to the timeout.
 */
async function find(selector: string, role: string, name: string) {
  const deadline = Date.now() + timeout
  for (;;) {
    const bySelector = await browser.$(selector)
    if (await bySelector.isExisting()) return bySelector
    const same = []
    for (const candidate of await browser.$$(\`aria/\${name}\`)) {
      const computed = await candidate.getComputedRole().catch(() => role)
      if (computed === role || (roleAliases[role] ?? []).includes(computed)) same.push({ candidate, exact: computed === role })
    }
    const exact = same.filter((found) => found.exact)
    const candidates = exact.length === 1 ? exact : same
    if (candidates.length === 1) {
      console.log(\`  fell back: \${role} "\${name}": \${selector} matches nothing, found by role and name\`)
      return candidates[0].candidate
    }
    if (Date.now() > deadline)
      throw new Error(
        candidates.length > 1
          ? \`\${candidates.length} elements are \${role} "\${name}" on \${await browser.getUrl()} and the selector \${selector} matches nothing\`
          : \`no \${role} "\${name}" on \${await browser.getUrl()} (selector \${selector})\`,
      )
    await browser.pause(100)
  }
}

/**
 * A secret from the environment is typed only on the site the script runs against (the origin of
 * baseUrl), into a field whose form sends it there, by its action and by every submit button's own
 * formaction: anything else stops the test before a key is sent.
 */
async function onSite<E extends object>(element: E): Promise<E> {
  const site = new URL(baseUrl).origin
  const urls: Array<string> = await browser.execute((field: HTMLInputElement) => {
    const form = field.form ?? field.closest("form")
    if (form === null) return [location.href]
    const submitters = Array.from(form.elements).filter(
      (control) => (control as HTMLButtonElement).type === "submit" || (control as HTMLInputElement).type === "image",
    ) as Array<HTMLButtonElement>
    return [
      location.href,
      form.action,
      ...submitters.filter((control) => control.hasAttribute("formaction")).map((control) => control.formAction),
    ]
  }, element as never)
  for (const url of urls) {
    const origin = new URL(url).origin
    if (origin !== site)
      throw new Error(\`a secret is typed only on \${site}, the site under test: this field is on or sends its form to \${origin}\`)
  }
  return element
}

async function pageText(): Promise<string> {
  return ((await browser.$("body").getText()) ?? "").replace(/\\s+/g, " ")
}

async function expectThat(check: () => Promise<boolean>, what: string): Promise<void> {
  await browser.waitUntil(check, { timeout, timeoutMsg: \`expected \${what} on \${await browser.getUrl()}\` })
}

${tests.join("\n\n")}

const tests: Array<[string, () => Promise<void>]> = [
${suite.tests.map((spec, index) => `  [${literal(spec.name)}, test${index + 1}],`).join("\n")}
]
let failed = 0
try {
  for (const [name, run] of tests) {
    try {
      await run()
      console.log(\`ok \${name} (ended on \${await browser.getUrl()})\`)
    } catch (error) {
      failed++
      console.log(\`FAILED \${name}: \${error instanceof Error ? error.message : String(error)}\`)
    }
  }
} finally {
  // Bounded: a browser that no longer answers must not keep a failed run from ending.
  await Promise.race([
    browser.deleteSession().catch((error) => console.log(\`could not end the browser session: \${error instanceof Error ? error.message : String(error)}\`)),
    new Promise((settled) => setTimeout(settled, 10_000).unref()),
  ])
}
process.exitCode = failed === 0 ? 0 : 1
// A check cut short by its timeout can leave a WebdriverIO command waiting on the closed session for
// minutes; once the output is written, nothing else is left to do.
setTimeout(() => process.exit(), 1_000).unref()
`
}
