#!/usr/bin/env bash
# Builds the VS Code extension from its lock file: `npm ci` (when the lock changed), `tsc` (type errors fail), then
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

# `npm ci` again only when the lock file changed since the last install.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    quietly npm ci --no-audit --no-fund
fi
quietly npm run compile
quietly npx --no-install vsce package --out sources-lsp.vsix
test -s sources-lsp.vsix
