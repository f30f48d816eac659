#!/usr/bin/env bash
# Builds the VS Code extension from its lock file: `npm ci` (when the lock changed), `tsc` (type errors fail), then
# `vsce package --target PLATFORM` into editors/vscode/sources-lsp.vsix, carrying the given `sources`
# binary as server/sources for this machine's platform (as the rust-analyzer, ruff and taplo
# extensions do); the extension runs it unless `sources.server.path` is set. Quiet unless a step fails.
#
#   bash editors/vscode/package.sh target/debug/sources
set -euo pipefail
[[ $# -eq 1 && -x $1 ]] || { echo "usage: editors/vscode/package.sh PATH-TO-SOURCES-BINARY (build it: cargo build -p sources-cli)" >&2; exit 1; }
binary=$(realpath "$1")
cd "$(dirname "$0")"

# VS Code's name for this platform.
case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) target=linux-x64 ;;
    Linux-aarch64) target=linux-arm64 ;;
    Darwin-x86_64) target=darwin-x64 ;;
    Darwin-arm64) target=darwin-arm64 ;;
    *) echo "editors/vscode/package.sh: no VS Code target for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac

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
rm -rf server
mkdir server
cp "$binary" server/sources
chmod 755 server/sources
quietly npx --no-install vsce package --target "$target" --out sources-lsp.vsix
test -s sources-lsp.vsix
