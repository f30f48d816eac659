//! The conformance corpus (`testdata/expressions/*.toml`): every case is compiled as `try`
//! compiles it (`Expr::compile` in the file's language) and run through the operator its group
//! names (`compute` through `derive`, `keep` through `project`, `where` through `filter`, `by`
//! through `sort`), and its value or error is held to the one written. Every mismatch is printed
//! with its case, and the test fails on any.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use sources_eval::error::Cause;
use sources_eval::expr::Expr;
use sources_eval::operators;
use sources_expr::Language;

/// One case's outcome: a value, or the detail of the error.
type Outcome = Result<Value, String>;

fn detail(cause: Cause) -> String {
    match cause {
        Cause::Expression { detail, .. } => detail,
        other => other.to_string(),
    }
}

/// Runs `text` over `row` through the operator `via`.
fn run(
    language: Language,
    via: &str,
    text: &str,
    row: &Value,
    params: &BTreeMap<String, Value>,
) -> Outcome {
    let field = match via {
        "compute" | "keep" => format!("{via}.v"),
        other => other.to_owned(),
    };
    let expr = Expr::compile(language, field, text).map_err(detail)?;
    let rows = Value::Array(vec![row.clone()]);
    let first = |value: Value| -> Outcome {
        match value {
            Value::Array(mut rows) if !rows.is_empty() => Ok(rows.swap_remove(0)),
            other => Err(format!("the operator gave {other}")),
        }
    };
    match via {
        // A row that is not a map passes `derive` unchanged: its value is read as `derive` reads
        // a map row's, through the expression itself.
        "compute" if !row.is_object() => expr.eval(row, params).map_err(detail),
        "compute" => {
            let out = operators::derive(rows, &[("v".to_owned(), expr)], params).map_err(detail)?;
            Ok(first(out)?.get("v").cloned().unwrap_or(Value::Null))
        }
        "keep" => {
            let out =
                operators::project(rows, &[("v".to_owned(), expr)], params).map_err(detail)?;
            Ok(first(out)?.get("v").cloned().unwrap_or(Value::Null))
        }
        "where" => {
            let out = operators::filter(rows, &expr, params).map_err(detail)?;
            Ok(Value::Bool(
                out.as_array().is_some_and(|kept| !kept.is_empty()),
            ))
        }
        "by" => {
            operators::sort(rows, &expr, false, params).map_err(detail)?;
            expr.eval(row, params).map_err(detail)
        }
        other => Err(format!("unknown `via` {other:?}")),
    }
}

/// Whether `got` is what `want` says: JSON, or `error: TEXT` for an error whose detail contains
/// TEXT (any error when TEXT is empty).
fn agrees(want: &str, got: &Outcome) -> Result<bool, String> {
    match want
        .strip_prefix("error: ")
        .or_else(|| want.strip_prefix("error:"))
    {
        Some(text) => Ok(got
            .as_ref()
            .is_err_and(|detail| detail.contains(text.trim()))),
        None => {
            let want: Value = serde_json::from_str(want)
                .map_err(|error| format!("expected value {want:?}: {error}"))?;
            Ok(got.as_ref().is_ok_and(|value| *value == want))
        }
    }
}

#[test]
fn every_case_of_the_corpus_evaluates_as_written() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/expressions");
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .expect("the corpus folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    let mut wrong = Vec::new();
    let mut counted: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    for path in &files {
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("?")
            .to_owned();
        let text = std::fs::read_to_string(path).expect("readable");
        let file: toml::Table =
            toml::from_str(&text).unwrap_or_else(|error| panic!("{name}: {error}"));
        let language = file
            .get("language")
            .and_then(toml::Value::as_str)
            .and_then(Language::from_name)
            .unwrap_or_else(|| panic!("{name}: `language` names no language"));
        let groups = file
            .get("group")
            .and_then(toml::Value::as_array)
            .cloned()
            .unwrap_or_default();
        for group in groups {
            let string = |key: &str| group.get(key).and_then(toml::Value::as_str);
            let via = string("via").unwrap_or_else(|| panic!("{name}: a group without `via`"));
            let row: Value = serde_json::from_str(string("row").unwrap_or("{}"))
                .unwrap_or_else(|error| panic!("{name}: row: {error}"));
            let params: BTreeMap<String, Value> =
                serde_json::from_str(string("params").unwrap_or("{}"))
                    .unwrap_or_else(|error| panic!("{name}: params: {error}"));
            let cases = group
                .get("cases")
                .and_then(toml::Value::as_array)
                .cloned()
                .unwrap_or_default();
            for case in cases {
                let pair = case.as_array().map(Vec::as_slice).unwrap_or_default();
                let [expression, want] = pair else {
                    panic!("{name}: a case is [expression, expected]: {case}");
                };
                let (Some(expression), Some(want)) = (expression.as_str(), want.as_str()) else {
                    panic!("{name}: a case is two strings: {case}");
                };
                let got = run(language, via, expression, &row, &params);
                let count = counted.entry(language.name()).or_default();
                count.1 += 1;
                match agrees(want, &got) {
                    Ok(true) => count.0 += 1,
                    Ok(false) => wrong.push(format!(
                        "{name} [{}] {via} `{expression}` over {row}: expected {want}, got {got:?}",
                        language.name()
                    )),
                    Err(problem) => panic!("{name}: {problem}"),
                }
            }
        }
    }
    for (language, (passed, total)) in &counted {
        println!("{language}: {passed} of {total} cases as written");
    }
    let total: usize = counted.values().map(|(_, total)| total).sum();
    assert!(
        total >= 300,
        "the corpus has {total} cases; it holds at least 300"
    );
    assert!(
        wrong.is_empty(),
        "{} cases differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
