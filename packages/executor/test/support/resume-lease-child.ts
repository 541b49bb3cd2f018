// One of the processes the lease test starts at once: waits for the shared start time, resumes the run
// on the shared SQLite file, and prints what happened as one JSON line.

import { Effect } from "effect"
import { resume } from "../../src/index.ts"
import { leaseLayer } from "./LeaseRun.ts"
import { wait } from "./TestTools.ts"

const [databasePath = "", runId = "", startAt = "0"] = process.argv.slice(2)
const program = Effect.gen(function* () {
  yield* Effect.sleep(Math.max(0, Number(startAt) - Date.now()))
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
