#!/usr/bin/env bash
# The VS Code end-to-end test as scripts/test runs it: installs what it needs (first use only), then
# runs e2e.mjs twice against the packaged extension (editors/vscode/sources-lsp.vsix, from
# package.sh, which carries the given `sources` binary): with the package's own binary and no
# `sources` on PATH every check must pass; with a server path that does not exist (the negative
# control) every check must fail; then in restricted mode (an untrusted workspace that sets the
# server path) the restricted-mode checks must pass. First it checks that the package's manifest
# restricts `sources.server.path` in untrusted workspaces. Quiet unless something fails.
#
#   bash editors/vscode/test/run.sh target/debug/sources
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)

fail() {
    echo "editors/vscode/test/run.sh: $*" >&2
    exit 1
}

[[ $# -eq 1 ]] || fail "usage: run.sh PATH-TO-SOURCES-BINARY"
server=$(realpath "$1")
[[ -x $server ]] || fail "$1 is not an executable (build it: cargo build -p sources-cli)"
vsix=$root/editors/vscode/sources-lsp.vsix
[[ -s $vsix ]] || fail "$vsix is missing (build it: bash editors/vscode/package.sh)"
out=$root/target/vscode-e2e

bash "$here/install.sh"

# The manifest the package carries declares limited support for untrusted workspaces, with the
# server path among the settings a workspace cannot set there.
unzip -p "$vsix" extension/package.json | node -e '
const manifest = JSON.parse(require("fs").readFileSync(0, "utf8"));
const untrusted = manifest.capabilities?.untrustedWorkspaces;
if (untrusted?.supported !== "limited" || !untrusted.restrictedConfigurations?.includes("sources.server.path")) {
  console.error(`capabilities.untrustedWorkspaces is ${JSON.stringify(untrusted)}`);
  process.exit(1);
}' || fail "$vsix does not restrict sources.server.path in untrusted workspaces"

# Both runs at once (the negative control mostly waits out its checks), each with its own
# code-server, browser and profile.
# The negative control: the same test with the server path pointing nowhere must fail every check
# (status 1; status 2 would be the harness failing, which proves nothing).
negative_log=$(mktemp)
timeout 300 node "$here/e2e.mjs" --server "$out/no-server/sources" --vsix "$vsix" --out "$out/negative" \
    >"$negative_log" 2>&1 &
negative_pid=$!
trap 'kill "$negative_pid" 2>/dev/null || true; rm -f "$negative_log"' EXIT

# The real server, the one the package carries (no `--server`, no `sources` on PATH): every check
# passes. The package must carry the binary given here.
unzip -p "$vsix" extension/server/sources | cmp -s - "$server" \
    || fail "$vsix does not carry $1 as server/sources (package it: bash editors/vscode/package.sh $1)"
if ! positive=$(timeout 300 node "$here/e2e.mjs" --vsix "$vsix" --out "$out/positive" 2>&1); then
    echo "$positive" >&2
    fail "the VS Code end-to-end test failed (logs and screenshot in $out/positive)"
fi

status=0
wait "$negative_pid" || status=$?
negative=$(cat "$negative_log")
if [[ $status -ne 1 ]] || ! grep -Eq '^0 of [0-9]+ checks passed' <<<"$negative"; then
    echo "$negative" >&2
    fail "the negative control (no language server) did not fail every check (status $status)"
fi

# Restricted mode: the same package in an untrusted workspace whose settings point the server path
# nowhere. Diagnostics must come (from the package's binary) and no "▶ try" lens may be offered.
if ! restricted=$(timeout 300 node "$here/e2e.mjs" --untrusted --vsix "$vsix" --out "$out/restricted" 2>&1); then
    echo "$restricted" >&2
    fail "the VS Code restricted-mode test failed (logs and screenshot in $out/restricted)"
fi

summary=$(grep -E '^[0-9]+ of [0-9]+ checks passed' <<<"$positive" | cut -d' ' -f1-3)
restricted_summary=$(grep -E '^[0-9]+ of [0-9]+ checks passed' <<<"$restricted" | cut -d' ' -f1-3)
echo "ok: VS Code end-to-end in code-server: $summary checks pass, and all fail without the server; in restricted mode $restricted_summary pass (screenshots: target/vscode-e2e/{positive,restricted}/screenshot.png)"
