#![allow(clippy::unwrap_used)]

use proptest::prelude::*;

use super::*;

const T0: Millis = 1_800_000_000_000;
const HOUR: Millis = 3_600_000;

fn world(apps: usize, schedule: Millis) -> World {
    World::new(WorldConfig {
        seed: 42,
        apps,
        schedule,
        start: T0,
    })
}

/// A world whose scheduled work never comes within the test (one event a year).
fn quiet_world(apps: usize) -> World {
    world(apps, 365 * 24 * HOUR)
}

#[test]
fn a_sync_is_running_at_one_second_and_finished_at_four_exactly() {
    let mut w = quiet_world(20);
    let rev = w.apps()[3].rev;
    let job = w.command(3, Command::Sync).unwrap();
    assert_eq!(w.apps()[3].phase, Phase::Running);
    assert_eq!(w.apps()[3].rev, rev, "starting a job does not change rev");
    w.advance_to(T0 + 1_000);
    assert_eq!(w.jobs.get(&job).unwrap().status, JobStatus::Running);
    w.advance_to(T0 + 3_999);
    assert_eq!(w.jobs.get(&job).unwrap().status, JobStatus::Running);
    assert_eq!(w.apps()[3].rev, rev);
    w.advance_to(T0 + 4_000);
    let finished = w.jobs.get(&job).unwrap();
    assert_eq!(
        (finished.status, finished.finished, finished.rev),
        (JobStatus::Succeeded, Some(T0 + 4_000), rev + 1)
    );
    let app = &w.apps()[3];
    assert_eq!(
        (app.sync, app.phase, app.rev, app.busy),
        (SyncStatus::Synced, Phase::Succeeded, rev + 1, None)
    );
}

#[test]
fn a_failing_sync_fails_at_one_and_a_half_seconds_and_rests() {
    let mut w = quiet_world(20);
    let rev = w.apps()[0].rev;
    let job = w.command(0, Command::FailingSync).unwrap();
    w.advance_to(T0 + 1_499);
    assert_eq!(w.jobs.get(&job).unwrap().status, JobStatus::Running);
    w.advance_to(T0 + 1_500);
    assert_eq!(w.jobs.get(&job).unwrap().status, JobStatus::Failed);
    let app = &w.apps()[0];
    assert_eq!(
        (app.sync, app.phase, app.rev, app.busy),
        (SyncStatus::OutOfSync, Phase::Failed, rev + 1, None)
    );
    assert!(
        w.command(0, Command::Sync).is_ok(),
        "a failed job never leaves the app busy"
    );
}

#[test]
fn a_quick_sync_finishes_within_one_poll_interval() {
    let mut w = quiet_world(20);
    let job = w.command(1, Command::QuickSync).unwrap();
    w.advance_to(T0 + 1_000);
    assert_eq!(w.jobs.get(&job).unwrap().status, JobStatus::Succeeded);
    assert!(w.jobs.get(&job).unwrap().finished.unwrap() < T0 + 1_000);
}

#[test]
fn a_refresh_is_finished_when_answered_and_changes_rev() {
    let mut w = quiet_world(20);
    let before = w.apps()[2].clone();
    let job = w.command(2, Command::Refresh).unwrap();
    let job = w.jobs.get(&job).unwrap();
    assert_eq!(
        (job.kind, job.status, job.finished),
        (JobKind::Refresh, JobStatus::Succeeded, Some(T0))
    );
    let after = &w.apps()[2];
    assert_eq!(
        (after.rev, after.phase, after.sync, after.busy),
        (before.rev + 1, Phase::Succeeded, before.sync, None)
    );
    assert_eq!(w.pending_events(), 1, "a refresh queues nothing");
}

#[test]
fn any_command_on_a_busy_app_is_refused_and_changes_nothing() {
    let mut w = quiet_world(20);
    let job = w.command(5, Command::Sync).unwrap();
    w.advance_to(T0 + 2_000);
    let snapshot = w.clone();
    for command in [
        Command::Sync,
        Command::QuickSync,
        Command::FailingSync,
        Command::Refresh,
    ] {
        let Err(CommandError::Busy(busy)) = w.command(5, command) else {
            panic!("{command:?} on a busy app was not refused as busy");
        };
        assert_eq!(busy.job, job_id(job));
        assert_eq!(busy.app, "app-0006");
        assert!(
            busy.to_string()
                .contains("sync job-000001 has been running since"),
            "{busy}"
        );
    }
    assert_eq!(w, snapshot);
}

