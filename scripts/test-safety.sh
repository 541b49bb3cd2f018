#!/usr/bin/env bash
# The standing hostile-surface suite (`pnpm test:safety`): every file whose path starts with one of these,
# from the default set and from the slow set (a hostile test that spawns the CLI lives in the slow set,
# `*.slow.test.ts`, and still belongs here). A new Hostile*.test.ts joins by adding its path below.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(
  packages/executor/test/HostileOrigins
  packages/executor/test/Guardrails
  packages/executor/test/Redaction
  packages/memory/test/Redaction
  packages/perception/test/Secrets
  packages/executor/test/ResumeSecrets
  packages/executor/test/RunId
  packages/executor/test/RunMany
  packages/executor/test/SubmissionQuota
  packages/executor/test/DriverCrash
  packages/executor/test/AgentEndsAtOnce
  packages/webdriverio/test/Liveness
  packages/webdriverio/test/NavigationStatus
  packages/webdriverio/test/Dialogs
  packages/webdriverio/test/DialogScript
  packages/webdriverio/test/ActOrigins
  packages/sextant/test/LoginRejected
  packages/sextant/test/BadInput
  packages/sextant/test/BadInputQueue
  packages/explorer/test/HostileExports
  packages/explorer/test/HostileExportRun
  packages/explorer/test/HostileExplorer
  packages/sextant/test/HostileExploreCli
  packages/webdriverio/test/HostileTabs
  packages/webdriverio/test/HostileAgentScreenshot
  packages/executor/test/HostileTabs
  packages/mcp/test/HostileMcpHttp
  packages/mcp/test/HostileMcpSecrets
  packages/mcp/test/HostileMcpStrictGuard
  packages/mcp/test/HostileMcpUpload
  packages/mcp/test/HostileMcpScreenshot
  packages/core/test/HostileTaskKeys
  packages/tools/test/HostileSessionRedirects
  packages/tools/test/HostileUpload
  packages/sextant/test/HostileSessionTools
  packages/sextant/test/HostileUploadFlag
  packages/executor/test/HostileSecrets
  packages/executor/test/HostileResume
  packages/executor/test/HostileResumeSubmission
  packages/executor/test/HostileTamperedStore
  packages/executor/test/HostileSvgLinks
  packages/executor/test/HostileDoneWithoutSearch
  packages/explorer/test/HostileExportSecrets
  packages/executor/test/HostileUnknownSecret
  packages/memory/test/HostileEchoSpellings
  packages/executor/test/HostileEchoSpellings
  packages/sextant/test/HostileExportCli
  packages/executor/test/HostileHungTab
  packages/executor/test/HostileSecretsChannels
  packages/executor/test/HostileUnguardedSecrets
  packages/webdriverio/test/HostilePoolIsolation
  packages/webdriverio/test/HostileSharedBrowser
  fixtures/site/test/HostileSharedTestBrowser
  packages/sextant/test/HostileUnguardedBrowsers
  packages/explorer/test/HostileExplorerUnguarded
  packages/webdriverio/test/HostileSharedGuard
  packages/webdriverio/test/HostileRuntime
  packages/webdriverio/test/HostileLostKeystrokes
  packages/executor/test/HostileLostKeystrokes
  packages/executor/test/HostileScreenshotMasking
  packages/executor/test/HostileSignInSteps
  packages/sextant/test/HostileConnectionUrls
)
vitest run --passWithNoTests "${paths[@]}" "$@"
SEXTANT_TEST_SET=slow vitest run --passWithNoTests "${paths[@]}" "$@"
