"""Checks that the JSON Schema and the linter agree beyond the golden cases: every valid case in
testdata/ is mutated field by field (each field under `data` removed, or replaced by one of a few
values of every JSON type), and each variant is linted (`sources lint --format json`) and validated
with ajv. A variant fails the check when

- the schema rejects it but the linter finds no error (the schema would flag a correct file in an
  editor), or
- every error the linter finds is of a rule the schema expresses (EXPRESSIBLE in schema-cases.py)
  but the schema accepts it, unless SCHEMA_CANNOT lists the mutation with the reason a schema
  cannot express that error (counted by reason in the summary).

Variants are written as JSON, which is YAML, so both tools read the same text.
Usage: python schema-agreement.py SOURCES_BINARY   (python from the venv the test command makes)
"""

import copy
import json
import subprocess
import sys
import tempfile
import tomllib
from collections import Counter
from pathlib import Path

from ruamel.yaml import YAML

sys.path.insert(0, str(Path(__file__).resolve().parent))
from importlib import import_module  # noqa: E402

cases_module = import_module("schema-cases")
EXPRESSIBLE = cases_module.EXPRESSIBLE
ROOT = cases_module.ROOT
SCHEMA = cases_module.SCHEMA
TESTDATA = cases_module.TESTDATA

# Mutations whose error a JSON Schema cannot express although its rule code is one a schema
# expresses elsewhere: (case, the field path the mutation changes) -> the reason. They are counted
# by reason, never silently passed.
STATIC_ROOT = "a static entry's `root` must name a path inside its `data`: a relation between two values"
METHOD_PARAMETER = "a `method` template must name a declared parameter: a reference between two fields"
PASSED_DEFAULT = "a default one entry binds must parse as the type another entry declares: a relation between two entries"
SCHEMA_CANNOT = {
    ("testdata/invalid-value/pass-anchored-body.yaml", "data/sources/plain/body"): (
        "an anchored window's `body` must render to a JSON object: the content of a template"
    ),
    ("testdata/invalid-value/pass-method-template.yaml", "data/sources/call/parameters"): METHOD_PARAMETER,
    ("testdata/invalid-value/pass-request-values.yaml", "data/sources/tab-in-header/parameters"): METHOD_PARAMETER,
    ("testdata/invalid-value/pass-runnable.yaml", "data/sources/colours/root"): STATIC_ROOT,
    ("testdata/invalid-value/pass-runnable.yaml", "data/sources/colours/data"): STATIC_ROOT,
    ("testdata/valid/automation.toml", "data/sources/defaults/root"): STATIC_ROOT,
    ("testdata/valid/automation.toml", "data/sources/defaults/data"): STATIC_ROOT,
    ("testdata/conflicting-fields/pass-param-default-through-union.yaml", "data/sources/recent/parameters"): PASSED_DEFAULT,
}

# One value of each JSON type, plus a negative number (counts) and a duration-shaped string.
REPLACEMENTS = [0, -1, "x", "30s", True, None, {}]


def load(case: Path):
    text = case.read_text(encoding="utf-8")
    if case.suffix == ".toml":
        return tomllib.loads(text)
    return YAML(typ="safe", pure=True).load(text)


def paths(node, at):
    """Every key path below `node` (map keys; list items are walked but not replaced)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield [*at, key]
            yield from paths(value, [*at, key])
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths(value, [*at, index])


def variants(document):
    for path in paths(document.get("data"), ["data"]):
        for replacement in [...] + REPLACEMENTS:
            variant = copy.deepcopy(document)
            parent = variant
            for step in path[:-1]:
                parent = parent[step]
            if replacement is ...:
                del parent[path[-1]]
            else:
                parent[path[-1]] = replacement
            label = "/".join(map(str, path)) + (" removed" if replacement is ... else f" = {json.dumps(replacement)}")
            yield label, variant


def main() -> int:
    sources = str(Path(sys.argv[1]).resolve()) if len(sys.argv) > 1 else sys.exit("usage: schema-agreement.py SOURCES_BINARY")
    cases = sorted(
        case
        for case in TESTDATA.rglob("*")
        if case.suffix in (".yaml", ".yml", ".toml")
        and cases_module.must_pass(case.relative_to(TESTDATA).as_posix())
    )
    with tempfile.TemporaryDirectory() as scratch:
        labels = {}
        cannot: dict[str, str | None] = {}
        for case in cases:
            document = load(case)
            if not isinstance(document, dict) or not isinstance(document.get("data"), dict):
                continue
            relative = case.relative_to(ROOT).as_posix()
            for label, variant in variants(document):
                name = f"{len(labels)}.yaml"
                (Path(scratch) / name).write_text(json.dumps(variant, default=str), encoding="utf-8")
                labels[name] = f"{relative}: {label}"
                cannot[name] = next(
                    (why for (at, field), why in SCHEMA_CANNOT.items() if at == relative and label.startswith(field)),
                    None,
                )
        lint = subprocess.run([sources, "lint", "--format", "json", "."], cwd=scratch, capture_output=True, text=True, check=False)
        if lint.returncode not in (0, 1):
            sys.exit(f"sources lint failed (exit {lint.returncode}):\n{lint.stderr}")
        errors: dict[str, set[str]] = {}
        for diagnostic in json.loads(lint.stdout)["diagnostics"]:
            if diagnostic["severity"] == "error":
                errors.setdefault(Path(diagnostic["path"]).name, set()).add(diagnostic["code"])
        names = sorted(labels, key=lambda name: int(name.split(".")[0]))
        ajv = subprocess.run(
            ["node", str(ROOT / "tools" / "ajv-validate.mjs"), str(SCHEMA), *names],
            cwd=scratch, capture_output=True, text=True, check=False,
        )
        if ajv.returncode != 0:
            sys.exit(f"ajv failed to run (exit {ajv.returncode}):\n{ajv.stderr}")
    failures = 0
    agreed = Counter()
    skipped = Counter()
    for line in ajv.stdout.splitlines():
        report = json.loads(line)
        name = report["file"]
        codes = errors.get(name, set())
        if not report["valid"] and not codes:
            failures += 1
            print(f"FAIL schema stricter than the linter: {labels[name]}: {'; '.join(report['errors'][:3])}")
        elif report["valid"] and codes and codes <= EXPRESSIBLE and cannot[name]:
            skipped[cannot[name]] += 1
        elif report["valid"] and codes and codes <= EXPRESSIBLE:
            failures += 1
            print(f"FAIL schema misses an error it expresses: {labels[name]}: {', '.join(sorted(codes))}")
        else:
            agreed["both reject" if codes and not report["valid"] else "both accept" if not codes else "linter only (rules beyond a schema)"] += 1
    for why, count in sorted(skipped.items()):
        print(f"not the schema's to judge ({count} mutations): {why}")
    agreed["not the schema's to judge"] = sum(skipped.values())
    summary = ", ".join(f"{count} {what}" for what, count in sorted(agreed.items()))
    print(f"{'ok  ' if failures == 0 else 'FAIL'} schema agreement over {len(labels)} mutations of the valid cases: {summary}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
