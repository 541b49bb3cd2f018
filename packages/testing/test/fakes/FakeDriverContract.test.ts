import { CONTRACT_NEXT_PAGE, CONTRACT_PAGE, driverContract } from "../../src/DriverContract.ts"
import { FakeBrowserDriver } from "../../src/index.ts"

// The fake agrees with the real driver (packages/webdriverio/test/DriverContract.test.ts) on this suite.
driverContract("FakeBrowserDriver", {
  layer: FakeBrowserDriver.layerTest({ site: { "/contract": CONTRACT_PAGE, "/next": CONTRACT_NEXT_PAGE } }),
  url: "http://fake.test/contract",
})
