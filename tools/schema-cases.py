"""Validates every golden case in testdata/ against schema/sources.schema.json with two validators
that are not ours, ajv (node, draft 2020-12) and check-jsonschema (python), and reports per file.

A case that must lint clean (`pass*` files, testdata/valid/, testdata/examples/) must validate under
both. A failing case must fail under both when one of the error codes in its `.out` is a rule the
schema expresses (EXPRESSIBLE below); other failing cases are not the schema's to catch and are
skipped. Cases with a syntax error are skipped (there is nothing to validate).

Usage: python schema-cases.py   (from anywhere; needs `npm ci` in tools/ and check-jsonschema)
"""

import json
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "schema" / "sources.schema.json"
TESTDATA = ROOT / "testdata"

# The rules whose every error a JSON Schema states (by rule code). Not here: the rules over several
# entries (unknown-source, reference-cycle, bindings, undeclared-param, join-lookup), expressions
# (expression, growing-invalid's `while`), templates (invalid-template, window-missing-token,
# window-unreferenced-filter, window-token-in-program, an exec window's or anchored http window's
# filter channel), the binding halves of anchored-field (event-log `start`) and
# window-sort-without-sort-param (a sortable column), and the warnings.
EXPRESSIBLE = {
    "unknown-field",  # closed maps per kind (`additionalProperties: false`), `pipe` not on merge
    "missing-field",  # `required` per kind and section, `sources` or `children`
    "invalid-value",  # types, enumerations, non-empty maps, typed parameter defaults, stage kinds
    "unknown-kind",  # `type` is an enumeration
    "invalid-duration",  # the Go duration pattern, typed parameter defaults
    "conflicting-fields",  # `not: {required: [a, b]}`, `dependentRequired`
    "window-kind",  # `window` only in the http and exec definitions
    "window-format",  # `not` window/paginate with `format: text`
    "window-negative",  # `minimum: 0`
    "window-http-only-field",  # the exec window definition has no http-only fields
    "window-missing-param",  # an unanchored http window requires offset_param and limit_param
    "anchored-needs-older-newer",  # an anchored http window requires older and newer
}


def is_case(path: Path) -> bool:
    return path.suffix in (".yaml", ".yml", ".toml") and path.is_file()


def must_pass(relative: str) -> bool:
    name = relative.rsplit("/", 1)[-1]
    return name.startswith("pass") or relative.startswith(("valid/", "examples/"))


def error_codes(case: Path) -> set[str]:
    out = case.with_name(case.name + ".out")
    if not out.exists():
        return set()
    codes = set()
    for line in out.read_text(encoding="utf-8").splitlines():
        if ": error[" in line:
            codes.add(line.split(": error[", 1)[1].split("]", 1)[0])
    return codes


def expectation(case: Path) -> tuple[str, str]:
    """("valid" | "invalid" | "skip", why)."""
    relative = case.relative_to(TESTDATA).as_posix()
    if must_pass(relative):
        return "valid", "lints clean"
    codes = error_codes(case)
    if not codes or "syntax" in codes:
        return "skip", "syntax error" if codes else "no errors"
    expressed = sorted(codes & EXPRESSIBLE)
    if expressed:
        return "invalid", ", ".join(expressed)
    return "skip", "rules not in the schema: " + ", ".join(sorted(codes))


def run_ajv(files: dict[Path, Path]) -> dict[Path, tuple[bool, list[str]]]:
    """files: case → the file ajv reads (TOML converted to JSON)."""
    by_input = {str(read): case for case, read in files.items()}
    result = subprocess.run(
        ["node", str(ROOT / "tools" / "ajv-validate.mjs"), str(SCHEMA), *by_input],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"ajv failed to run (exit {result.returncode}):\n{result.stderr}")
    verdicts = {}
    for line in result.stdout.splitlines():
        report = json.loads(line)
        verdicts[by_input[report["file"]]] = (report["valid"], report["errors"])
    return verdicts


def run_check_jsonschema(cases: list[Path]) -> dict[Path, tuple[bool, list[str]]]:
    tool = Path(sys.executable).parent / "check-jsonschema"
    result = subprocess.run(
        [str(tool), "--schemafile", str(SCHEMA), "-o", "json", *map(str, cases)],
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        sys.exit(f"check-jsonschema failed to run (exit {result.returncode}):\n{result.stdout}{result.stderr}")
    errors: dict[str, list[str]] = {}
    for error in report.get("errors", []) + report.get("parse_errors", []):
        where = error.get("path", "")
        errors.setdefault(error["filename"], []).append(f"{where} {error.get('message', error)}".strip())
    return {case: (str(case) not in errors, errors.get(str(case), [])) for case in cases}


def main() -> int:
    if not SCHEMA.exists():
        sys.exit(f"{SCHEMA} is missing: run `cargo run -q -p sources-cli -- schema > schema/sources.schema.json`")
    cases = sorted(path for path in TESTDATA.rglob("*") if is_case(path))
    planned = {case: expectation(case) for case in cases}
    checked = [case for case in cases if planned[case][0] != "skip"]
    with tempfile.TemporaryDirectory() as scratch:
        inputs = {}
        for index, case in enumerate(checked):
            if case.suffix == ".toml":
                data = tomllib.loads(case.read_text(encoding="utf-8"))
                converted = Path(scratch) / f"{index}-{case.stem}.json"
                converted.write_text(json.dumps(data, default=str), encoding="utf-8")
                inputs[case] = converted
            else:
                inputs[case] = case
        ajv = run_ajv(inputs)
    cjs = run_check_jsonschema(checked)
    passed = failed = 0
    for case in cases:
        relative = case.relative_to(ROOT).as_posix()
        expected, why = planned[case]
        if expected == "skip":
            continue
        want_valid = expected == "valid"
        problems = []
        for tool, verdicts in (("ajv", ajv), ("check-jsonschema", cjs)):
            valid, errors = verdicts.get(case, (None, ["no result"]))
            if valid is not want_valid:
                detail = "; ".join(errors[:4]) if errors else "no error reported"
                problems.append(f"    {tool}: {'valid' if valid else 'invalid'}: {detail}")
        if problems:
            failed += 1
            print(f"FAIL {relative}: expected {expected} ({why})")
            print("\n".join(problems))
        else:
            passed += 1
            print(f"ok   {relative}: {expected} under ajv and check-jsonschema ({why})")
    skipped = len(cases) - len(checked)
    print(f"schema: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
