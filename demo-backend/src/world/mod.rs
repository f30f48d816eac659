//! The applications-and-jobs world: a pure function of the seed, the start time and the commands
//! given to it, advanced explicitly to a time.
//!
//! Everything that happens by itself is an [`Event`] in a queue ordered by (time, insertion order);
//! [`World::advance_to`] applies every due event in that order. Because an event's effects depend
//! only on the state and on randomness derived from the seed and the event itself (never on when
//! the world was last advanced), advancing by a duration in one step gives the same world as
//! advancing in many.

pub mod generate;
pub mod history;
pub mod view;

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::clock::Millis;

/// How long a sync job runs.
pub const SYNC_MILLIS: Millis = 4_000;
/// How long a failing sync (`?failing=1`) runs before it fails.
pub const FAILING_SYNC_MILLIS: Millis = 1_500;
/// How long a quick sync (`?quick=1`) runs: inside one poll interval of a client polling every
/// second.
pub const QUICK_SYNC_MILLIS: Millis = 500;
/// Scheduled work is picked only from this many first applications.
pub const SCHEDULED_WINDOW: usize = 8;
/// How many further applications (beyond the scheduled window) each scheduled event drifts.
pub const DRIFT_PER_EVENT: usize = 2;
/// One in this many scheduled syncs fails.
pub const SCHEDULED_FAILURE_ONE_IN: u32 = 5;
/// Finished jobs kept for `GET /jobs`; older ones are forgotten (running jobs are always kept).
pub const MAX_FINISHED_JOBS: usize = 256;
/// History entries kept per application in the detail document.
pub const MAX_HISTORY: usize = 10;

/// A 64-bit mixing function (SplitMix64's finaliser): derives independent seeds from one seed.
pub fn mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `Synced` or `OutOfSync`; there is no in-progress value (that is `phase`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SyncStatus {
    /// The live state matches the target revision.
    Synced,
    /// The live state has drifted from the target revision.
    OutOfSync,
}

/// Health of an application.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Health {
    /// All resources healthy.
    Healthy,
    /// Resources are rolling out.
    Progressing,
    /// Some resource is failing.
    Degraded,
    /// Scaled to zero or paused.
    Suspended,
    /// Resources are missing from the cluster.
    Missing,
    /// Health could not be assessed.
    Unknown,
}

/// Operation phase: `Running` while work is in progress, then `Succeeded` or `Failed`; empty when
/// none has run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// No operation has run.
    None,
    /// A job is running.
    Running,
    /// The last job succeeded.
    Succeeded,
    /// The last job failed.
    Failed,
}

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JobKind {
    /// Applies the target revision; finishes after its duration.
    Sync,
    /// Re-reads the application; finished when answered.
    Refresh,
}

/// How a job ends, fixed when it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The job succeeds.
    Succeed,
    /// The job fails (a failing sync).
    Fail,
}

/// A job's status: `Running`, then `Succeeded` or `Failed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JobStatus {
    /// Not finished yet.
    Running,
    /// Finished and succeeded.
    Succeeded,
    /// Finished and failed.
    Failed,
}

/// What a command asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `POST /apps/{id}/sync`: a 4s sync.
    Sync,
    /// `POST /apps/{id}/sync?quick=1`: a sync that finishes within half a second.
    QuickSync,
    /// `POST /apps/{id}/sync?failing=1`: a sync that fails after 1.5s.
    FailingSync,
    /// `POST /apps/{id}/refresh`: finished when answered.
    Refresh,
}

impl Command {
    fn kind(self) -> JobKind {
        if self == Command::Refresh {
            JobKind::Refresh
        } else {
            JobKind::Sync
        }
    }

    fn outcome(self) -> Outcome {
        if self == Command::FailingSync {
            Outcome::Fail
        } else {
            Outcome::Succeed
        }
    }

    fn duration(self) -> Millis {
        match self {
            Command::Sync => SYNC_MILLIS,
            Command::QuickSync => QUICK_SYNC_MILLIS,
            Command::FailingSync => FAILING_SYNC_MILLIS,
            Command::Refresh => 0,
        }
    }
}

/// The last (or current) operation on an application, for the detail document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The job that ran it; `None` for operations from before the world was built.
    pub job: Option<u64>,
    /// What ran.
    pub kind: JobKind,
    /// Running, Succeeded or Failed.
    pub phase: Phase,
    /// When it started.
    pub started: Millis,
    /// When it finished; `None` while running.
    pub finished: Option<Millis>,
    /// A human summary.
    pub message: String,
}

