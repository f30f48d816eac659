//! `GET /jobs/{id}/log`: a job's log as chunked `text/plain`, paced on the world clock.
//!
//! Line `k` of a job is due at `started + k / rate` seconds (whole milliseconds, rounded down) and is written while the job runs
//! (due before the job ends); when the job ends, its closing lines follow and the stream closes.
//! A stream opened on a finished job replays the whole log at once. Every line is a template with
//! the `{app}` token, replaced by the application id, so no line carries stray formatting text.

use std::sync::Arc;

use bytes::Bytes;
use futures::Stream;

use crate::clock::{Clock, Millis, rfc3339};
use crate::error::ApiError;
use crate::params::Params;
use crate::world::{Job, JobKind, Outcome};

/// Lines per second when `rate` is omitted.
pub const DEFAULT_RATE: f64 = 3.0;
/// The highest accepted `rate`.
pub const MAX_RATE: f64 = 10_000.0;
/// At most this many lines go into one chunk.
const LINES_PER_CHUNK: usize = 256;

const SYNC_LINES: [&str; 8] = [
    "INFO  {app}: comparing live state with the target revision",
    "INFO  {app}: fetched manifests for {app} from the repository",
    "INFO  {app}: applying ConfigMap/{app}",
    "INFO  {app}: applying Service/{app}",
    "INFO  {app}: applying Deployment/{app}",
    "INFO  {app}: waiting for Deployment/{app} to roll out",
    "INFO  {app}: pod {app}-5d8f7 is Ready",
    "INFO  {app}: pruning resources no longer in the repository for {app}",
];

const FAILING_LINES: [&str; 5] = [
    "INFO  {app}: comparing live state with the target revision",
    "INFO  {app}: fetched manifests for {app} from the repository",
    "INFO  {app}: applying Deployment/{app}",
    "WARN  {app}: Deployment/{app} was rejected by the admission webhook",
    "WARN  {app}: retrying Deployment/{app}",
];

const REFRESH_LINES: [&str; 1] = ["INFO  {app}: comparing live state with the target revision"];

/// Everything the stream needs, copied from the job when the request arrives.
#[derive(Clone, Debug)]
pub struct LogPlan {
    app: String,
    kind: JobKind,
    outcome: Outcome,
    started: Millis,
    ends: Millis,
    /// Lines per second.
    rate: f64,
}

/// Parses `rate` (lines per second, default 3, more than 0 and at most 10,000).
pub fn parse_rate(params: &Params) -> Result<f64, ApiError> {
    let Some(text) = params.get("rate") else {
        return Ok(DEFAULT_RATE);
    };
    match text.parse::<f64>() {
        Ok(rate) if rate > 0.0 && rate <= MAX_RATE => Ok(rate),
        _ => Err(ApiError::bad_request(format!(
            "parameter rate: expected lines per second, a number above 0 and at most {MAX_RATE}, got {text:?}"
        ))),
    }
}

impl LogPlan {
    /// The plan for `job` of application `app` at `rate` lines per second.
    pub fn new(job: &Job, app: &str, rate: f64) -> LogPlan {
        LogPlan {
            app: app.to_owned(),
            kind: job.kind,
            outcome: job.outcome,
            started: job.started,
            ends: job.ends,
            rate,
        }
    }

    fn due(&self, line: i64) -> Millis {
        self.started
            .saturating_add((line as f64 * 1_000.0 / self.rate).floor() as Millis)
    }

    fn templates(&self) -> &'static [&'static str] {
        match (self.kind, self.outcome) {
            (JobKind::Refresh, _) => &REFRESH_LINES,
            (JobKind::Sync, Outcome::Succeed) => &SYNC_LINES,
            (JobKind::Sync, Outcome::Fail) => &FAILING_LINES,
        }
    }

    fn line(&self, line: i64) -> String {
        let templates = self.templates();
        let template = templates[line as usize % templates.len()];
        format!(
            "{} {}\n",
            rfc3339(self.due(line)),
            template.replace("{app}", &self.app)
        )
    }

    /// The lines written when the job ends.
    fn closing(&self) -> String {
        let at = rfc3339(self.ends);
        let app = &self.app;
        match (self.kind, self.outcome) {
            (JobKind::Refresh, _) => format!("{at} INFO  {app}: refresh finished\n"),
            (JobKind::Sync, Outcome::Succeed) => {
                format!(
                    "{at} INFO  {app}: all resources are synced\n{at} INFO  {app}: sync succeeded\n"
                )
            }
            (JobKind::Sync, Outcome::Fail) => format!(
                "{at} ERROR {app}: Deployment/{app} failed to apply: admission webhook denied the request\n\
                 {at} ERROR {app}: sync failed; the application stays OutOfSync\n"
            ),
        }
    }

    /// Whether line `line` is written while the job runs.
    fn runs(&self, line: i64) -> bool {
        self.due(line) < self.ends
    }

    /// The log as a stream of chunks: each chunk holds the lines due by the clock's time; between
    /// chunks the stream waits on the clock.
    pub fn stream(
        self,
        clock: Arc<dyn Clock>,
    ) -> impl Stream<Item = Result<Bytes, std::convert::Infallible>> + Send {
        futures::stream::unfold(Some((self, clock, 0_i64)), |state| async move {
            let (plan, clock, mut next) = state?;
            loop {
                let now = clock.now();
                let mut chunk = String::new();
                let mut lines = 0;
                while lines < LINES_PER_CHUNK && plan.runs(next) && plan.due(next) <= now {
                    chunk.push_str(&plan.line(next));
                    next += 1;
                    lines += 1;
                }
                if !chunk.is_empty() {
                    return Some((Ok(Bytes::from(chunk)), Some((plan, clock, next))));
                }
                if !plan.runs(next) && now >= plan.ends {
                    return Some((Ok(Bytes::from(plan.closing())), None));
                }
                let wake = if plan.runs(next) {
                    plan.due(next)
                } else {
                    plan.ends
                };
                clock.sleep_until(wake).await;
            }
        })
    }
}
