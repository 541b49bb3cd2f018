#!/usr/bin/env node
import { runMcpCommand } from "./Command.ts"

process.exitCode = await runMcpCommand(process.argv.slice(2))