impl Operation {
    /// The summary for an operation of `kind` in `phase`.
    pub fn message_for(kind: JobKind, phase: Phase) -> String {
        let what = match kind {
            JobKind::Sync => "sync",
            JobKind::Refresh => "refresh",
        };
        match phase {
            Phase::None => String::new(),
            Phase::Running => format!("{what} in progress"),
            Phase::Succeeded => format!("{what} succeeded"),
            Phase::Failed => format!("{what} failed: one or more resources failed to apply"),
        }
    }
}

/// One finished operation in an application's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The job.
    pub job: u64,
    /// The revision the application reached.
    pub rev: u64,
    /// When the job started.
    pub started: Millis,
    /// When it finished.
    pub finished: Millis,
    /// Succeeded or Failed.
    pub phase: Phase,
}

/// An application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct App {
    /// Position in the world (0-based); `id` is `app-` and `index + 1`.
    pub index: usize,
    /// Identifier, `app-0001`….
    pub id: String,
    /// Display name.
    pub name: String,
    /// Id, name and region in lower case, one per line: what a bare list search looks in.
    pub search_text: String,
    /// One of [`generate::REGIONS`].
    pub region: &'static str,
    /// Owning team (a label in the detail document).
    pub team: &'static str,
    /// Synced or OutOfSync.
    pub sync: SyncStatus,
    /// Health status.
    pub health: Health,
    /// Changes when, and only when, a job against the application completes.
    pub rev: u64,
    /// Operation phase.
    pub phase: Phase,
    /// When the application was created.
    pub created_at: Millis,
    /// When the application was last reconciled (a held refresh sets it).
    pub reconciled_at: Millis,
    /// The last or current operation.
    pub operation: Option<Operation>,
    /// The last [`MAX_HISTORY`] finished jobs, oldest first.
    pub history: VecDeque<HistoryEntry>,
    /// The running job, if any.
    pub busy: Option<u64>,
}

/// A job against an application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Sequence number; the id is `job-` and six digits.
    pub number: u64,
    /// Index of the application.
    pub app: usize,
    /// Sync or refresh.
    pub kind: JobKind,
    /// How it ends.
    pub outcome: Outcome,
    /// Running, Succeeded or Failed.
    pub status: JobStatus,
    /// When it started.
    pub started: Millis,
    /// When it finishes (or finished).
    pub ends: Millis,
    /// When it finished; `None` while running.
    pub finished: Option<Millis>,
    /// The application's rev: the one it started from while running, the one it produced once
    /// finished.
    pub rev: u64,
}

impl Job {
    /// The public id, `job-000001`….
    pub fn id(&self) -> String {
        job_id(self.number)
    }
}

/// The public id of job `number`.
pub fn job_id(number: u64) -> String {
    format!("job-{number:06}")
}

/// Parses a public job id back to its number.
pub fn parse_job_id(id: &str) -> Option<u64> {
    let digits = id.strip_prefix("job-")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Something that happens by itself at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Event {
    /// A running job reaches its end.
    Finish(u64),
    /// The `n`th scheduled event (1-based): work on one of the first applications, and drift.
    Scheduled(u64),
}

/// Why a command did not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The application already has a job running.
    #[error(transparent)]
    Busy(#[from] Busy),
    /// There is no application at that index.
    #[error("there is no application at index {0}")]
    NoSuchApp(usize),
}

/// A command could not start: the application already has a job running.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "application {app:?} is busy: {kind} {job} has been running since {since} and ends at {ends}"
)]
pub struct Busy {
    /// The application id.
    pub app: String,
    /// `sync` or `refresh`.
    pub kind: &'static str,
    /// The running job's id.
    pub job: String,
    /// When it started (RFC 3339).
    pub since: String,
    /// When it ends (RFC 3339).
    pub ends: String,
}

/// What the world is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorldConfig {
    /// The resolved seed.
    pub seed: u64,
    /// Number of applications.
    pub apps: usize,
    /// Scheduled event interval in milliseconds (at least 1).
    pub schedule: Millis,
    /// When the world starts; the first scheduled event is at `start + schedule`.
    pub start: Millis,
}

