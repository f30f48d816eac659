//! The automation-job corner (`/api/v2/`): a paged job list, job records, and job event pages
//! filtered and walked the way an Ansible automation controller offers them.
//!
//! Job `1` finished long ago with 8,000 events. Job `2` starts when the service is built, produces
//! 8 events per second up to 3,000 and then turns `successful`; every thirteenth of its events is
//! saved 2 seconds late, and `event_processing_finished` turns true 3 seconds after the status.
//! Everything is a function of the seed, the build time and the clock's `now`.

mod discovery;
mod events;
mod query;

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use memchr::memmem::Finder;

use crate::CornerContext;
use crate::clock::{Clock, Millis};
use crate::error::ApiError;
use events::{Event, Job, JobRecord};
use query::{Page, QueryParams};

pub use events::{
    FINISHED_JOB_EVENTS, FINISHED_JOB_ID, LATE_EVENT_DELAY, LATE_EVENT_EVERY, PROCESSING_LAG,
    RUNNING_EVENT_INTERVAL, RUNNING_JOB_EVENTS, RUNNING_JOB_ID,
};
pub use query::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};

/// The query parameters of `GET /api/v2/jobs/{id}/job_events/`.
const EVENT_PARAMS: [&str; 13] = [
    "order_by",
    "counter__gt",
    "counter__gte",
    "counter__lt",
    "counter__lte",
    "page",
    "page_size",
    "stdout__icontains",
    "task__icontains",
    "failed",
    "changed",
    "host_name",
    "event",
];

/// The query parameters of `GET /api/v2/jobs/`.
const JOB_LIST_PARAMS: [&str; 2] = ["page", "page_size"];

/// The corner's state: the clock and the two jobs.
#[derive(Debug)]
struct Automation {
    clock: Arc<dyn Clock>,
    jobs: [Job; 2],
}

impl Automation {
    fn job(&self, id: &str) -> Result<&Job, ApiError> {
        let not_found = || ApiError::not_found(format!("job \"{id}\" not found"));
        let id: u64 = id.parse().map_err(|_| not_found())?;
        self.jobs
            .iter()
            .find(|job| job.id == id)
            .ok_or_else(not_found)
    }
}

/// The corner's routes, with their state applied.
pub fn router(ctx: CornerContext) -> Router {
    let state = Arc::new(Automation {
        clock: ctx.clock,
        jobs: [
            Job::finished(ctx.seed, ctx.built_at),
            Job::running(ctx.seed, ctx.built_at),
        ],
    });
    Router::new()
        .route(
            "/api/v2/jobs/",
            get(job_list).options(discovery::job_list_options),
        )
        .route(
            "/api/v2/jobs/{id}/",
            get(job_detail).options(discovery::allow_only),
        )
        .route(
            "/api/v2/jobs/{id}/job_events/",
            get(job_events).options(discovery::events_options),
        )
        .with_state(state)
        .merge(discovery::router())
}