#[test]
fn scheduled_work_starts_on_the_first_eight_and_drift_touches_only_the_rest() {
    let mut w = world(50, 6_000);
    let before = w.clone();
    w.advance_to(T0 + 5_999);
    assert_eq!(w.jobs().count(), 0);
    w.advance_to(T0 + 6_000);
    let jobs: Vec<&Job> = w.jobs().collect();
    assert_eq!(jobs.len(), 1);
    assert!(jobs[0].app < SCHEDULED_WINDOW);
    assert_eq!(jobs[0].started, T0 + 6_000);
    for (old, new) in before.apps().iter().zip(w.apps()).skip(SCHEDULED_WINDOW) {
        assert_eq!(old.rev, new.rev, "drift never changes rev");
        assert_eq!(old.phase, new.phase, "drift never changes phase");
        if old.sync != new.sync {
            assert_eq!(new.sync, SyncStatus::OutOfSync);
        }
    }
    w.advance_to(T0 + HOUR);
    assert!(w.jobs().all(|job| job.app < SCHEDULED_WINDOW));
    let drifted = |w: &World| {
        w.apps()[SCHEDULED_WINDOW..]
            .iter()
            .filter(|a| a.sync == SyncStatus::OutOfSync)
            .count()
    };
    assert!(
        drifted(&w) > drifted(&before),
        "an hour of scheduled events drifts further apps"
    );
}

#[test]
fn generation_is_a_function_of_the_seed() {
    let a = world(500, 6_000);
    let b = world(500, 6_000);
    assert_eq!(a, b);
    let c = World::new(WorldConfig {
        seed: 43,
        ..*a.config()
    });
    assert_ne!(a.apps(), c.apps());
    assert_eq!(a.apps()[0].id, "app-0001");
    assert_eq!(a.apps()[499].id, "app-0500");
    let out_of_sync = a
        .apps()
        .iter()
        .filter(|app| app.sync == SyncStatus::OutOfSync)
        .count();
    assert!(
        out_of_sync > 25 && out_of_sync < 250,
        "some apps start drifted: {out_of_sync}"
    );
    assert!(
        a.apps()
            .iter()
            .all(|app| generate::REGIONS.contains(&app.region))
    );
    assert_eq!(
        World::new(WorldConfig {
            apps: 12_000,
            ..*a.config()
        })
        .apps()[11_999]
            .id,
        "app-12000"
    );
}

#[test]
fn a_command_on_no_app_is_an_error_not_a_panic() {
    let mut w = quiet_world(3);
    assert_eq!(w.command(3, Command::Sync), Err(CommandError::NoSuchApp(3)));
    assert_eq!(
        w.command(usize::MAX, Command::Refresh),
        Err(CommandError::NoSuchApp(usize::MAX))
    );
    assert_eq!(w.jobs().count(), 0);
}

#[test]
fn extreme_configurations_do_not_panic() {
    let mut empty = World::new(WorldConfig {
        seed: 1,
        apps: 0,
        schedule: 1,
        start: T0,
    });
    empty.advance_to(T0 + 100);
    assert_eq!((empty.apps().len(), empty.jobs().count()), (0, 0));
    let mut last = World::new(WorldConfig {
        seed: 1,
        apps: 3,
        schedule: Millis::MAX - T0,
        start: T0,
    });
    last.advance_to(Millis::MAX);
    let jobs: Vec<&Job> = last.jobs().collect();
    assert_eq!(
        jobs.len(),
        1,
        "the one scheduled event that fits in time ran"
    );
    assert_eq!(jobs[0].ends, Millis::MAX);
    assert_eq!(
        last.pending_events(),
        usize::from(jobs[0].finished.is_none())
    );
    let mut none = World::new(WorldConfig {
        schedule: Millis::MAX,
        ..*last.config()
    });
    none.advance_to(Millis::MAX);
    assert_eq!((none.jobs().count(), none.pending_events()), (0, 0));
}