/// The applications-and-jobs world.
#[derive(Clone, Debug)]
pub struct World {
    config: WorldConfig,
    now: Millis,
    apps: Vec<App>,
    jobs: BTreeMap<u64, Job>,
    finished_order: VecDeque<u64>,
    next_job: u64,
    events: BinaryHeap<Reverse<(Millis, u64, Event)>>,
    next_event_seq: u64,
    changes: u64,
}

impl PartialEq for World {
    fn eq(&self, other: &World) -> bool {
        self.config == other.config
            && self.now == other.now
            && self.apps == other.apps
            && self.jobs == other.jobs
            && self.finished_order == other.finished_order
            && self.next_job == other.next_job
            && self.next_event_seq == other.next_event_seq
            && self.events.clone().into_sorted_vec() == other.events.clone().into_sorted_vec()
    }
}

impl World {
    /// The world at `config.start`: generated applications, no jobs, the first scheduled event
    /// queued.
    pub fn new(config: WorldConfig) -> World {
        let config = WorldConfig {
            schedule: config.schedule.max(1),
            ..config
        };
        let mut world = World {
            config,
            now: config.start,
            apps: generate::generate_apps(config.seed, config.apps, config.start),
            jobs: BTreeMap::new(),
            finished_order: VecDeque::new(),
            next_job: 1,
            events: BinaryHeap::new(),
            next_event_seq: 0,
            changes: 0,
        };
        world.schedule_event(1);
        world
    }

    /// The configuration it was built from.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// A counter that moves whenever anything in the world may have changed (an event applied, a
    /// command, a reconcile): an answer computed at one value stays right while it stands still.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// The time the world has been advanced to.
    pub fn now(&self) -> Millis {
        self.now
    }

    /// All applications, in id order.
    pub fn apps(&self) -> &[App] {
        &self.apps
    }

    /// The application with this id.
    pub fn app(&self, id: &str) -> Option<&App> {
        let number: usize = id.strip_prefix("app-")?.parse().ok()?;
        let app = self.apps.get(number.checked_sub(1)?)?;
        (app.id == id).then_some(app)
    }

    /// The jobs still remembered (running ones and the last [`MAX_FINISHED_JOBS`] finished), in
    /// start order.
    pub fn jobs(&self) -> impl Iterator<Item = &Job> {
        self.jobs.values()
    }

    /// The job with this public id, if still remembered.
    pub fn job(&self, id: &str) -> Option<&Job> {
        self.jobs.get(&parse_job_id(id)?)
    }

    /// The number of events waiting in the queue.
    pub fn pending_events(&self) -> usize {
        self.events.len()
    }

    /// Applies, in (time, insertion) order, every event due at or before `to`, then stands at `to`.
    /// An earlier `to` than the current time changes nothing.
    pub fn advance_to(&mut self, to: Millis) {
        while let Some(Reverse((at, _, event))) = self.events.peek().copied() {
            if at > to {
                break;
            }
            self.events.pop();
            self.changes += 1;
            self.now = self.now.max(at);
            match event {
                Event::Finish(job) => self.finish(job),
                Event::Scheduled(n) => self.scheduled(n),
            }
        }
        self.now = self.now.max(to);
    }

    /// Starts a command on the application at `index` at the current time. A refresh is finished
    /// (and the application's rev changed) before this returns.
    pub fn command(&mut self, index: usize, command: Command) -> Result<u64, CommandError> {
        self.changes += 1;
        let app = self.apps.get(index).ok_or(CommandError::NoSuchApp(index))?;
        if let Some(running) = app.busy {
            return Err(self.busy_error(index, running).into());
        }
        let number = self.start_job(index, command);
        if command == Command::Refresh {
            self.finish(number);
        }
        Ok(number)
    }

    /// Marks the application at `index` reconciled now (what a held refresh does when it replies).
    pub fn reconcile(&mut self, index: usize) {
        self.changes += 1;
        let now = self.now;
        if let Some(app) = self.apps.get_mut(index) {
            app.reconciled_at = now;
        }
    }

    fn busy_error(&self, index: usize, running: u64) -> Busy {
        let job = self.jobs.get(&running);
        Busy {
            app: self.apps[index].id.clone(),
            kind: match job.map(|job| job.kind) {
                Some(JobKind::Refresh) => "refresh",
                _ => "sync",
            },
            job: job_id(running),
            since: crate::clock::rfc3339(job.map_or(self.now, |job| job.started)),
            ends: crate::clock::rfc3339(job.map_or(self.now, |job| job.ends)),
        }
    }