/// `GET /api/v2/jobs/`: both jobs, paged like every list of the corner.
async fn job_list(
    State(automation): State<Arc<Automation>>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Page<JobRecord>>, ApiError> {
    let params = QueryParams::parse(pairs, &JOB_LIST_PARAMS)?;
    let paging = params.paging()?;
    let now = automation.clock.now();
    let window = paging.window(automation.jobs.len())?;
    let results = automation.jobs[window]
        .iter()
        .map(|job| job.record(now))
        .collect();
    Ok(Json(params.page(
        "/api/v2/jobs/",
        &paging,
        automation.jobs.len(),
        results,
    )))
}

/// `GET /api/v2/jobs/{id}/`: the job record.
async fn job_detail(
    State(automation): State<Arc<Automation>>,
    Path(id): Path<String>,
) -> Result<Json<JobRecord>, ApiError> {
    let job = automation.job(&id)?;
    Ok(Json(job.record(automation.clock.now())))
}

/// `GET /api/v2/jobs/{id}/job_events/`: one page of the events saved by now that match.
async fn job_events(
    State(automation): State<Arc<Automation>>,
    Path(id): Path<String>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let job = automation.job(&id)?;
    let params = QueryParams::parse(pairs, &EVENT_PARAMS)?;
    let filter = EventFilter::parse(&params)?;
    let paging = params.paging()?;
    let now = automation.clock.now();
    let mut matches: Vec<&Event> = filter
        .candidates(&job.events)
        .filter(|event| filter.matches(event, now))
        .collect();
    if filter.descending {
        matches.reverse();
    }
    let window = paging.window(matches.len())?;
    let results = matches[window]
        .iter()
        .map(|event| job.event_record(event))
        .collect();
    let path = format!("/api/v2/jobs/{}/job_events/", job.id);
    // Serialized here: the events borrow from the state.
    Ok(Json(params.page(&path, &paging, matches.len(), results)).into_response())
}

/// What an events request selects, parsed from its parameters.
#[derive(Debug)]
struct EventFilter {
    /// `order_by=-counter`.
    descending: bool,
    /// The lowest counter wanted (from `counter__gt` and `counter__gte`).
    lowest: i64,
    /// The highest counter wanted (from `counter__lt` and `counter__lte`).
    highest: i64,
    /// `stdout__icontains`, lowercased, as a searcher built once per request.
    stdout: Option<Finder<'static>>,
    /// For each task name, then for the empty name of events outside a task, whether it matches
    /// `task__icontains` (`None`: no such filter).
    tasks: Option<Vec<bool>>,
    /// `failed`.
    failed: Option<bool>,
    /// `changed`.
    changed: Option<bool>,
    /// `host_name` (exact).
    host: Option<events::HostName>,
    /// `event` (exact kind).
    event: Option<String>,
}

impl EventFilter {
    fn parse(params: &QueryParams) -> Result<EventFilter, ApiError> {
        let descending = match params.get("order_by") {
            None | Some("counter") => false,
            Some("-counter") => true,
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "invalid value for `order_by`: `{other}`; use `counter` or `-counter` (the default order has ties)"
                )));
            }
        };
        let mut lowest = i64::MIN;
        let mut highest = i64::MAX;
        if let Some(gt) = params.integer("counter__gt")? {
            lowest = lowest.max(gt.saturating_add(1));
        }
        if let Some(gte) = params.integer("counter__gte")? {
            lowest = lowest.max(gte);
        }
        if let Some(lt) = params.integer("counter__lt")? {
            highest = highest.min(lt.saturating_sub(1));
        }
        if let Some(lte) = params.integer("counter__lte")? {
            highest = highest.min(lte);
        }
        let tasks = params.get("task__icontains").map(|needle| {
            let needle = needle.to_lowercase();
            let names = events::task_names().iter().copied().chain([""]);
            names
                .map(|name| name.to_lowercase().contains(&needle))
                .collect()
        });
        Ok(EventFilter {
            descending,
            lowest,
            highest,
            stdout: params
                .get("stdout__icontains")
                .map(|needle| Finder::new(&needle.to_lowercase()).into_owned()),
            tasks,
            failed: params.boolean("failed")?,
            changed: params.boolean("changed")?,
            host: params.get("host_name").map(events::parse_host_name),
            event: params.get("event").map(str::to_owned),
        })
    }

    /// The events inside the counter range (counters are gapless from 1, so it is a slice).
    fn candidates<'a>(&self, events: &'a [Event]) -> impl Iterator<Item = &'a Event> {
        let start = usize::try_from(self.lowest.max(1) - 1)
            .unwrap_or(usize::MAX)
            .min(events.len());
        let end = usize::try_from(self.highest.max(0))
            .unwrap_or(usize::MAX)
            .min(events.len())
            .max(start);
        events[start..end].iter()
    }

    fn matches(&self, event: &Event, now: Millis) -> bool {
        event.visible_at <= now
            && self.failed.is_none_or(|failed| event.failed == failed)
            && self.changed.is_none_or(|changed| event.changed == changed)
            && self
                .event
                .as_deref()
                .is_none_or(|kind| event.kind.name() == kind)
            && self
                .host
                .is_none_or(|host| host == events::HostName::Of(event.host))
            && self
                .tasks
                .as_deref()
                .is_none_or(|tasks| tasks[event.task.map_or(tasks.len() - 1, usize::from)])
            && self
                .stdout
                .as_ref()
                .is_none_or(|needle| needle.find(event.stdout_lower.as_bytes()).is_some())
    }
}

/// RFC 3339 UTC with milliseconds, e.g. `2026-11-21T05:00:00.000Z`.
fn rfc3339(at: Millis) -> String {
    let since_epoch = Duration::from_millis(u64::try_from(at).unwrap_or(0));
    humantime::format_rfc3339_millis(UNIX_EPOCH + since_epoch).to_string()
}
