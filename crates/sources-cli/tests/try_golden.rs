//! Golden `sources try` runs: every `.yaml` under `testdata/try/` (operators as the format's origin
//! runs them, over `static` inputs) and `testdata/corpus/` (configurations written the way the
//! dashboard's documentation writes them: on_cursor tables, lists and trees, pushed screens,
//! prompts, operators over parameterised entries) names the runs to make in comment lines
//! `# try: ENTRY [ARGS…]`, with the parameters a binding of the dashboard would give. Each run is
//! the real binary (`sources try ENTRY -c FILE --pretty ARGS…`); its exit status, standard output
//! and the stderr lines that start `sources:` (notes and warnings, not the trace) are compared with
//! `FILE.try` beside the case. `UPDATE_EXPECT=1 cargo test -p sources-cli --test try_golden`
//! re-blesses. A run with `-o table` draws the component that shows the entry within
//! `COLUMNS=100`. The in-process demo's clock stands still (`SOURCES_DEMO_FROZEN`), so a slow run
//! cannot see a job finish and a revision move. These files are also lint golden cases
//! (`pass-…`): they must lint clean.

use std::fs;
use std::path::{Path, PathBuf};

use sources_testkit::process::{command, outcome};

const BLESS: &str = "UPDATE_EXPECT=1 cargo test -p sources-cli --test try_golden";

fn cases(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(dir);
    let mut cases: Vec<PathBuf> = sources_testkit::files_under(&root)
        .into_iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    cases.sort();
    cases
}

/// The runs a case asks for: the words after each `# try:`.
fn runs(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter_map(|line| line.strip_prefix("# try:"))
        .map(|args| args.split_whitespace().map(str::to_owned).collect())
        .collect()
}

fn transcript(case: &Path) -> String {
    let text = fs::read_to_string(case).expect("readable case");
    let runs = runs(&text);
    assert!(!runs.is_empty(), "{}: no `# try:` line", case.display());
    let mut out = String::new();
    for args in runs {
        let (entry, rest) = args.split_first().expect("an entry after `# try:`");
        let (code, stdout, stderr) = outcome(
            command(env!("CARGO_BIN_EXE_sources"), &["try", entry, "-c"])
                .arg(case)
                .arg("--pretty")
                .args(rest)
                .env("SOURCES_DEMO_FROZEN", "1")
                .env("COLUMNS", "100"),
        );
        out.push_str(&format!("$ sources try {}\n", args.join(" ")));
        out.push_str(&format!("exit {code}\n"));
        for line in stderr.lines().filter(|line| line.starts_with("sources:")) {
            if !line.contains("demo backend") {
                out.push_str(&format!("stderr: {line}\n"));
            }
        }
        out.push_str(&stdout);
        if !stdout.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

fn check(dir: &str, at_least: usize) {
    let cases = cases(dir);
    assert!(
        cases.len() >= at_least,
        "expected at least {at_least} cases under testdata/{dir}, found {}",
        cases.len()
    );
    for case in cases {
        let expected = case.with_extension("yaml.try");
        sources_testkit::assert_file(&expected, &transcript(&case), BLESS);
    }
}

#[test]
fn operators_run_as_the_origin_documents() {
    check("try", 7);
}

#[test]
fn the_corpus_runs_with_the_parameters_its_bindings_give() {
    check("corpus", 20);
}
