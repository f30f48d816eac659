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

use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
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
///
/// Counts the matches without collecting them (only the visibility column when the request
/// selects by counter alone), then walks to the page and copies its events' stored JSON.
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
    let candidates = filter.candidates(job.events.len());
    let by_counter_only = filter.selects_by_counter_only();
    let selected = |index: &usize| {
        if by_counter_only {
            job.visible_at[*index] <= now
        } else {
            filter.matches(&job.events[*index], now)
        }
    };
    let count = if by_counter_only {
        let visible_at = &job.visible_at[candidates.clone()];
        visible_at.iter().filter(|at| **at <= now).count()
    } else {
        candidates.clone().filter(selected).count()
    };
    let window = paging.window(count)?;
    let ordered: Box<dyn Iterator<Item = usize>> = if filter.descending {
        Box::new(candidates.rev())
    } else {
        Box::new(candidates)
    };
    let listed = job.listed()?;
    let results = ordered
        .filter(selected)
        .skip(window.start)
        .take(window.len())
        .map(|index| &*listed[index]);
    let path = format!("/api/v2/jobs/{}/job_events/", job.id);
    let body = params.page_json(&path, &paging, count, results)?;
    let mut response = body.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Ok(response)
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

    /// The positions of the events inside the counter range among `len` events (counters are
    /// gapless from 1, so it is a range).
    fn candidates(&self, len: usize) -> Range<usize> {
        let start = usize::try_from(self.lowest.max(1) - 1)
            .unwrap_or(usize::MAX)
            .min(len);
        let end = usize::try_from(self.highest.max(0))
            .unwrap_or(usize::MAX)
            .min(len)
            .max(start);
        start..end
    }

    /// Whether the request selects by counter range alone, so visibility decides the rest.
    fn selects_by_counter_only(&self) -> bool {
        self.stdout.is_none()
            && self.tasks.is_none()
            && self.failed.is_none()
            && self.changed.is_none()
            && self.host.is_none()
            && self.event.is_none()
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

#[cfg(test)]
mod tests {
    use http_body_util::BodyExt;

    use super::*;
    use crate::clock::ManualClock;

    const BUILT_AT: Millis = 1_800_000_000_000;

    /// The page as the events endpoint first served it: every match collected, reversed for
    /// `-counter`, windowed, and the records serialized with the envelope.
    fn reference(job: &Job, pairs: Vec<(String, String)>, now: Millis) -> Result<Vec<u8>, String> {
        let params = QueryParams::parse(pairs, &EVENT_PARAMS).map_err(|e| e.message)?;
        let filter = EventFilter::parse(&params).map_err(|e| e.message)?;
        let paging = params.paging().map_err(|e| e.message)?;
        let mut matches: Vec<&Event> = job.events[filter.candidates(job.events.len())]
            .iter()
            .filter(|event| filter.matches(event, now))
            .collect();
        if filter.descending {
            matches.reverse();
        }
        let window = paging.window(matches.len()).map_err(|e| e.message)?;
        let results: Vec<_> = matches[window]
            .iter()
            .map(|event| job.event_record(event))
            .collect();
        let path = format!("/api/v2/jobs/{}/job_events/", job.id);
        let page = params.page(&path, &paging, matches.len(), results);
        serde_json::to_vec(&page).map_err(|e| e.to_string())
    }

    #[tokio::test]
    async fn pages_are_byte_for_byte_the_serialized_records_for_every_filter_order_and_time() {
        let clock = ManualClock::new(BUILT_AT - 7_200_000);
        let automation = Arc::new(Automation {
            clock: Arc::new(clock.clone()),
            jobs: [Job::finished(9, BUILT_AT), Job::running(9, BUILT_AT)],
        });
        let queries: [&[(&str, &str)]; 10] = [
            &[],
            &[("order_by", "counter"), ("page_size", "50")],
            &[("order_by", "-counter"), ("page_size", "7"), ("page", "3")],
            &[
                ("counter__gt", "100"),
                ("counter__lte", "260"),
                ("page", "2"),
            ],
            &[("order_by", "-counter"), ("counter__gte", "5990")],
            &[("stdout__icontains", "CHANGED"), ("page_size", "200")],
            &[
                ("failed", "true"),
                ("order_by", "-counter"),
                ("page_size", "3"),
            ],
            &[("host_name", "web-03"), ("task__icontains", "nginx")],
            &[
                ("event", "runner_on_start"),
                ("changed", "false"),
                ("page", "4"),
            ],
            &[("page", "400"), ("page_size", "200")],
        ];
        let times = [
            BUILT_AT - 7_200_000,
            BUILT_AT - 1_800_000,
            BUILT_AT + 61_000,
            BUILT_AT + 400_000,
        ];
        let mut compared = 0;
        for now in times {
            clock.set(now);
            for job in &automation.jobs {
                for query in queries {
                    let pairs: Vec<(String, String)> = query
                        .iter()
                        .map(|(name, value)| (name.to_string(), value.to_string()))
                        .collect();
                    let expected = reference(job, pairs.clone(), now);
                    let served = job_events(
                        State(automation.clone()),
                        Path(job.id.to_string()),
                        Query(pairs),
                    )
                    .await;
                    let served = match served {
                        Ok(response) => {
                            let body = response.into_body().collect().await.expect("a body");
                            Ok(body.to_bytes().to_vec())
                        }
                        Err(error) => Err(error.message),
                    };
                    assert_eq!(served, expected, "job {} at {now}: {query:?}", job.id);
                    compared += usize::from(served.is_ok_and(|body| body.len() > 100));
                }
            }
        }
        assert!(compared > 40, "only {compared} non-empty pages compared");
    }
}
