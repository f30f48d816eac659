//! Deterministic generation of the applications from the seed.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{App, Health, JobKind, Operation, Phase, SyncStatus, mix};
use crate::clock::Millis;

/// The finite set of regions; `GET /apps/facets?field=region` returns the ones in use.
pub const REGIONS: [&str; 6] = [
    "eu-west-1",
    "eu-central-1",
    "us-east-1",
    "us-west-2",
    "ap-south-1",
    "ap-northeast-1",
];

const SYSTEMS: [&str; 20] = [
    "billing",
    "checkout",
    "catalog",
    "search",
    "payments",
    "identity",
    "inventory",
    "shipping",
    "notifications",
    "analytics",
    "reporting",
    "gateway",
    "ledger",
    "profile",
    "orders",
    "pricing",
    "recommendations",
    "media",
    "auth",
    "audit",
];

const ROLES: [&str; 10] = [
    "api",
    "web",
    "worker",
    "db",
    "cache",
    "scheduler",
    "frontend",
    "ingest",
    "stream",
    "admin",
];

const STAGES: [&str; 4] = ["", "-staging", "-canary", "-eu"];

const TEAMS: [&str; 6] = ["platform", "payments", "growth", "core", "data", "edge"];

/// Generates `count` applications: ids `app-0001`…, names, regions, statuses and revisions drawn
/// from a generator seeded with `seed`, timestamps placed before `start`.
pub fn generate_apps(seed: u64, count: usize, start: Millis) -> Vec<App> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let width = count.to_string().len().max(4);
    (0..count)
        .map(|index| {
            let system = SYSTEMS[rng.random_range(0..SYSTEMS.len())];
            let role = ROLES[rng.random_range(0..ROLES.len())];
            let stage = STAGES[rng.random_range(0..STAGES.len())];
            let region = REGIONS[rng.random_range(0..REGIONS.len())];
            let team = TEAMS[rng.random_range(0..TEAMS.len())];
            let health = match rng.random_range(0..100) {
                0..70 => Health::Healthy,
                70..78 => Health::Progressing,
                78..86 => Health::Degraded,
                86..91 => Health::Suspended,
                91..95 => Health::Missing,
                _ => Health::Unknown,
            };
            let phase = match rng.random_range(0..10) {
                0..5 => Phase::None,
                5..9 => Phase::Succeeded,
                _ => Phase::Failed,
            };
            let drifted = rng.random_range(0..100) < 15;
            let sync = if drifted || phase == Phase::Failed {
                SyncStatus::OutOfSync
            } else {
                SyncStatus::Synced
            };
            let rev = rng.random_range(1..=40);
            let created_at = start - rng.random_range(86_400_000..400 * 86_400_000);
            let reconciled_at = start - rng.random_range(0..180_000);
            let operation = (phase != Phase::None).then(|| {
                let finished = start - rng.random_range(60_000..7 * 86_400_000);
                let kind = JobKind::Sync;
                Operation {
                    job: None,
                    kind,
                    phase,
                    started: finished - if phase == Phase::Failed { 1_500 } else { 4_000 },
                    finished: Some(finished),
                    message: Operation::message_for(kind, phase),
                }
            });
            let name = format!("{system}-{role}{stage}");
            let id = format!("app-{:0width$}", index + 1);
            App {
                index,
                search_text: format!("{id}\n{name}\n{region}").to_lowercase(),
                id,
                name,
                region,
                team,
                sync,
                health,
                rev,
                phase,
                created_at,
                reconciled_at,
                operation,
                history: Default::default(),
                busy: None,
            }
        })
        .collect()
}

/// A git-like 40-hex-digit revision for the application at `index` at `rev`.
pub fn revision(seed: u64, index: usize, rev: u64) -> String {
    let base = mix(seed ^ mix(index as u64 ^ mix(rev)));
    format!(
        "{:016x}{:016x}{:08x}",
        base,
        mix(base),
        mix(base ^ 1) as u32
    )
}
