//! The two built-in automation jobs and their event timelines: pure functions of the seed and the
//! build time.
//!
//! Events are generated once, in counter order, when the corner is built. What a reader sees at a
//! time `now` is decided by each event's `visible_at`, so the world moves on the clock alone.

use std::sync::OnceLock;

use axum::http::StatusCode;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::clock::Millis;
use crate::error::ApiError;

/// The id of the finished job with 8,000 events.
pub const FINISHED_JOB_ID: u64 = 1;
/// The id of the job that runs from the build time until it has 3,000 events.
pub const RUNNING_JOB_ID: u64 = 2;

/// How many events the finished job has.
pub const FINISHED_JOB_EVENTS: u32 = 8_000;
/// How many events the running job has produced when it finishes.
pub const RUNNING_JOB_EVENTS: u32 = 3_000;
/// Time between two events of the running job: 8 events per second.
pub const RUNNING_EVENT_INTERVAL: Millis = 125;
/// Every this-many-th event of the running job is saved late.
pub const LATE_EVENT_EVERY: u32 = 13;
/// How late those events are saved.
pub const LATE_EVENT_DELAY: Millis = 2_000;
/// How long `event_processing_finished` trails the finished status.
pub const PROCESSING_LAG: Millis = 3_000;

/// How long before the build time the finished job started.
const FINISHED_JOB_AGE: Millis = 3_600_000;
/// Time between two events of the finished job.
const FINISHED_EVENT_INTERVAL: Millis = 300;
/// The hosts every task runs on.
const HOST_NAMES: [&str; 12] = [
    "web-01", "web-02", "web-03", "web-04", "web-05", "web-06", "web-07", "web-08", "web-09",
    "web-10", "web-11", "web-12",
];
/// How many hosts there are.
const HOSTS: u8 = HOST_NAMES.len() as u8;
/// Events per task: its header, then a start and a result for each host.
const EVENTS_PER_TASK: u32 = 1 + 2 * HOSTS as u32;

const TASKS: [&str; 16] = [
    "Gathering Facts",
    "Install packages",
    "Render nginx config",
    "Restart nginx",
    "Ensure service user exists",
    "Copy application release",
    "Run database migrations",
    "Check disk space",
    "Rotate logs",
    "Update CA certificates",
    "Template systemd unit",
    "Reload systemd",
    "Warm application cache",
    "Register with load balancer",
    "Verify health endpoint",
    "Clean old releases",
];

const FAILURES: [&str; 5] = [
    "Timeout (12s) waiting for privilege escalation prompt",
    "No package matching 'nginx-extras' is available",
    "Could not find or access '/etc/app/app.conf'",
    "non-zero return code",
    "Status code was 503 and not [200]: Request failed",
];

/// The kind of an event, named as Ansible names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// The playbook starts (empty stdout).
    PlaybookStart,
    /// A play starts.
    PlayStart,
    /// A task header (two lines of stdout).
    TaskStart,
    /// A task starts on a host (no stdout).
    RunnerStart,
    /// A task succeeded on a host, changed or not.
    RunnerOk,
    /// A task failed on a host (two lines of stdout).
    RunnerFailed,
    /// A task was skipped on a host.
    RunnerSkipped,
    /// The closing recap.
    Stats,
}

impl EventKind {
    /// The `event` string.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::PlaybookStart => "playbook_on_start",
            EventKind::PlayStart => "playbook_on_play_start",
            EventKind::TaskStart => "playbook_on_task_start",
            EventKind::RunnerStart => "runner_on_start",
            EventKind::RunnerOk => "runner_on_ok",
            EventKind::RunnerFailed => "runner_on_failed",
            EventKind::RunnerSkipped => "runner_on_skipped",
            EventKind::Stats => "playbook_on_stats",
        }
    }
}

/// One job event, with what the filters need precomputed.
#[derive(Clone, Debug)]
pub struct Event {
    /// Unique, increasing and gapless at the source, from 1.
    pub counter: u32,
    /// The event kind.
    pub kind: EventKind,
    /// The host index (0-based) for runner events.
    pub host: Option<u8>,
    /// The task index into the task names, for task and runner events.
    pub task: Option<u8>,
    /// Standard output; `None` when the event has none.
    pub stdout: Option<String>,
    /// `stdout` lowercased, for `stdout__icontains` (empty when there is none).
    pub stdout_lower: String,
    /// Whether the event reports a failure.
    pub failed: bool,
    /// Whether the event changed the host.
    pub changed: bool,
    /// When the event was saved: from this time on a reader sees it.
    pub visible_at: Millis,
    /// `visible_at` in RFC 3339, the event's `created`.
    pub created: String,
}

