//! The lived-in start: what happened before the service was opened, and example values that exist
//! in the world.
//!
//! A world built with a history has been running since `config.start`. Besides the scheduled work
//! (the same rule as ever), a simulated client gave commands: command `k` (0-based) is at
//! `start + 3s + k × 10s`, cycles sync, sync, failing sync, refresh, and picks its application
//! from a generator seeded by the seed and `k` alone (uniformly among all applications); a command
//! on a busy application is skipped, as a real client would get 409. One second before the world
//! opens, the client starts a last sync on the first application outside the scheduled window
//! that is idle, so at least one job is running when the world opens. Everything goes through
//! [`World::command`] and [`World::advance_to`]: nothing a fresh world could not have done.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Command, JobStatus, SCHEDULED_WINDOW, World, job_id, mix};
use crate::clock::Millis;

/// The simulated client's first command, after the world's start.
pub const CLIENT_FIRST: Millis = 3_000;
/// The simulated client's interval between commands.
pub const CLIENT_EVERY: Millis = 10_000;
/// How long before the world opens the simulated client starts its last sync.
pub const CLIENT_LAST_BEFORE_OPEN: Millis = 1_000;
const CLIENT_SALT: u64 = 0xC11E_0700;
const CLIENT_CYCLE: [Command; 4] = [
    Command::Sync,
    Command::Sync,
    Command::FailingSync,
    Command::Refresh,
];

/// Ids that exist in the world right now, to suggest as parameter values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Examples {
    /// An application with a history of jobs (the most recently finished job's application).
    pub app: Option<String>,
    /// The most recently started job that is still running.
    pub running_job: Option<String>,
    /// The most recently finished job that succeeded.
    pub succeeded_job: Option<String>,
    /// The most recently finished job that failed.
    pub failed_job: Option<String>,
}

impl World {
    /// Lives from the current time to `open`: scheduled work and the simulated client's commands
    /// (see the module docs), then stands at `open`.
    pub fn live_until(&mut self, open: Millis) {
        let start = self.config.start;
        let last = open - CLIENT_LAST_BEFORE_OPEN;
        let client_times = (0_i64..)
            .map_while(|k| {
                k.checked_mul(CLIENT_EVERY)?
                    .checked_add(start + CLIENT_FIRST)
            })
            .take_while(|&at| at < last);
        for (k, at) in (0_u64..).zip(client_times) {
            self.advance_to(at);
            self.client_command(k);
        }
        if last > start {
            self.advance_to(last);
            let idle = (SCHEDULED_WINDOW..self.apps.len()).find(|&i| self.apps[i].busy.is_none());
            if let Some(index) = idle {
                // Idle was just checked, so the command starts.
                let _ = self.command(index, Command::Sync);
            }
        }
        self.advance_to(open);
    }

    fn client_command(&mut self, k: u64) {
        if self.apps.is_empty() {
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(mix(self.config.seed ^ mix(k ^ CLIENT_SALT)));
        let index = rng.random_range(0..self.apps.len());
        let command = CLIENT_CYCLE[(k % CLIENT_CYCLE.len() as u64) as usize];
        // A busy application answers 409 to a real client too: the command is simply not given.
        let _ = self.command(index, command);
    }

    /// Ids that exist now, for suggesting parameter values that work.
    pub fn examples(&self) -> Examples {
        let latest = |status: JobStatus| {
            self.jobs
                .values()
                .filter(|job| job.status == status)
                .max_by_key(|job| (job.finished.unwrap_or(job.started), job.number))
        };
        let running = self
            .jobs
            .values()
            .filter(|job| job.status == JobStatus::Running)
            .max_by_key(|job| (job.started, job.number));
        let last_finished = self
            .finished_order
            .back()
            .and_then(|number| self.jobs.get(number));
        Examples {
            app: last_finished.map(|job| self.apps[job.app].id.clone()),
            running_job: running.map(|job| job_id(job.number)),
            succeeded_job: latest(JobStatus::Succeeded).map(|job| job_id(job.number)),
            failed_job: latest(JobStatus::Failed).map(|job| job_id(job.number)),
        }
    }
}
