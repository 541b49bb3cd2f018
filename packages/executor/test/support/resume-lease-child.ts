// One of the processes the lease test starts at once: says it is loaded, waits for the shared start
// time the test sends on stdin once both are loaded, resumes the run on the shared SQLite file, and
// prints what happened as one JSON line.

import { Effect } from "effect"
import { resume } from "../../src/index.ts"
import { leaseLayer } from "./LeaseRun.ts"
import { wait } from "./TestTools.ts"

const [databasePath = "", runId = ""] = process.argv.slice(2)
const startAt = new Promise<number>((resolve) =>
  process.stdin.once("data", (chunk) => resolve(Number(String(chunk)))),
)
console.log("loaded")
const program = Effect.gen(function* () {
  const at = yield* Effect.promise(() => startAt)
  process.stdin.destroy()
  yield* Effect.sleep(Math.max(0, at - Date.now()))
  return yield* resume(runId, { tools: [wait] })
}).pipe(Effect.provide(leaseLayer(databasePath)))

Effect.runPromise(Effect.result(program)).then((result) => {
  if (result._tag === "Success") {
    console.log(JSON.stringify({ pid: process.pid, status: result.success.status }))
  } else {
    const failure = result.failure
    console.log(
      JSON.stringify({
        pid: process.pid,
        error: failure._tag,
        reason: failure.reason._tag,
        message: failure.message,
      }),
    )
  }
})
