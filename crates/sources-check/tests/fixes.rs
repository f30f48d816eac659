//! Golden before/after cases for the safe fixes: every `.yaml`/`.toml` under `testdata/fixes/` is
//! repaired with `fix_all` (what `sources lint --fix` writes) and compared with `<case>.fixed`
//! beside it. Every case must need at least one fix and the repaired text must lint clean.
//! `UPDATE_EXPECT=1 cargo test -p sources-check --test fixes` re-blesses the `.fixed` files.

use std::fs;
use std::path::{Path, PathBuf};

use sources_check::{analyze, fix_all};
use sources_syntax::Syntax;

fn cases() -> Vec<(PathBuf, Syntax)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fixes");
    let mut found: Vec<(PathBuf, Syntax)> = fs::read_dir(&dir)
        .expect("testdata/fixes is readable")
        .map(|entry| entry.expect("directory entry").path())
        .filter_map(|path| Syntax::from_path(&path).map(|syntax| (path, syntax)))
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

fn fixed_path(case: &Path) -> PathBuf {
    let name = case.file_name().expect("file name").to_string_lossy();
    case.with_file_name(format!("{name}.fixed"))
}

#[test]
fn every_fix_case_matches_its_repaired_file() {
    let update = sources_testkit::blessing();
    let cases = cases();
    assert!(
        cases.len() >= 10,
        "expected the fix cases under testdata/fixes"
    );
    let mut failures = Vec::new();
    for (case, syntax) in cases {
        let name = case
            .file_name()
            .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
        let original = fs::read_to_string(&case).expect("case is UTF-8");
        let fixed = fix_all(&original, syntax);
        if fixed.applied.is_empty() {
            failures.push(format!("{name}: no safe fix applies"));
            continue;
        }
        let remaining = analyze(&fixed.text, syntax).diagnostics;
        if !remaining.is_empty() {
            let codes: Vec<&str> = remaining.iter().map(|d| d.rule.code()).collect();
            failures.push(format!("{name}: still reports {codes:?} after fixing"));
        }
        let expected_path = fixed_path(&case);
        if update {
            fs::write(&expected_path, &fixed.text).expect("write .fixed");
            continue;
        }
        match fs::read_to_string(&expected_path) {
            Ok(expected) if expected == fixed.text => {}
            Ok(expected) => failures.push(format!(
                "{name}: repaired text differs from {}\n--- expected\n{expected}\n--- actual\n{}",
                expected_path.display(),
                fixed.text
            )),
            Err(_) => failures.push(format!("{name}: no {}", expected_path.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\nIf the new output is right, re-bless with:\n    UPDATE_EXPECT=1 cargo test -p sources-check --test fixes",
        failures.join("\n")
    );
}
