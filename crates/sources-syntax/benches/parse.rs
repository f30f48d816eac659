//! Parse benchmark: saphyr's bare `MarkedYaml` load against our `parse`, on a generated config of
//! 10,000 sources (about 150,000 lines). `saphyr_parser_events_only` is the floor: the event stream
//! both loaders consume, with nothing built. `sources_syntax_tree_update_one_entry` is the editor's
//! reparse of a one-character edit inside an entry in the middle (`Tree::update`, back and forth).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use saphyr::{LoadableYamlNode, MarkedYaml};
use sources_syntax::{Syntax, Tree, bench_support::generate_config, parse};

fn parse_benchmark(c: &mut Criterion) {
    let text = generate_config(10_000);
    let mut group = c.benchmark_group("parse_10000_sources");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("saphyr_marked_yaml_load", |b| {
        b.iter(|| MarkedYaml::load_from_str(black_box(&text)).map(|docs| docs.len()))
    });
    group.bench_function("saphyr_parser_events_only", |b| {
        b.iter(|| {
            let mut parser = saphyr_parser::Parser::new_from_str(black_box(&text));
            let mut events = 0usize;
            while let Some(Ok(_)) = parser.next_event() {
                events += 1;
            }
            events
        })
    });
    group.bench_function("sources_syntax_parse", |b| {
        b.iter(|| parse(black_box(&text), Syntax::Yaml))
    });
    let middle = text.len() / 2;
    let at = middle
        + text[middle..]
            .find("timeout: 5s")
            .expect("an http entry after the middle");
    let edited = format!(
        "{}timeout: 6s{}",
        &text[..at],
        &text[at + "timeout: 5s".len()..]
    );
    group.bench_function("sources_syntax_tree_update_one_entry", |b| {
        let mut tree = Tree::new(&text, Syntax::Yaml);
        let mut forward = true;
        b.iter(|| {
            let (old, new) = if forward {
                (&text, &edited)
            } else {
                (&edited, &text)
            };
            forward = !forward;
            tree.update(black_box(old), black_box(new))
        })
    });
    group.finish();
}

criterion_group!(benches, parse_benchmark);
criterion_main!(benches);
