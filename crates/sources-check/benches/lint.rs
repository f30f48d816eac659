//! Lint benchmark: the whole `analyze` (parse, decode, every rule) against saphyr's bare parse of the
//! same generated config of 10,000 sources (about 150,000 lines). The target is that the whole lint
//! costs no more than twice the bare parse; the figures are recorded in the README. Also `analyze`
//! alone at 1,000, 10,000 and 68,000 lines.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use saphyr::{LoadableYamlNode, MarkedYaml};
use sources_check::analyze;
use sources_syntax::{Syntax, bench_support::generate_config};

fn lint_benchmark(c: &mut Criterion) {
    let text = generate_config(10_000);
    let errors = analyze(&text, Syntax::Yaml)
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.severity == sources_diagnostics::Severity::Error)
        .count();
    assert_eq!(
        errors, 0,
        "the generated config must lint clean, so the benchmark measures the common path"
    );
    let mut group = c.benchmark_group("lint_10000_sources");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("saphyr_bare_parse", |b| {
        b.iter(|| MarkedYaml::load_from_str(black_box(&text)).map(|docs| docs.len()))
    });
    group.bench_function("sources_analyze", |b| {
        b.iter(|| analyze(black_box(&text), Syntax::Yaml).diagnostics.len())
    });
    group.finish();
}

/// `analyze` alone at about 1,000, 10,000 and 68,000 lines (the generator writes about 15 lines
/// per entry), the sizes the editor's change-to-diagnostics goals are stated for.
fn analysis_by_size(c: &mut Criterion) {
    let mut group = c.benchmark_group("analyze_by_lines");
    group.sample_size(10);
    for lines in [1_000, 10_000, 68_000] {
        let text = generate_config(lines / 15);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(format!("{lines}_lines"), |b| {
            b.iter(|| analyze(black_box(&text), Syntax::Yaml).diagnostics.len())
        });
    }
    group.finish();
}

criterion_group!(benches, lint_benchmark, analysis_by_size);
criterion_main!(benches);
