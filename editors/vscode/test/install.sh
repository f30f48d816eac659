#!/usr/bin/env bash
# Installs what the VS Code end-to-end test needs, once: Debian's chromium, ripgrep, the Kerberos
# headers and a font (apt), then code-server and playwright-core from package-lock.json (npm).
# Idempotent: every step is skipped when its result is present. Quiet unless a step fails.
#
# code-server's install runs `npm install` inside its bundled VS Code, which builds native modules
# (Node's headers come with Debian's nodejs) and runs @vscode/ripgrep's postinstall. That
# postinstall downloads a ripgrep release from GitHub unless its cache already holds the archive:
# this script puts an archive of Debian's `rg` there, so nothing but the package registries is
# contacted.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
root=$(cd ../../.. && pwd)

fail() {
    echo "editors/vscode/test/install.sh: $*" >&2
    exit 1
}

# --- apt ------------------------------------------------------------------------------------------
apt_packages=(chromium ripgrep libkrb5-dev fonts-dejavu-core)
missing=()
for package in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if ((${#missing[@]} > 0)); then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
        >/dev/null 2>&1 || fail "apt-get install ${missing[*]} failed (run as root, or install them)"
fi

# --- npm ------------------------------------------------------------------------------------------
# The stamp holds the lock file's hash after a complete install; a changed lock installs again.
stamp=node_modules/.sources-e2e-installed
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$lock_hash" ]]; then
    exit 0
fi

# The @vscode/ripgrep version that code-server 4.100.3 locks, and the ripgrep release tag its
# postinstall asks for (lib/postinstall.js). Bumping code-server means checking both.
ripgrep_package=1.15.11
ripgrep_tag=v13.0.0-10
npm_tmp=$root/target/vscode-e2e/npm-tmp
cache=$npm_tmp/vscode-ripgrep-cache-$ripgrep_package
archive=$cache/ripgrep-$ripgrep_tag-x86_64-unknown-linux-musl.tar.gz
[[ $(uname -m) == x86_64 ]] || fail "the ripgrep cache is seeded for x86_64 only, not $(uname -m)"
if [[ ! -s $archive ]]; then
    mkdir -p "$cache"
    staging=$(mktemp -d)
    cp "$(command -v rg)" "$staging/rg"
    tar czf "$archive" -C "$staging" rg
    rm -rf "$staging"
fi

# Build native modules against the installed Node's headers (Debian's nodejs ships them) rather
# than downloading them.
node_prefix=$(dirname "$(dirname "$(command -v node)")")
[[ -f $node_prefix/include/node/node.h ]] || fail "Node's headers are missing ($node_prefix/include/node/node.h)"
log=$(mktemp)
# npm_config_unsafe_perm: code-server's postinstall refuses to run as root without it.
if ! TMPDIR=$npm_tmp npm_config_yes=true npm_config_unsafe_perm=true npm_config_nodedir=$node_prefix \
    npm ci --unsafe-perm --no-audit --no-fund >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    fail "npm ci failed (see above; if @vscode/ripgrep tried to download, its version or tag changed: update ripgrep_package/ripgrep_tag)"
fi
rm -f "$log"
locked=$(node -p 'require("./node_modules/code-server/lib/vscode/npm-shrinkwrap.json").packages["node_modules/@vscode/ripgrep"].version')
[[ $locked == "$ripgrep_package" ]] || fail "code-server locks @vscode/ripgrep $locked, not $ripgrep_package: update this script"
[[ -x node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg ]] \
    || fail "code-server's ripgrep is missing after npm ci"
echo "$lock_hash" >"$stamp"
