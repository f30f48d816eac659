#!/usr/bin/env bash
# Checks the schema with Taplo (the TOML toolkit behind the Even Better TOML extension), as the
# README documents it: a `#:schema ./…` directive on a file with a misspelled field reports that
# field, and every valid TOML case validates.
# Usage: tools/taplo-check.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
taplo="$root/tools/node_modules/.bin/taplo"
[[ -x "$taplo" ]] || { echo "FAIL taplo: $taplo is missing (npm ci in tools/)"; exit 1; }

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/schema"
cp "$root/schema/sources.schema.json" "$scratch/schema/"
cat > "$scratch/sources.toml" <<'TOML'
#:schema ./schema/sources.schema.json
[data.sources.apps]
type = "http"
urll = "http://127.0.0.1:8099/apps"
TOML
if out="$(cd "$scratch" && "$taplo" lint sources.toml 2>&1)"; then
  echo "FAIL taplo: a misspelled field passed:"; echo "$out"; exit 1
fi
if ! grep -q "'urll' was unexpected" <<<"$out"; then
  echo "FAIL taplo: no diagnostic about \`urll\`:"; echo "$out"; exit 1
fi
echo "ok   taplo (#:schema directive): reports 'urll' was unexpected"

# A case that passes only through a `# sources: ignore[…]` comment is left out: a suppression
# silences the linter, not a schema.
mapfile -t cases < <(find "$root/testdata" -name '*.toml' \( -path '*/valid/*' -o -path '*/examples/*' -o -name 'pass*' \) \
  -exec grep -L 'sources: ignore' {} + | sort)
(( ${#cases[@]} > 0 )) || { echo "FAIL taplo: no TOML case to validate"; exit 1; }
if ! out="$("$taplo" lint --schema "file://$root/schema/sources.schema.json" "${cases[@]}" 2>&1)"; then
  echo "FAIL taplo: a TOML case that lints clean does not validate:"; echo "$out"; exit 1
fi
for case in "${cases[@]}"; do
  echo "ok   taplo: ${case#"$root/"} validates"
done
