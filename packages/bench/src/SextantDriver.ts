import type { BrowserDriverShape } from "@sextant/core"
import { launch, makeDriver } from "@sextant/webdriverio"
import { Effect, Exit, Scope } from "effect"
import { RUN_MARK, VIEWPORT } from "./Browsers.ts"
import type { SextantSession } from "./Sextant.ts"

/**
 * Opens Sextant's WebdriverIO driver on the system Chromium (its own `launch`, default options) and
 * counts the WebDriver requests its client sends: HTTP commands (`request.start`, which includes
 * DevTools commands sent through ChromeDriver), BiDi messages (`bidiCommand`) and commands sent on a
 * tab's own DevTools socket (`devtoolsSocketCommand`).
 */
export const openSextant = async (extraArgs: ReadonlyArray<string> = []): Promise<SextantSession> => {
  const scope = await Effect.runPromise(Scope.make())
  const close = () => Effect.runPromise(Scope.close(scope, Exit.void))
  try {
    const session = await Effect.runPromise(
      Scope.provide(scope)(
        launch({
          windowSize: { width: VIEWPORT.width, height: VIEWPORT.height },
          args: [RUN_MARK, ...extraArgs],
        }),
      ),
    )
    let requests = 0
    const count = () => {
      requests += 1
    }
    session.browser.on("request.start", count)
    session.browser.on("bidiCommand", count)
    session.browser.on("devtoolsSocketCommand" as never, count)
    const driver: BrowserDriverShape = await Effect.runPromise(Scope.provide(scope)(makeDriver(session)))
    return {
      navigate: async (url) => {
        await Effect.runPromise(driver.navigate(url))
      },
      look: (mode) => Effect.runPromise(driver.look({ mode })),
      act: (target, op, value) => Effect.runPromise(driver.act(target, op, value)),
      evaluate: (script) => Effect.runPromise(driver.evaluate(script)),
      requests: () => requests,
      driver,
      close,
    }
  } catch (cause) {
    await close()
    throw cause
  }
}
