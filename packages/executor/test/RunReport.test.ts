import { describe, expect, it } from "vitest"
import { type RunReportData, renderRunReport } from "../src/index.ts"

const data: RunReportData = {
  runId: "run-1",
  goal: "log in & extract <the> products",
  startUrl: "http://127.0.0.1:4000/login",
  mode: "plan",
  status: "FAILED",
  endReason: "plan-failed",
  startedAt: "2026-11-23T21:00:00.000Z",
  summary: {
    taskComplete: false,
    summary: "Stopped after 1 of 2 steps",
    keyFindings: [],
    nextSuggestions: [],
  },
  unmetParts: [{ part: "extract", check: "minItems 12", evidence: "0 items" }],
  metrics: {
    success: false,
    steps: 2,
    retries: 1,
    replans: 0,
    durationMs: 1500,
    llmCalls: 1,
    tokens: { prompt: 300, completion: 40, total: 340 },
  },
  timeline: [
    { kind: "model", purpose: "plan", tokens: { prompt: 300, completion: 40, total: 340 } },
    {
      kind: "step",
      step: 0,
      tool: "fill",
      target: "#password",
      ok: true,
      durationMs: 120,
      retries: 0,
      signals: ["NoOp"],
      tokens: 0,
    },
    {
      kind: "step",
      step: 1,
      tool: "click",
      target: "#missing",
      ok: false,
      durationMs: 900,
      retries: 1,
      signals: [],
      tokens: 0,
      message: "no element matches #missing",
    },
    { kind: "guardrail", step: 2, tool: "navigate", message: "http://evil.test is not an allowed origin" },
  ],
  records: [
    { name: "Brass Sextant", price: 129 },
    { name: "Lantern", price: 45, rating: 4.5 },
  ],
}

describe("renderRunReport", () => {
  const html = renderRunReport(data)

  it("escapes every text it shows, so a page's text cannot become markup", () => {
    expect(html).toContain("<h1>log in &amp; extract &lt;the&gt; products</h1>")
    expect(html).not.toContain("<the>")
  })

  it("marks failed steps and guardrail refusals as errors with their messages", () => {
    expect(html).toMatch(
      /<tr class="step error">.*<code>click<\/code>.*#missing.*<strong>failed<\/strong>: no element matches #missing/,
    )
    expect(html).toMatch(
      /<tr class=error>.*<strong>guardrail<\/strong>: http:\/\/evil\.test is not an allowed origin/,
    )
    expect(html).toMatch(/<tr class="step ok">.*<code>fill<\/code>.*<span class=signal>NoOp<\/span>/)
  })

  it("names the unmet parts and the model's tokens", () => {
    expect(html).toContain("<li>extract: minItems 12: saw 0 items</li>")
    expect(html).toMatch(/model call: plan.*340.*300 prompt \+ 40 completion/)
  })

  it("shows the records as a table with the union of their fields", () => {
    expect(html).toContain("<th>name</th><th>price</th><th>rating</th>")
    expect(html).toContain("<tr><td>Lantern</td><td>45</td><td>4.5</td></tr>")
  })

  it("is one file with no script and nothing loaded from elsewhere", () => {
    expect(html).not.toMatch(/<script|<link|src="http/)
  })
})
