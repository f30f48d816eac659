#!/usr/bin/env bash
# Builds the VS Code extension from its lock file: `npm ci`, `tsc` (type errors fail), then
# `vsce package` into editors/vscode/sources-lsp.vsix. Quiet unless a step fails.
set -euo pipefail
cd "$(dirname "$0")"

quietly() {
    local log
    log=$(mktemp)
    if ! "$@" >"$log" 2>&1; then
        echo "editors/vscode: '$*' failed:" >&2
        cat "$log" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
}

quietly npm ci --no-audit --no-fund
quietly npm run compile
quietly npx --no-install vsce package --out sources-lsp.vsix
test -s sources-lsp.vsix