#[test]
fn apps_and_jobs_are_found_by_public_id_only() {
    let mut w = quiet_world(20);
    assert_eq!(w.app("app-0020").map(|a| a.index), Some(19));
    for id in ["app-0021", "app-0000", "app-20", "app-", "x", "app-00020"] {
        assert!(w.app(id).is_none(), "{id}");
    }
    let job = w.command(0, Command::Sync).unwrap();
    assert_eq!(w.job("job-000001").map(|j| j.number), Some(job));
    for id in ["job-000002", "job-", "job-+1", "1"] {
        assert!(w.job(id).is_none(), "{id}");
    }
}

#[test]
fn an_hour_of_scheduled_work_keeps_history_bounded() {
    let mut w = world(5_000, 1_000);
    for second in 1..=HOUR / 1_000 {
        w.advance_to(T0 + second * 1_000);
        let index = (second as usize * 7) % w.apps().len();
        let command = if second % 3 == 0 {
            Command::Refresh
        } else {
            Command::QuickSync
        };
        let _ = w.command(index, command);
        let running = w
            .jobs()
            .filter(|job| job.status == JobStatus::Running)
            .count();
        assert_eq!(
            running,
            w.apps().iter().filter(|a| a.busy.is_some()).count()
        );
        assert!(running <= SCHEDULED_WINDOW + 1, "running: {running}");
        assert!(
            w.jobs().count() <= MAX_FINISHED_JOBS + running,
            "jobs kept: {}",
            w.jobs().count()
        );
        assert_eq!(
            w.pending_events(),
            running + 1,
            "one end per running job and the next scheduled event"
        );
        assert!(w.apps().iter().all(|a| a.history.len() <= MAX_HISTORY));
    }
    assert!(w.next_job > 5_000, "the hour ran many jobs: {}", w.next_job);
    assert_eq!(w.finished_order.len(), MAX_FINISHED_JOBS);
    assert!(
        w.job("job-000001").is_none(),
        "the oldest jobs are forgotten"
    );
    assert!(
        w.apps()[..SCHEDULED_WINDOW]
            .iter()
            .all(|a| a.history.len() == MAX_HISTORY)
    );
}

#[derive(Clone, Debug)]
enum Step {
    /// Advance by this many milliseconds, in the given split (each part a fraction in 1..=100).
    Advance(Millis, Vec<u8>),
    Command(usize, Command),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let command = prop_oneof![
        Just(Command::Sync),
        Just(Command::QuickSync),
        Just(Command::FailingSync),
        Just(Command::Refresh)
    ];
    let step = prop_oneof![
        (0..20_000_i64, proptest::collection::vec(1..=100_u8, 1..8))
            .prop_map(|(ms, split)| Step::Advance(ms, split)),
        (0..12_usize, command).prop_map(|(app, command)| Step::Command(app, command)),
    ];
    proptest::collection::vec(step, 1..40)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Advancing in one step or in many gives the same world, whatever commands come in between.
    #[test]
    fn one_big_step_equals_many_small_steps(schedule in 500..5_000_i64, steps in steps()) {
        let config = WorldConfig { seed: 7, apps: 12, schedule, start: T0 };
        let mut whole = World::new(config);
        let mut split = World::new(config);
        let mut now = T0;
        for step in steps {
            match step {
                Step::Advance(by, parts) => {
                    let sum: i64 = parts.iter().map(|&p| i64::from(p)).sum();
                    let mut at = now;
                    for part in parts {
                        at += by * i64::from(part) / sum;
                        split.advance_to(at);
                    }
                    now += by;
                    split.advance_to(now);
                    whole.advance_to(now);
                }
                Step::Command(app, command) => {
                    prop_assert_eq!(whole.command(app, command), split.command(app, command));
                }
            }
            prop_assert_eq!(&whole, &split);
        }
        // Then both run on for a long stretch, once in a single step and once a millisecond at a
        // time around the busiest edges.
        for ms in 1..=3_000 {
            split.advance_to(now + ms);
        }
        whole.advance_to(now + 3_000);
        prop_assert_eq!(&whole, &split);
    }
}