impl Event {
    /// The host name, empty for events not about one host (as Ansible reports them).
    pub fn host_name(&self) -> &'static str {
        self.host.map_or("", host_name)
    }

    /// The task name, empty for events outside a task.
    pub fn task_name(&self) -> &'static str {
        self.task.map_or("", |task| TASKS[usize::from(task)])
    }
}

/// The name of host `index` (0-based): `web-01` ….
fn host_name(index: u8) -> &'static str {
    HOST_NAMES[usize::from(index)]
}

/// What a `host_name` filter value names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostName {
    /// The host of these events: `Of(None)` is the empty name of events about no host.
    Of(Option<u8>),
    /// A name no event carries.
    Unknown,
}

/// Reads a `host_name` filter value without allocating per event.
pub fn parse_host_name(name: &str) -> HostName {
    if name.is_empty() {
        return HostName::Of(None);
    }
    (0..HOSTS)
        .find(|&index| host_name(index) == name)
        .map_or(HostName::Unknown, |index| HostName::Of(Some(index)))
}

/// The task names, indexed like [`Event::task`].
pub fn task_names() -> &'static [&'static str] {
    &TASKS
}

/// One automation job: its identity, its timeline and all its events in counter order.
#[derive(Debug)]
pub struct Job {
    /// The job id.
    pub id: u64,
    /// The job name.
    pub name: &'static str,
    /// The play every event belongs to.
    pub play: &'static str,
    /// When the job started.
    pub started: Millis,
    /// When the status turns `successful` (the last event is produced).
    pub finishes_at: Millis,
    /// Every event the job will ever have, by counter; `events[i].counter == i + 1`.
    pub events: Vec<Event>,
    /// The events' `visible_at` as one column, by counter: counting what a reader sees reads
    /// only this.
    pub visible_at: Vec<Millis>,
    /// Every event as the events page lists it, in JSON, by counter: serialized on first use
    /// (events never change), so a page copies bytes instead of serializing.
    listed: OnceLock<Result<Vec<Box<str>>, String>>,
}

impl Job {
    /// The finished job: 8,000 events, all saved well before `built_at`.
    pub fn finished(seed: u64, built_at: Millis) -> Job {
        let started = built_at - FINISHED_JOB_AGE;
        let play = "Patch web tier";
        let events = generate_events(
            seed,
            FINISHED_JOB_ID,
            play,
            FINISHED_JOB_EVENTS,
            |counter| started + Millis::from(counter) * FINISHED_EVENT_INTERVAL,
        );
        let finishes_at = started + Millis::from(FINISHED_JOB_EVENTS) * FINISHED_EVENT_INTERVAL;
        Job::new(
            FINISHED_JOB_ID,
            "Nightly patch run",
            play,
            started..finishes_at,
            events,
        )
    }

    /// The running job: an event every 125 ms from `built_at`, every thirteenth saved 2 s late,
    /// finished with its 3,000th event.
    pub fn running(seed: u64, built_at: Millis) -> Job {
        let play = "Deploy web tier";
        let events = generate_events(seed, RUNNING_JOB_ID, play, RUNNING_JOB_EVENTS, |counter| {
            let produced = built_at + Millis::from(counter) * RUNNING_EVENT_INTERVAL;
            if counter % LATE_EVENT_EVERY == 0 {
                produced + LATE_EVENT_DELAY
            } else {
                produced
            }
        });
        let finishes_at = built_at + Millis::from(RUNNING_JOB_EVENTS) * RUNNING_EVENT_INTERVAL;
        Job::new(
            RUNNING_JOB_ID,
            "Deploy web tier",
            play,
            built_at..finishes_at,
            events,
        )
    }

    /// A job running over `runs` (start to finish) with its events.
    fn new(
        id: u64,
        name: &'static str,
        play: &'static str,
        runs: std::ops::Range<Millis>,
        events: Vec<Event>,
    ) -> Job {
        Job {
            id,
            name,
            play,
            started: runs.start,
            finishes_at: runs.end,
            visible_at: events.iter().map(|event| event.visible_at).collect(),
            events,
            listed: OnceLock::new(),
        }
    }

