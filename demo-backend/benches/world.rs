//! Throughput of `GET /apps?q=…&sort=name&limit=100` in-process and over loopback, and the cost of
//! one world step with 5,000 applications.
#![allow(missing_docs, clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use demo_backend::clock::ManualClock;
use demo_backend::world::{World, WorldConfig};
use demo_backend::{Client, Options};

const T0: i64 = 1_800_000_000_000;
const QUERY: &str = "/apps?q=api%20region:eu&sort=name&limit=100";

fn options() -> Options {
    Options {
        seed: 42,
        now: Some(Arc::new(ManualClock::new(T0))),
        ..Options::default()
    }
}

fn list_apps(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("get_apps_query_sort_name_limit_100");
    group.throughput(Throughput::Elements(1));

    let in_process = Client::in_process(options());
    group.bench_function("in_process", |b| {
        b.iter(|| {
            runtime.block_on(async {
                in_process
                    .get(QUERY)
                    .await
                    .unwrap()
                    .into_body()
                    .bytes()
                    .await
                    .unwrap()
            })
        })
    });

    let base = runtime.block_on(async {
        let (router, _) = demo_backend::app(options());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router).await });
        format!("http://{address}")
    });
    let network = Client::network(&base).unwrap();
    group.bench_function("loopback_new_connection_per_request", |b| {
        b.iter(|| {
            runtime.block_on(async {
                network
                    .get(QUERY)
                    .await
                    .unwrap()
                    .into_body()
                    .bytes()
                    .await
                    .unwrap()
            })
        })
    });
    group.finish();

    let world = World::new(WorldConfig {
        seed: 42,
        apps: 5_000,
        schedule: 6_000,
        start: T0,
    });
    let params = demo_backend::params::Params(vec![
        ("q".to_owned(), "api region:eu".to_owned()),
        ("sort".to_owned(), "name".to_owned()),
        ("limit".to_owned(), "100".to_owned()),
    ]);
    c.bench_function("list_query_run_and_serialize_5000_apps", |b| {
        b.iter(|| {
            let query = demo_backend::listing::ListQuery::parse(&params).unwrap();
            serde_json::to_vec(&query.run(world.apps())).unwrap()
        })
    });
}

fn world_step(c: &mut Criterion) {
    let config = WorldConfig {
        seed: 42,
        apps: 5_000,
        schedule: 6_000,
        start: T0,
    };
    let mut world = World::new(config);
    // A busy world: an hour in, with jobs running on the first applications.
    world.advance_to(T0 + 3_600_000);
    let mut group = c.benchmark_group("world_step_5000_apps");
    group.bench_function("advance_one_schedule_interval", |b| {
        b.iter_batched(
            || world.clone(),
            |mut world| {
                let to = world.now() + 6_000;
                world.advance_to(to);
                world
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("advance_with_nothing_due", |b| {
        b.iter_batched(
            || world.clone(),
            |mut world| {
                let to = world.now() + 1;
                world.advance_to(to);
                world
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = list_apps, world_step
}
criterion_main!(benches);
