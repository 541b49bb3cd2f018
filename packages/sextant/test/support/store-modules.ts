// Creates an agent on the store named by argv[2] ("memory", a file, or a postgres:// URL), lists its runs
// (which opens the store), and prints whether the PostgreSQL client `pg` was loaded into the process.
import { createRequire } from "node:module"
import { createAgent } from "../../src/index.ts"

const store = process.argv[2] ?? "memory"
const agent = createAgent({
  store:
    store === "memory"
      ? "memory"
      : store.startsWith("postgres")
        ? (store as `postgres://${string}`)
        : { path: store },
  traceDirectory: false,
})
let opened = "ok"
try {
  await agent.runs()
} catch (error) {
  opened = (error as { reason?: { _tag?: string } }).reason?._tag ?? String(error)
}
await agent.close()
const loaded = Object.keys(createRequire(import.meta.url).cache).some((path) =>
  /[\\/]node_modules[\\/]pg[\\/]/.test(path),
)
console.log(JSON.stringify({ opened, pgLoaded: loaded }))
