import type { SuiteResult, TestResult } from "./Runner.ts"

// Characters XML 1.0 cannot hold at all, even escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to remove
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g
const XML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
}

/** Text made safe for an XML attribute or element: escaped, and without characters XML cannot hold. */
export const escapeXml = (text: string): string =>
  text.replace(INVALID_XML, "").replace(/[&<>"']/g, (character) => XML_ESCAPES[character] ?? character)

const seconds = (ms: number): string => (ms / 1000).toFixed(3)

const failureText = (test: TestResult): string =>
  [
    ...test.steps.map(
      (step) =>
        `${step.passed ? "ok  " : "FAIL"} ${step.index + 1}. ${step.step}${step.message ? ` — ${step.message}` : ""}`,
    ),
  ].join("\n")

/**
 * The suite's verdicts as JUnit XML, the format CI servers read: one `testcase` per test, a `failure`
 * with its kind, message and the steps for each failed one.
 *
 * @example
 * ```ts
 * import { writeFileSync } from "node:fs"
 * import { formatJunitXml } from "@sextant/explorer"
 * writeFileSync("junit.xml", formatJunitXml(result))
 * ```
 */
export const formatJunitXml = (result: SuiteResult): string => {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(result.name)}" tests="${result.tests.length}" failures="${result.failed}" time="${seconds(result.durationMs)}">`,
    `  <testsuite name="${escapeXml(result.name)}" tests="${result.tests.length}" failures="${result.failed}" errors="0" skipped="0" time="${seconds(result.durationMs)}">`,
  ]
  for (const test of result.tests) {
    const open = `    <testcase classname="${escapeXml(result.name)}" name="${escapeXml(test.name)}" time="${seconds(test.durationMs)}"`
    if (test.passed) {
      lines.push(`${open}/>`)
      continue
    }
    lines.push(`${open}>`)
    lines.push(
      `      <failure type="${escapeXml(test.error?.kind ?? "assertion")}" message="${escapeXml(test.error?.message ?? "failed")}">${escapeXml(failureText(test))}</failure>`,
    )
    lines.push("    </testcase>")
  }
  lines.push("  </testsuite>", "</testsuites>", "")
  return lines.join("\n")
}

/**
 * A readable report for a terminal: one line per test, the failing step and its message under each
 * failed one, a line for each locator found by role and name because its selector matched nothing (run
 * `sextant heal` to write the new selectors into the spec), and a summary line.
 *
 * @example
 * ```ts
 * import { formatConsoleReport } from "@sextant/explorer"
 * console.log(formatConsoleReport(result))
 * // ✓ Login page /login shows "Sign in" (412 ms)
 * // ✗ Form page /forms/contact shows "Contact us" (3120 ms)
 * //     step 3 (Assert): expected the page to show "Contact us"; it shows: "Get in touch …"
 * //     fell back at step 2: textbox "Email" — #email matches nothing, found by role and name as #email-k3
 * // 1 passed, 1 failed (3.5 s)
 * ```
 */
export const formatConsoleReport = (result: SuiteResult): string => {
  const lines: Array<string> = []
  for (const test of result.tests) {
    lines.push(`${test.passed ? "✓" : "✗"} ${test.name} (${Math.round(test.durationMs)} ms)`)
    for (const fallback of test.fallbacks)
      lines.push(
        `    fell back at step ${fallback.step + 1}: ${fallback.role} "${fallback.name}" — ${fallback.from} matches nothing, found by role and name as ${fallback.to}`,
      )
    if (test.error !== undefined) lines.push(`    [${test.error.kind}] ${test.error.message}`)
  }
  const fellBack = result.tests.filter((test) => test.fallbacks.length > 0).length
  lines.push(
    `${result.passed} passed, ${result.failed} failed (${(result.durationMs / 1000).toFixed(1)} s)${fellBack === 0 ? "" : `; ${fellBack} found elements by role and name: sextant heal writes their new selectors into the spec`}`,
  )
  return `${lines.join("\n")}\n`
}
