import { Writable } from "node:stream"

/** A writable stream that keeps what a command wrote, for tests of the CLI's functions. */
export const sink = () => {
  let text = ""
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk)
      done()
    },
  })
  return { stream, text: () => text }
}