    /// Every event as [`Job::event_record`] serializes it, by counter (index `counter - 1`);
    /// serialized on the first call. A failure to serialize is a 500 naming it.
    pub fn listed(&self) -> Result<&[Box<str>], ApiError> {
        self.listed
            .get_or_init(|| {
                self.events
                    .iter()
                    .map(|event| {
                        serde_json::to_string(&self.event_record(event)).map(String::into_boxed_str)
                    })
                    .collect::<Result<_, _>>()
                    .map_err(|error| format!("cannot serialize the job's events: {error}"))
            })
            .as_deref()
            .map_err(|message| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message.clone()))
    }

    /// `running` until the last event is produced, then `successful`.
    pub fn status(&self, now: Millis) -> &'static str {
        if now >= self.finishes_at {
            "successful"
        } else {
            "running"
        }
    }

    /// Whether every event has been saved: true 3 seconds after the status finished.
    pub fn event_processing_finished(&self, now: Millis) -> bool {
        now >= self.finishes_at + PROCESSING_LAG
    }

    /// The job record of both the list and the detail endpoints.
    pub fn record(&self, now: Millis) -> JobRecord {
        JobRecord {
            id: self.id,
            kind: "job",
            url: format!("/api/v2/jobs/{}/", self.id),
            related: Related {
                job_events: format!("/api/v2/jobs/{}/job_events/", self.id),
            },
            name: self.name,
            status: self.status(now),
            started: super::rfc3339(self.started),
            finished: (now >= self.finishes_at).then(|| super::rfc3339(self.finishes_at)),
            event_processing_finished: self.event_processing_finished(now),
        }
    }

    /// The event as the events page lists it.
    pub fn event_record<'a>(&'a self, event: &'a Event) -> EventRecord<'a> {
        EventRecord {
            id: (self.id - 1) * 10_000 + u64::from(event.counter),
            job: self.id,
            counter: event.counter,
            event: event.kind.name(),
            created: &event.created,
            failed: event.failed,
            changed: event.changed,
            host_name: event.host_name(),
            play: self.play,
            task: event.task_name(),
            stdout: event.stdout.as_deref(),
            event_data: EventData {
                playbook: "site.yml",
                play: self.play,
                task: event.task.map(|_| event.task_name()),
                host: event.host.map(|_| event.host_name()),
            },
        }
    }
}

/// A job record: `{id, name, status, started, finished, event_processing_finished, …}`.
#[derive(Debug, Serialize)]
pub struct JobRecord {
    id: u64,
    #[serde(rename = "type")]
    kind: &'static str,
    url: String,
    related: Related,
    name: &'static str,
    status: &'static str,
    started: String,
    /// `null` while the job runs.
    finished: Option<String>,
    event_processing_finished: bool,
}

/// Links from a job record.
#[derive(Debug, Serialize)]
struct Related {
    job_events: String,
}

/// An event as listed: the spec's fields plus `id`, `job`, `created`, `play` and `event_data`.
#[derive(Debug, Serialize)]
pub struct EventRecord<'a> {
    id: u64,
    job: u64,
    counter: u32,
    event: &'static str,
    created: &'a str,
    failed: bool,
    changed: bool,
    host_name: &'static str,
    play: &'static str,
    task: &'static str,
    /// Absent for events without output, such as `runner_on_start`.
    #[serde(skip_serializing_if = "Option::is_none")]
    stdout: Option<&'a str>,
    event_data: EventData,
}

/// The structured data of an event.
#[derive(Debug, Serialize)]
struct EventData {
    playbook: &'static str,
    play: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    task: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    host: Option<&'static str>,
}

/// Per-host tallies for the closing recap.
#[derive(Clone, Copy, Default)]
struct HostTally {
    ok: u32,
    changed: u32,
    failed: u32,
    skipped: u32,
}

/// Generates `total` events for job `job_id`: a playbook start, a play start, tasks of a header
/// plus a start and a result per host, and a closing recap. `visible_at` places each counter.
fn generate_events(
    seed: u64,
    job_id: u64,
    play: &str,
    total: u32,
    visible_at: impl Fn(u32) -> Millis,
) -> Vec<Event> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(job_id);
    let mut tallies = [HostTally::default(); HOSTS as usize];
    let mut task = 0_u8;
    let mut events = Vec::with_capacity(total as usize);
    for counter in 1..=total {
        let mut event = Event {
            counter,
            kind: EventKind::PlaybookStart,
            host: None,
            task: None,
            stdout: None,
            stdout_lower: String::new(),
            failed: false,
            changed: false,
            visible_at: visible_at(counter),
            created: super::rfc3339(visible_at(counter)),
        };
        match counter {
            1 => event.stdout = Some(String::new()),
            2 => {
                event.kind = EventKind::PlayStart;
                event.stdout = Some(format!(
                    "PLAY [{play}] ***************************************"
                ));
            }
            _ if counter == total => {
                event.kind = EventKind::Stats;
                event.stdout = Some(recap(&tallies));
            }
            _ => {
                let slot = (counter - 3) % EVENTS_PER_TASK;
                if slot == 0 {
                    task = rng.random_range(0..TASKS.len() as u8);
                    event.kind = EventKind::TaskStart;
                    event.task = Some(task);
                    let line = rng.random_range(10..400);
                    event.stdout = Some(format!(
                        "TASK [{}] ******************************\ntask path: /srv/playbooks/site.yml:{line}",
                        TASKS[usize::from(task)]
                    ));
                } else {
                    let host = ((slot - 1) / 2) as u8;
                    event.task = Some(task);
                    event.host = Some(host);
                    if slot % 2 == 1 {
                        event.kind = EventKind::RunnerStart;
                    } else {
                        runner_result(&mut rng, &mut event, &mut tallies[usize::from(host)]);
                    }
                }
            }
        }
        event.stdout_lower = event.stdout.as_deref().unwrap_or_default().to_lowercase();
        events.push(event);
    }
    events
}