    fn start_job(&mut self, index: usize, command: Command) -> u64 {
        let number = self.next_job;
        self.next_job += 1;
        let now = self.now;
        let app = &mut self.apps[index];
        let kind = command.kind();
        let job = Job {
            number,
            app: index,
            kind,
            outcome: command.outcome(),
            status: JobStatus::Running,
            started: now,
            ends: now.saturating_add(command.duration()),
            finished: None,
            rev: app.rev,
        };
        app.busy = Some(number);
        app.phase = Phase::Running;
        app.operation = Some(Operation {
            job: Some(number),
            kind,
            phase: Phase::Running,
            started: now,
            finished: None,
            message: Operation::message_for(kind, Phase::Running),
        });
        let ends = job.ends;
        self.jobs.insert(number, job);
        if command != Command::Refresh {
            self.push_event(ends, Event::Finish(number));
        }
        number
    }

    fn finish(&mut self, number: u64) {
        let now = self.now;
        let Some(job) = self.jobs.get_mut(&number) else {
            return;
        };
        if job.status != JobStatus::Running {
            return;
        }
        let app = &mut self.apps[job.app];
        let (status, phase) = match job.outcome {
            Outcome::Succeed => (JobStatus::Succeeded, Phase::Succeeded),
            Outcome::Fail => (JobStatus::Failed, Phase::Failed),
        };
        app.rev += 1;
        app.busy = None;
        app.phase = phase;
        if job.kind == JobKind::Sync {
            app.sync = if phase == Phase::Succeeded {
                SyncStatus::Synced
            } else {
                SyncStatus::OutOfSync
            };
        }
        app.operation = Some(Operation {
            job: Some(number),
            kind: job.kind,
            phase,
            started: job.started,
            finished: Some(now),
            message: Operation::message_for(job.kind, phase),
        });
        app.history.push_back(HistoryEntry {
            job: number,
            rev: app.rev,
            started: job.started,
            finished: now,
            phase,
        });
        while app.history.len() > MAX_HISTORY {
            app.history.pop_front();
        }
        job.status = status;
        job.finished = Some(now);
        job.rev = app.rev;
        self.finished_order.push_back(number);
        while self.finished_order.len() > MAX_FINISHED_JOBS {
            if let Some(old) = self.finished_order.pop_front() {
                self.jobs.remove(&old);
            }
        }
    }

    /// The drift rule. Scheduled event `n` draws from a generator seeded by the world's seed and
    /// `n` alone: it picks one of the first [`SCHEDULED_WINDOW`] applications and, if that one is
    /// idle, starts a sync on it (one in [`SCHEDULED_FAILURE_ONE_IN`] of them failing); then it
    /// picks [`DRIFT_PER_EVENT`] applications among the rest and marks each idle one `OutOfSync`
    /// (drift changes neither `rev` nor `phase`: no job completed).
    fn scheduled(&mut self, n: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(mix(self.config.seed ^ mix(n)));
        let count = self.apps.len();
        if count > 0 {
            let pick = rng.random_range(0..count.min(SCHEDULED_WINDOW));
            let failing = rng.random_range(0..SCHEDULED_FAILURE_ONE_IN) == 0;
            if self.apps[pick].busy.is_none() {
                self.start_job(
                    pick,
                    if failing {
                        Command::FailingSync
                    } else {
                        Command::Sync
                    },
                );
            }
        }
        if count > SCHEDULED_WINDOW {
            for _ in 0..DRIFT_PER_EVENT {
                let app = &mut self.apps[rng.random_range(SCHEDULED_WINDOW..count)];
                if app.busy.is_none() {
                    app.sync = SyncStatus::OutOfSync;
                }
            }
        }
        self.schedule_event(n + 1);
    }

    /// Queues scheduled event `n` at `start + n × schedule`, unless that time is past the end of
    /// representable time (then the schedule simply ends).
    fn schedule_event(&mut self, n: u64) {
        let at = i64::try_from(n)
            .ok()
            .and_then(|n| self.config.schedule.checked_mul(n))
            .and_then(|offset| self.config.start.checked_add(offset));
        if let Some(at) = at {
            self.push_event(at, Event::Scheduled(n));
        }
    }

    fn push_event(&mut self, at: Millis, event: Event) {
        self.events.push(Reverse((at, self.next_event_seq, event)));
        self.next_event_seq += 1;
    }
}

#[cfg(test)]
mod tests;
