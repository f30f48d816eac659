//! Decoding cost next to parsing cost, on a generated config of 10,000 sources (about 150,000
//! lines): `parse` is the bare front end, `parse+decode` adds the typed model and its checks.

use criterion::{Criterion, criterion_group, criterion_main};
use sources_syntax::{Syntax, bench_support::generate_config};

fn decode(c: &mut Criterion) {
    let text = generate_config(10_000);
    let mut group = c.benchmark_group("10k sources");
    group.sample_size(10);
    group.bench_function("parse", |b| {
        b.iter(|| sources_syntax::parse(&text, Syntax::Yaml))
    });
    group.bench_function("parse+decode", |b| {
        b.iter(|| {
            let parse = sources_syntax::parse(&text, Syntax::Yaml);
            parse.root.map(sources_config::decode)
        })
    });
    group.finish();
}

criterion_group!(benches, decode);
criterion_main!(benches);