/// Draws the outcome of a task on a host and fills the event and the host's tally.
fn runner_result(rng: &mut ChaCha8Rng, event: &mut Event, tally: &mut HostTally) {
    let host = event.host_name();
    match rng.random_range(0..100) {
        0..3 => {
            let reason = FAILURES[rng.random_range(0..FAILURES.len())];
            event.kind = EventKind::RunnerFailed;
            event.failed = true;
            event.stdout = Some(format!(
                "fatal: [{host}]: FAILED! => {{\"changed\": false, \"msg\": \"{reason}\"}}\n...ignoring"
            ));
            tally.failed += 1;
        }
        3..13 => {
            event.kind = EventKind::RunnerSkipped;
            event.stdout = Some(format!("skipping: [{host}]"));
            tally.skipped += 1;
        }
        draw => {
            event.kind = EventKind::RunnerOk;
            event.changed = draw < 40;
            tally.ok += 1;
            if event.changed {
                tally.changed += 1;
                event.stdout = Some(format!("changed: [{host}]"));
            } else {
                event.stdout = Some(format!("ok: [{host}]"));
            }
        }
    }
}

/// The `PLAY RECAP` stdout of the closing event.
fn recap(tallies: &[HostTally]) -> String {
    let mut out =
        String::from("PLAY RECAP *********************************************************");
    for (index, tally) in tallies.iter().enumerate() {
        out.push_str(&format!(
            "\n{:<26} : ok={:<4} changed={:<4} unreachable=0    failed={:<4} skipped={:<4} rescued=0    ignored={}",
            host_name(index as u8),
            tally.ok,
            tally.changed,
            tally.failed,
            tally.skipped,
            tally.failed,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_gapless_and_kinds_follow_the_playbook_shape() {
        let job = Job::finished(7, 1_000_000);
        assert_eq!(job.events.len(), FINISHED_JOB_EVENTS as usize);
        for (index, event) in job.events.iter().enumerate() {
            assert_eq!(event.counter as usize, index + 1);
        }
        assert_eq!(job.events[0].kind, EventKind::PlaybookStart);
        assert_eq!(job.events[1].kind, EventKind::PlayStart);
        assert_eq!(job.events[2].kind, EventKind::TaskStart);
        assert_eq!(job.events[3].kind, EventKind::RunnerStart);
        assert_eq!(
            job.events.last().map(|event| event.kind),
            Some(EventKind::Stats)
        );
        for event in &job.events {
            let lines = event.stdout.as_deref().map(|stdout| stdout.lines().count());
            match event.kind {
                EventKind::RunnerStart => assert_eq!(lines, None),
                EventKind::PlaybookStart => assert_eq!(lines, Some(0)),
                EventKind::TaskStart | EventKind::RunnerFailed => assert_eq!(lines, Some(2)),
                EventKind::Stats => assert_eq!(lines, Some(1 + usize::from(HOSTS))),
                _ => assert_eq!(lines, Some(1)),
            }
            assert_eq!(event.failed, event.kind == EventKind::RunnerFailed);
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_events_and_another_seed_differs() {
        let stdout = |seed| {
            Job::finished(seed, 0)
                .events
                .into_iter()
                .map(|event| event.stdout)
                .collect::<Vec<_>>()
        };
        assert_eq!(stdout(3), stdout(3));
        assert_ne!(stdout(3), stdout(4));
    }

    #[test]
    fn running_job_saves_every_thirteenth_event_two_seconds_late() {
        let job = Job::running(1, 10_000);
        assert_eq!(job.events[11].visible_at, 10_000 + 12 * 125);
        assert_eq!(job.events[12].visible_at, 10_000 + 13 * 125 + 2_000);
        assert_eq!(job.finishes_at, 10_000 + 375_000);
        assert_eq!(job.status(job.finishes_at - 1), "running");
        assert_eq!(job.status(job.finishes_at), "successful");
        assert!(!job.event_processing_finished(job.finishes_at + 2_999));
        assert!(job.event_processing_finished(job.finishes_at + 3_000));
    }
}
