#!/usr/bin/env bash
# Renders `sources graph` of testdata/examples/demo.yaml with Graphviz (`dot -Tsvg`) and checks that
# the drawing has every entry and component, and that a configuration with a reference cycle is
# drawn (cycle edges red) and reported with exit status 1.
# Usage: bash graph-check.sh SOURCES_BINARY
set -euo pipefail
sources=$(realpath "$1")
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$sources" graph -c "$root/testdata/examples/demo.yaml" --format dot > "$tmp/demo.dot"
if ! dot -Tsvg "$tmp/demo.dot" -o "$tmp/demo.svg" 2> "$tmp/dot.err"; then
  echo "FAIL graph: Graphviz rejects the DOT of demo.yaml:"; cat "$tmp/dot.err"; exit 1
fi
"$sources" graph -c "$root/testdata/examples/demo.yaml" --format json > "$tmp/demo.json"
missing=$(python3 - "$tmp/demo.json" "$tmp/demo.svg" <<'PY'
import json, sys
graph = json.load(open(sys.argv[1]))
svg = open(sys.argv[2]).read()
print(" ".join(n["name"] for n in graph["nodes"] if f">{n['name']}<" not in svg))
PY
)
if [[ -n "$missing" ]]; then
  echo "FAIL graph: the SVG Graphviz drew lacks nodes: $missing"; exit 1
fi

printf 'data:\n  sources:\n    a: {type: passthrough, from: b}\n    b: {type: passthrough, from: a}\n' > "$tmp/cycle.yaml"
status=0
"$sources" graph -c "$tmp/cycle.yaml" > "$tmp/cycle.dot" 2> "$tmp/cycle.err" || status=$?
if [[ $status -ne 1 ]] || ! grep -q "reference cycle: a → b → a" "$tmp/cycle.err"; then
  echo "FAIL graph: a cycle should exit 1 and be reported (exit $status):"; cat "$tmp/cycle.err"; exit 1
fi
dot -Tsvg "$tmp/cycle.dot" -o "$tmp/cycle.svg" || { echo "FAIL graph: Graphviz rejects the cycle's DOT"; exit 1; }
grep -q 'stroke="red"' "$tmp/cycle.svg" || { echo "FAIL graph: the cycle is not drawn red"; exit 1; }
echo "ok   graph: demo.yaml renders with Graphviz ($(grep -c '<g id="node' "$tmp/demo.svg") nodes), a cycle is drawn red and reported"
