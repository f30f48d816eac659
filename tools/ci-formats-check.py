"""Checks `sources lint --format gitlab` and `--format junit` with tools that are not ours.

GitLab Code Quality: check-jsonschema against tools/gitlab-codequality.schema.json (the fields GitLab
documents as required), fingerprints unique and equal on a second run. JUnit XML: read back with
junitparser; one test case per file and rule, every diagnostic of `--format json` inside a failure
of its rule's case, passing cases for clean files. Prints one line per check; exits 1 on a problem.

Usage: python ci-formats-check.py SOURCES_BINARY   (needs check-jsonschema and junitparser)
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from junitparser import Failure, JUnitXml

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
CASES = [
    "testdata/fixes",
    "testdata/conflicting-fields",
    "testdata/undeclared-param-reference",
    "testdata/examples/demo.yaml",
]


def lint(sources: str, fmt: str) -> str:
    run = subprocess.run([sources, "lint", "--format", fmt, *CASES], cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 1:
        sys.exit(f"FAIL ci-formats: `sources lint --format {fmt}` exited {run.returncode} (expected 1):\n{run.stderr}")
    return run.stdout


def check_gitlab(sources: str, diagnostics: list[dict]) -> None:
    report = lint(sources, "gitlab")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "gl-code-quality-report.json"
        path.write_text(report)
        tool = Path(sys.executable).parent / "check-jsonschema"
        run = subprocess.run(
            [str(tool), "--schemafile", str(TOOLS / "gitlab-codequality.schema.json"), str(path)],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            sys.exit(f"FAIL gitlab: check-jsonschema rejects the report:\n{run.stdout}{run.stderr}")
    issues = json.loads(report)
    if len(issues) != len(diagnostics):
        sys.exit(f"FAIL gitlab: {len(issues)} issues for {len(diagnostics)} diagnostics")
    fingerprints = [issue["fingerprint"] for issue in issues]
    if len(set(fingerprints)) != len(fingerprints):
        sys.exit("FAIL gitlab: two issues share a fingerprint")
    if [issue["fingerprint"] for issue in json.loads(lint(sources, "gitlab"))] != fingerprints:
        sys.exit("FAIL gitlab: fingerprints differ between two runs")
    for issue, diagnostic in zip(issues, diagnostics):
        got = (issue["check_name"], issue["location"]["path"], issue["location"]["lines"]["begin"])
        want = (diagnostic["code"], diagnostic["path"], diagnostic["line"])
        if got != want:
            sys.exit(f"FAIL gitlab: issue {got} where `--format json` has {want}")
    print(f"ok   gitlab: {len(issues)} issues valid under check-jsonschema, fingerprints unique and stable")


def check_junit(sources: str, diagnostics: list[dict]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "junit.xml"
        path.write_text(lint(sources, "junit"))
        xml = JUnitXml.fromfile(str(path))
    cases = {}
    for suite in xml:
        for case in suite:
            key = (case.classname, case.name)
            if key in cases:
                sys.exit(f"FAIL junit: two test cases for {key}")
            cases[key] = case
    wanted = {(d["path"], d["code"]) for d in diagnostics}
    failing = {key for key, case in cases.items() if any(isinstance(r, Failure) for r in case.result)}
    if failing != wanted:
        sys.exit(f"FAIL junit: failing cases {sorted(failing)} but diagnostics for {sorted(wanted)}")
    for d in diagnostics:
        failure = next(r for r in cases[(d["path"], d["code"])].result if isinstance(r, Failure))
        line = f"{d['path']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']}"
        if line not in (failure.text or "").split("\n"):
            sys.exit(f"FAIL junit: `{line}` missing from the failure of {d['path']} {d['code']}")
    passing = [key for key in cases if key not in failing]
    if not all(name == "sources lint" for _, name in passing):
        sys.exit(f"FAIL junit: unexpected passing cases {passing}")
    print(f"ok   junit: {len(cases)} test cases read by junitparser, {len(failing)} failing as `--format json` says")


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: python ci-formats-check.py SOURCES_BINARY")
    sources = str(Path(sys.argv[1]).resolve())
    diagnostics = json.loads(lint(sources, "json"))["diagnostics"]
    check_gitlab(sources, diagnostics)
    check_junit(sources, diagnostics)


if __name__ == "__main__":
    main()
