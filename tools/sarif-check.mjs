// Checks `sources lint --format sarif` with Microsoft's SARIF validator (@microsoft/sarif-multitool
// validate: the SARIF 2.1.0 schema and its rules) on a few failing cases, and checks each result
// against the same diagnostic in `--format json`: rule id and metadata (with help text), level and
// the exact region. Prints one line per check; exits 1 on any problem.
// Usage: node sarif-check.mjs SOURCES_BINARY
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const tools = dirname(fileURLToPath(import.meta.url));
const root = resolve(tools, "..");
const sources = process.argv[2] && resolve(process.argv[2]);
if (!sources) {
  console.error("usage: node sarif-check.mjs SOURCES_BINARY");
  process.exit(2);
}

// One failing case from each of these rule folders: fixes, secondary labels, TOML, a syntax error,
// a warning, several files in one log.
const folders = ["fixes", "conflicting-fields", "syntax", "undeclared-param-reference", "window-missing-token"];
const cases = [];
for (const [index, folder] of folders.entries()) {
  const names = readdirSync(join(root, "testdata", folder))
    .filter((name) => /\.(ya?ml|toml)$/.test(name) && !name.startsWith("pass"))
    .sort();
  const wanted = index % 2 === 0 ? /\.ya?ml$/ : /\.toml$/;
  const pick = names.find((name) => wanted.test(name)) ?? names[0];
  if (!pick) {
    console.log(`FAIL sarif: no failing case in testdata/${folder}`);
    process.exit(1);
  }
  cases.push(`testdata/${folder}/${pick}`);
}

const lint = (format) => {
  const run = spawnSync(sources, ["lint", "--format", format, ...cases], { cwd: root, encoding: "utf8" });
  if (run.status !== 1) {
    console.log(`FAIL sarif: \`sources lint --format ${format}\` exited ${run.status} (expected 1):\n${run.stderr}`);
    process.exit(1);
  }
  return run.stdout;
};
const sarifText = lint("sarif");
const report = JSON.parse(lint("json"));

const scratch = mkdtempSync(join(tmpdir(), "sarif-check-"));
let problems = 0;
const fail = (message) => {
  problems += 1;
  console.log(`FAIL sarif: ${message}`);
};
try {
  const input = join(scratch, "lint.sarif");
  const log = join(scratch, "validation.sarif");
  writeFileSync(input, sarifText);
  const multitool = join(tools, "node_modules", ".bin", "sarif-multitool");
  try {
    execFileSync(multitool, ["validate", input, "--output", log, "--log", "ForceOverwrite"], { stdio: "pipe" });
  } catch (error) {
    fail(`the validator did not run: ${error.stderr || error.message}`);
  }
  const findings = JSON.parse(readFileSync(log, "utf8")).runs.flatMap((run) => run.results ?? []);
  for (const finding of findings) {
    const text = finding.message.text ?? (finding.message.arguments ?? []).join(", ");
    fail(`validator ${finding.level ?? "warning"} ${finding.ruleId}: ${text}`);
  }
  if (findings.length === 0) console.log(`ok   sarif-multitool validate: no findings (${cases.join(", ")})`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const sarif = JSON.parse(sarifText);
const run = sarif.runs[0];
const rules = run.tool.driver.rules;
const results = run.results;
if (results.length !== report.diagnostics.length) {
  fail(`${results.length} results for ${report.diagnostics.length} diagnostics`);
}
const levels = { error: "error", warning: "warning" };
results.forEach((result, index) => {
  const diagnostic = report.diagnostics[index];
  if (!diagnostic) return;
  const where = `${diagnostic.path}:${diagnostic.line}:${diagnostic.column}`;
  const rule = rules[result.ruleIndex];
  if (result.ruleId !== diagnostic.code || rule?.id !== diagnostic.code) {
    fail(`${where}: ruleId ${result.ruleId} / rules[${result.ruleIndex}] ${rule?.id}, expected ${diagnostic.code}`);
  }
  if (!rule?.help?.text || !rule?.shortDescription?.text) fail(`${where}: rule ${result.ruleId} has no help or description`);
  if (result.level !== levels[diagnostic.severity]) fail(`${where}: level ${result.level}, expected ${diagnostic.severity}`);
  const location = result.locations?.[0]?.physicalLocation;
  if (location?.artifactLocation?.uri !== diagnostic.path) {
    fail(`${where}: artifact ${location?.artifactLocation?.uri}, expected ${diagnostic.path}`);
  }
  const region = location?.region ?? {};
  const got = [region.startLine, region.startColumn, region.endLine, region.endColumn];
  const want = [diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column];
  if (got.join() !== want.join()) fail(`${where}: region ${got.join(",")}, expected ${want.join(",")}`);
});
if (problems === 0) {
  console.log(`ok   sarif: ${results.length} results carry rule metadata, help text and the exact regions of the json report`);
}

// Paths given as `../x` and as absolute paths still become URIs relative to %SRCROOT%, and
// %SRCROOT% plus the URI is the file.
const before = problems;
const inside = join(root, "testdata", "syntax");
const outside = [`../${cases[0].replace(/^testdata\//, "")}`, join(root, cases[2])];
const elsewhere = spawnSync(sources, ["lint", "--format", "sarif", ...outside], { cwd: inside, encoding: "utf8" });
const elsewhereRun = JSON.parse(elsewhere.stdout || "{}").runs?.[0] ?? {};
const base = elsewhereRun.originalUriBaseIds?.["%SRCROOT%"]?.uri;
if (!base?.startsWith("file:///") || !base.endsWith("/")) fail(`originalUriBaseIds.%SRCROOT% is ${base}`);
const wanted = new Set(outside.map((path) => resolve(inside, path)));
for (const result of elsewhereRun.results ?? []) {
  const artifact = result.locations?.[0]?.physicalLocation?.artifactLocation ?? {};
  if (artifact.uriBaseId !== "%SRCROOT%" || /^(file:|\/|\.\.)/.test(artifact.uri ?? "/")) {
    fail(`artifact ${JSON.stringify(artifact)} is not a relative URI against %SRCROOT%`);
  } else if (base && !wanted.has(fileURLToPath(new URL(artifact.uri, base)))) {
    fail(`%SRCROOT% ${base} + ${artifact.uri} is none of ${[...wanted].join(", ")}`);
  }
}
if (problems === before) {
  console.log(`ok   sarif: \`../\` and absolute paths become URIs relative to %SRCROOT% (${base})`);
}
process.exit(problems === 0 ? 0 : 1);
