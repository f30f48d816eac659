//! Parse benchmark: saphyr's bare `MarkedYaml` load against our `parse`, on a generated config of
//! 10,000 sources (about 150,000 lines).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use saphyr::{LoadableYamlNode, MarkedYaml};
use sources_syntax::{Syntax, bench_support::generate_config, parse};

fn parse_benchmark(c: &mut Criterion) {
    let text = generate_config(10_000);
    let mut group = c.benchmark_group("parse_10000_sources");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("saphyr_marked_yaml_load", |b| {
        b.iter(|| MarkedYaml::load_from_str(black_box(&text)).map(|docs| docs.len()))
    });
    group.bench_function("sources_syntax_parse", |b| {
        b.iter(|| parse(black_box(&text), Syntax::Yaml))
    });
    group.finish();
}

criterion_group!(benches, parse_benchmark);
criterion_main!(benches);
