"""Validates every golden case in testdata/ against schema/sources.schema.json with two validators
that are not ours, ajv (node, draft 2020-12) and check-jsonschema (python), and reports per file.

The linter itself says what each case is: every case is linted (`sources lint --format json`) and
its error codes decide. A case that must lint clean (`pass*` files, testdata/valid/,
testdata/examples/) must lint clean and validate under both. A failing case must fail under both
when one of its error codes is a rule the schema expresses (EXPRESSIBLE below); other failing cases
are not the schema's to catch and are skipped, counted by reason in the summary. Cases with a syntax
error are skipped (there is nothing to validate). A run that checked no case, or whose validators
gave no verdict for a case, fails: a checker that checked nothing must not pass.

Usage: python schema-cases.py SOURCES_BINARY   (from anywhere; needs `npm ci` in tools/ and
check-jsonschema)
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
    "unknown-field",  # closed maps per kind (`additionalProperties: false`)
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


# Cases whose verdict a JSON Schema cannot reach, each with the reason: checks of values inside
# strings (empty argv, NUL bytes, header names and values, URL forms, JSON roots, zero durations),
# suppression comments (a schema sees no comments) and YAML merge keys (the validators' YAML readers
# differ on `<<`).
SCHEMA_CANNOT = {
    "conflicting-fields/text-root.yaml": "root against format: text inside one entry",
    "conflicting-fields/param-types-through-merge.yaml": "parameter types of two entries one operator reads",
    "conflicting-fields/param-default-through-union.yaml": "one entry's default against another entry's parameter type",
    "invalid-value/empty-command.yaml": "an empty program name inside the argv list",
    "invalid-value/empty-filter-name.yaml": "an empty column name as a map value",
    "invalid-value/anchored-body.yaml": "JSON text inside the body string",
    "conflicting-fields/interactive-multi.yaml": "a binding's interactive against the multi of the action it names",
    "unknown-field/interactive-on-http.yaml": "a binding's interactive against the type of the action it names",
    "invalid-value/anchored-search.yaml": "where a token stands inside the body's JSON text",
    "invalid-value/anchored-offset.yaml": "what a window token renders to inside the body's JSON text",
    "invalid-value/command-nul.yaml": "a NUL byte inside an argument or variable",
    "invalid-value/file-path.yaml": "an empty path, or a NUL byte inside one",
    "invalid-value/header-value.yaml": "HTTP header-value syntax, also of a parameter's default",
    "invalid-value/http-url-refused.yaml": "what the URL parser accepts (hosts, ports), also of a default",
    "invalid-value/websocket-url-refused.yaml": "what the websocket client accepts (scheme case, host)",
    "invalid-value/header-name.yaml": "HTTP header-name syntax",
    "invalid-value/http-url.yaml": "URL scheme and form",
    "invalid-value/static-root.yaml": "a root path looked up in inline data",
    "invalid-value/zero-timeout.toml": "a zero duration",
    "unused-suppression/pass-suppressed.toml": "suppression comments",
    "unused-suppression/pass-suppressed.yaml": "suppression comments",
    "valid/merge-keys.yaml": "YAML merge keys",
    # Lint judges the keys of the top level and of `data` by whether the file is a dashboard at
    # all (any key of the format there) and by what a misplaced key holds; the schema leaves both
    # levels open.
    "unknown-field/data-source.toml": "a key of `data` judged by whether the file is a dashboard",
    "unknown-field/misplaced-levels.yaml": "a key of another level judged by what it holds",
    "unknown-field/pass-not-a-dashboard-key.yaml": "whether `data` is the format's at all",
    "unknown-field/sources-at-top-of-a-plain-file.yaml": "a top-level key judged by what it holds",
    "unknown-field/top-level-typo.yaml": "a top-level key judged by whether the file is a dashboard",
}


def is_case(path: Path) -> bool:
    # testdata/settings/ holds the cases of sources-lint.toml, which change what the linter
    # reports (or stop it) and are not the schema's to judge.
    settings = TESTDATA / "settings"
    return path.suffix in (".yaml", ".yml", ".toml") and path.is_file() and settings not in path.parents


def must_pass(relative: str) -> bool:
    name = relative.rsplit("/", 1)[-1]
    return name.startswith("pass") or relative.startswith(("valid/", "examples/"))


def lint_error_codes(binary: str, cases: list[Path]) -> dict[Path, set[str]]:
    """The error codes `sources lint` reports for each case (every case named, even clean ones)."""
    result = subprocess.run(
        [binary, "lint", "--format", "json", *map(str, cases)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode not in (0, 1):
        sys.exit(f"sources lint failed to run (exit {result.returncode}):\n{result.stderr}")
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError as error:
        sys.exit(f"sources lint --format json printed no JSON ({error}):\n{result.stdout[:2000]}")
    codes: dict[Path, set[str]] = {case: set() for case in cases}
    by_name = {str(case): case for case in cases}
    for diagnostic in report["diagnostics"]:
        case = by_name.get(diagnostic["path"])
        if case is None:
            sys.exit(f"sources lint reported a file it was not given: {diagnostic['path']}")
        if diagnostic["severity"] == "error":
            codes[case].add(diagnostic["code"])
    return codes


def expectation(case: Path, codes: set[str]) -> tuple[str, str]:
    """("valid" | "invalid" | "skip" | "wrong", why)."""
    relative = case.relative_to(TESTDATA).as_posix()
    if relative in SCHEMA_CANNOT:
        return "skip", "not expressible: " + SCHEMA_CANNOT[relative]
    if must_pass(relative):
        if codes:
            return "wrong", "must lint clean, but the linter reports " + ", ".join(sorted(codes))
        return "valid", "lints clean"
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
    if len(sys.argv) != 2:
        sys.exit("usage: python schema-cases.py SOURCES_BINARY")
    if not SCHEMA.exists():
        sys.exit(f"{SCHEMA} is missing: run `cargo run -q -p sources-cli -- schema > schema/sources.schema.json`")
    cases = sorted(path.relative_to(ROOT) for path in TESTDATA.rglob("*") if is_case(path))
    if not cases:
        sys.exit(f"no cases found under {TESTDATA}: nothing was checked")
    codes = lint_error_codes(str(Path(sys.argv[1]).resolve()), cases)
    cases = [ROOT / case for case in cases]
    planned = {case: expectation(case, codes[case.relative_to(ROOT)]) for case in cases}
    wrong = [case for case in cases if planned[case][0] == "wrong"]
    for case in wrong:
        print(f"FAIL {case.relative_to(ROOT).as_posix()}: {planned[case][1]}")
    checked = [case for case in cases if planned[case][0] in ("valid", "invalid")]
    if not checked:
        sys.exit("schema: no case was checked (every case was skipped): the check proves nothing")
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
        if expected in ("skip", "wrong"):
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
    failed += len(wrong)
    reasons: dict[str, int] = {}
    for case in cases:
        expected, why = planned[case]
        if expected == "skip":
            reason = why.split(":", 1)[0]
            reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in sorted(reasons.items()):
        print(f"skipped {count}: {reason}")
    skipped = sum(reasons.values())
    print(f"schema: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
