//! The JSON shapes of the world: list rows, the nested detail document and job rows.

use serde::Serialize;
use serde_json::{Value, json};

use super::generate::revision;
use super::{App, Health, Job, JobKind, JobStatus, Phase, SyncStatus, job_id};
use crate::clock::rfc3339;

impl SyncStatus {
    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            SyncStatus::Synced => "Synced",
            SyncStatus::OutOfSync => "OutOfSync",
        }
    }
}

impl Health {
    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            Health::Healthy => "Healthy",
            Health::Progressing => "Progressing",
            Health::Degraded => "Degraded",
            Health::Suspended => "Suspended",
            Health::Missing => "Missing",
            Health::Unknown => "Unknown",
        }
    }

    fn message(self) -> &'static str {
        match self {
            Health::Healthy => "",
            Health::Progressing => {
                "Waiting for rollout to finish: 1 of 3 updated replicas are available"
            }
            Health::Degraded => "Deployment has exceeded its progress deadline",
            Health::Suspended => "Deployment is paused",
            Health::Missing => "Resource not found in the cluster",
            Health::Unknown => "Health could not be assessed",
        }
    }
}

impl Phase {
    /// The wire string (empty when no operation has run).
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::None => "",
            Phase::Running => "Running",
            Phase::Succeeded => "Succeeded",
            Phase::Failed => "Failed",
        }
    }
}

impl JobKind {
    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::Sync => "sync",
            JobKind::Refresh => "refresh",
        }
    }
}

impl JobStatus {
    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Running => "Running",
            JobStatus::Succeeded => "Succeeded",
            JobStatus::Failed => "Failed",
        }
    }
}

/// An element of `rows` in `GET /apps`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AppRow<'a> {
    /// Identifier.
    pub id: &'a str,
    /// Display name.
    pub name: &'a str,
    /// Region.
    pub region: &'a str,
    /// `Synced` or `OutOfSync`.
    pub sync: &'static str,
    /// Health status.
    pub health: &'static str,
    /// Revision counter.
    pub rev: u64,
    /// Operation phase, empty when none.
    pub phase: &'static str,
}

impl App {
    /// The list row.
    pub fn row(&self) -> AppRow<'_> {
        AppRow {
            id: &self.id,
            name: &self.name,
            region: self.region,
            sync: self.sync.as_str(),
            health: self.health.as_str(),
            rev: self.rev,
            phase: self.phase.as_str(),
        }
    }

    /// The Argo CD–shaped detail document: metadata, spec, status.
    pub fn detail(&self, seed: u64) -> Value {
        let revision = revision(seed, self.index, self.rev);
        let operation = self.operation.as_ref().map(|op| {
            json!({
                "operation": { "sync": { "revision": revision }, "initiatedBy": { "username": "demo" } },
                "job": op.job.map(job_id),
                "kind": op.kind.as_str(),
                "phase": op.phase.as_str(),
                "message": op.message,
                "startedAt": rfc3339(op.started),
                "finishedAt": op.finished.map(rfc3339),
            })
        });
        let history: Vec<Value> = self
            .history
            .iter()
            .map(|entry| {
                json!({
                    "id": entry.job,
                    "job": job_id(entry.job),
                    "rev": entry.rev,
                    "revision": super::generate::revision(seed, self.index, entry.rev),
                    "phase": entry.phase.as_str(),
                    "deployStartedAt": rfc3339(entry.started),
                    "deployedAt": rfc3339(entry.finished),
                })
            })
            .collect();
        let resource = |kind: &str, group: &str, health: Option<Health>| {
            let mut value = json!({
                "group": group,
                "version": "v1",
                "kind": kind,
                "namespace": self.name,
                "name": self.name,
                "status": self.sync.as_str(),
            });
            if let (Some(health), Some(map)) = (health, value.as_object_mut()) {
                map.insert("health".into(), json!({ "status": health.as_str() }));
            }
            value
        };
        json!({
            "apiVersion": "argoproj.io/v1alpha1",
            "kind": "Application",
            "metadata": {
                "name": self.id,
                "namespace": "argocd",
                "uid": format!("{:08x}-0000-4000-8000-{:012x}", super::mix(seed ^ self.index as u64) as u32, self.index),
                "generation": self.rev,
                "creationTimestamp": rfc3339(self.created_at),
                "labels": {
                    "app.kubernetes.io/name": self.name,
                    "team": self.team,
                    "region": self.region,
                },
            },
            "spec": {
                "project": self.team,
                "source": {
                    "repoURL": format!("https://git.example.invalid/{}/{}.git", self.team, self.name),
                    "path": format!("deploy/{}", self.region),
                    "targetRevision": "HEAD",
                },
                "destination": {
                    "server": format!("https://{}.k8s.example.invalid", self.region),
                    "namespace": self.name,
                },
                "syncPolicy": {
                    "automated": { "prune": self.index.is_multiple_of(3), "selfHeal": self.index.is_multiple_of(2) },
                    "syncOptions": ["CreateNamespace=true"],
                },
            },
            "status": {
                "sync": { "status": self.sync.as_str(), "revision": revision },
                "health": { "status": self.health.as_str(), "message": self.health.message() },
                "operationState": operation,
                "history": history,
                "resources": [
                    resource("Deployment", "apps", Some(self.health)),
                    resource("Service", "", Some(Health::Healthy)),
                    resource("ConfigMap", "", None),
                ],
                "reconciledAt": rfc3339(self.reconciled_at),
            },
        })
    }
}

/// A job row, as in `GET /jobs` and `GET /jobs/{id}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JobRow<'a> {
    /// The job id.
    pub id: String,
    /// The application id.
    pub app: &'a str,
    /// `sync` or `refresh`.
    pub kind: &'static str,
    /// `Running`, `Succeeded` or `Failed`.
    pub status: &'static str,
    /// RFC 3339 UTC with milliseconds.
    pub started: String,
    /// RFC 3339 UTC with milliseconds; null while running.
    pub finished: Option<String>,
    /// The application's rev: the one it started from while running, the one it produced once
    /// finished.
    pub rev: u64,
}

impl Job {
    /// The job row, given the application list it refers to.
    pub fn row<'a>(&self, apps: &'a [App]) -> JobRow<'a> {
        JobRow {
            id: self.id(),
            app: apps.get(self.app).map_or("", |app| app.id.as_str()),
            kind: self.kind.as_str(),
            status: self.status.as_str(),
            started: rfc3339(self.started),
            finished: self.finished.map(rfc3339),
            rev: self.rev,
        }
    }
}
