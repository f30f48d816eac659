#!/usr/bin/env bash
# Proves the published pre-commit hook with the real pre-commit: `pre-commit try-repo` of this
# repository on a throwaway git repository with one good and one bad configuration. The good one
# must pass and the bad one must fail with its diagnostic. `sources` comes from PATH (the test
# command puts target/debug first), so the hook's build-once branch is not exercised here.
# Usage: tools/pre-commit-check.sh PRE_COMMIT_EXECUTABLE
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pre_commit="$(realpath "${1:?usage: pre-commit-check.sh PRE_COMMIT_EXECUTABLE}")"
command -v sources >/dev/null || { echo "FAIL pre-commit: \`sources\` is not on PATH" >&2; exit 1; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export PRE_COMMIT_HOME="$scratch/cache"
repo="$scratch/repo"
git init -q "$repo"
cat > "$repo/good.yaml" <<'YAML'
data:
  sources:
    apps:
      type: http
      url: http://127.0.0.1:8099/apps
      refresh: 30s
YAML
cat > "$repo/bad.toml" <<'TOML'
[data.sources.apps]
type = "http"
urll = "http://127.0.0.1:8099/apps"
TOML
git -C "$repo" add good.yaml bad.toml

run() { (cd "$repo" && "$pre_commit" try-repo "$root" sources-lint --files "$@" 2>&1); }

if ! out="$(run good.yaml)"; then
  echo "FAIL pre-commit: the hook failed on a good configuration:"; echo "$out"; exit 1
fi
echo "ok   pre-commit try-repo: good.yaml passes"
if out="$(run bad.toml)"; then
  echo "FAIL pre-commit: the hook passed a configuration with an error:"; echo "$out"; exit 1
fi
if ! grep -q "unknown-field" <<<"$out"; then
  echo "FAIL pre-commit: the hook failed without the expected unknown-field diagnostic:"; echo "$out"; exit 1
fi
echo "ok   pre-commit try-repo: bad.toml fails with unknown-field"
if out="$(run good.yaml bad.toml)"; then
  echo "FAIL pre-commit: the hook passed when one of two files has an error:"; echo "$out"; exit 1
fi
echo "ok   pre-commit try-repo: good.yaml + bad.toml fails"
