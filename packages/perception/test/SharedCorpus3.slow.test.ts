import { describeSharedCorpusShard } from "./support/CorpusCheck.ts"

// The shared corpus is read in 3 files so that parallel test workers share its pages.
await describeSharedCorpusShard(2)
