//! Rows per second of a `filter` and a `derive` over 100,000 rows, the same pipeline written in
//! each language, through the operators `try` and lint run (`sources_expr::operators`). The goal is
//! expr-lang within 2× of CEL; docs/performance.md records the figures.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Value, json};
use sources_expr::operators::{self, Params};
use sources_expr::{Compiled, Language, compile};

/// The number of rows each run goes through.
const ROWS: usize = 100_000;

/// `ROWS` rows of a user list.
fn rows() -> Value {
    Value::Array(
        (0..ROWS)
            .map(|n| {
                json!({
                    "id": n,
                    "username": format!("user{n}"),
                    "website": if n % 4 == 0 { format!("site{n}.biz") } else { format!("site{n}.org") },
                })
            })
            .collect(),
    )
}

/// The filter's condition and the derive's computed keys in `language`.
fn pipeline(language: Language) -> (Compiled, Vec<(String, Compiled)>) {
    let (condition, computed): (&str, [(&str, &str); 2]) = match language {
        Language::Cel => (
            "size(username) >= 6 && id % 3 != 0",
            [
                ("score", "id * 2 + 1"),
                ("label", "username + '@' + website"),
            ],
        ),
        Language::Expr => (
            "len(username) >= 6 and id % 3 != 0",
            [
                ("score", "id * 2 + 1"),
                ("label", "username + '@' + website"),
            ],
        ),
    };
    let compiled =
        |text: &str| compile(language, text).expect("the benchmark's expressions compile");
    (
        compiled(condition),
        computed
            .iter()
            .map(|(key, text)| ((*key).to_owned(), compiled(text)))
            .collect(),
    )
}

fn filter_and_derive(c: &mut Criterion) {
    let input = rows();
    let params = Params::new();
    let mut group = c.benchmark_group("filter_derive_100000_rows");
    group.throughput(Throughput::Elements(ROWS as u64));
    group.sample_size(10);
    for language in Language::ALL.iter().copied() {
        let (condition, computed) = pipeline(language);
        let kept = operators::filter(input.clone(), &condition, &params).expect("runs");
        let derived = operators::derive(kept, &computed, &params).expect("runs");
        assert_eq!(
            derived.as_array().map(Vec::len),
            Some(66_660),
            "{}",
            language.name()
        );
        group.bench_function(language.name(), |b| {
            b.iter_batched(
                || input.clone(),
                |input| {
                    let kept = operators::filter(input, &condition, &params).expect("runs");
                    black_box(operators::derive(kept, &computed, &params).expect("runs"))
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, filter_and_derive);
criterion_main!(benches);
