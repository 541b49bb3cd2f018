import { causeMessage } from "@sextant/core"
import { type Summary, summarize } from "./Stats.ts"

/** How many times to run a measurement, and how many untimed runs come first. */
export interface RunPlan {
  readonly warmup: number
  readonly runs: number
}

/** A measured piece failed: the bench stops and says which piece, on what, and why. */
export class BenchError extends Error {
  readonly piece: string
  readonly subject: string
  constructor(piece: string, subject: string, cause: unknown) {
    const reason = causeMessage(cause)
    super(`${piece} failed on ${subject}: ${reason}`, { cause })
    this.name = "BenchError"
    this.piece = piece
    this.subject = subject
  }
}

/**
 * Runs `task` and returns its wall-clock time in milliseconds; a failure becomes a {@link BenchError}
 * naming the piece and its subject.
 */
export const timeOnce = async (
  piece: string,
  subject: string,
  task: () => Promise<unknown>,
): Promise<number> => {
  const start = performance.now()
  try {
    await task()
  } catch (cause) {
    throw cause instanceof BenchError ? cause : new BenchError(piece, subject, cause)
  }
  return performance.now() - start
}

/** One timed contender of an interleaved measurement. */
export interface Contender {
  readonly piece: string
  readonly run: () => Promise<unknown>
  /** Runs untimed before each timed run, e.g. to reset the page. */
  readonly before?: () => Promise<unknown>
}

/**
 * Times several contenders round by round (A, B, C, A, B, C, …) after `plan.warmup` untimed rounds,
 * so a slow spell of the machine hits every contender alike rather than whichever ran then.
 *
 * @example
 * ```ts
 * const [playwright, sextant] = await interleave("/login", { warmup: 3, runs: 20 }, [
 *   { piece: "playwright", run: () => page.ariaSnapshot({ mode: "ai" }) },
 *   { piece: "look", run: () => session.look("full") },
 * ])
 * ```
 */
export const interleave = async (
  subject: string,
  plan: RunPlan,
  contenders: ReadonlyArray<Contender>,
): Promise<ReadonlyArray<Summary>> => {
  const samples = contenders.map(() => [] as Array<number>)
  for (let round = 0; round < plan.warmup + plan.runs; round += 1) {
    for (const [index, contender] of contenders.entries()) {
      if (contender.before !== undefined) {
        try {
          await contender.before()
        } catch (cause) {
          throw new BenchError(`${contender.piece} (setup)`, subject, cause)
        }
      }
      const elapsed = await timeOnce(contender.piece, subject, contender.run)
      if (round >= plan.warmup) samples[index]!.push(elapsed)
    }
  }
  return samples.map((list) => summarize(list))
}
