//! `paginate: {strategy: link}`: walks every page up front, following the next-page URL read at
//! `next_path` in the raw response (before `root`), and concatenates each page's items.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;

use crate::decode::{Format, apply_root, decode};
use crate::error::Cause;
use crate::fetch::http_body;
use crate::io::{HttpRequest, Io, IoError};
use crate::path;
use crate::trace::{Progress, Trace};

/// `max_pages` when unset or 0.
pub const DEFAULT_MAX_PAGES: u64 = 20;

/// The most time a whole walk may take, whatever each page's `timeout` and `max_pages` allow.
pub const WALK_DEADLINE: Duration = Duration::from_secs(60);

/// A link walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkWalk {
    /// Dot-path to the next page's URL in the raw response.
    pub next_path: String,
    /// The most pages fetched (0 or less means [`DEFAULT_MAX_PAGES`]).
    pub max_pages: i64,
    /// Whether a failing page ends the walk with what was fetched (`skip`; nothing when the first
    /// page fails)
    /// instead of failing it.
    pub skip_page_errors: bool,
    /// The entry's `root`.
    pub root: Option<String>,
    /// The most time the whole walk may take ([`WALK_DEADLINE`] in `try`).
    pub deadline: Duration,
}

impl LinkWalk {
    /// The page cap in force.
    pub fn cap(&self) -> u64 {
        u64::try_from(self.max_pages)
            .ok()
            .filter(|pages| *pages > 0)
            .unwrap_or(DEFAULT_MAX_PAGES)
    }
}

/// The next page's URL from a raw response: `None` when the link is absent, null or empty. A
/// `next_path` that leads nowhere in a page with other keys is said as a warning (with where the
/// walk stopped and a did-you-mean from the page's keys): the walk ends there, perhaps too early.
fn next_url(
    raw: &Value,
    next_path: &str,
    current: &str,
    page: u64,
    trace: &dyn Trace,
) -> Result<Option<String>, Cause> {
    let link = match path::lookup(raw, next_path) {
        Ok(Value::String(text)) if !text.is_empty() => text.clone(),
        Ok(Value::Null) => return Ok(None),
        Err(miss) => {
            if raw.as_object().is_some_and(|keys| !keys.is_empty()) {
                trace.warn(&format!(
                    "`next_path: {next_path}` matched nothing on page {page}: {}; the walk stopped there",
                    miss.0
                ));
            }
            return Ok(None);
        }
        Ok(Value::String(_)) => return Ok(None),
        Ok(other) => {
            return Err(Cause::MissingPath {
                field: "next_path",
                path: next_path.to_owned(),
                detail: format!("it holds {}, not a URL", path::kind(other)),
            });
        }
    };
    let base = url::Url::parse(current).map_err(|error| IoError::Url {
        url: current.to_owned(),
        detail: error.to_string(),
    })?;
    let joined = base.join(&link).map_err(|error| IoError::Url {
        url: link.clone(),
        detail: error.to_string(),
    })?;
    Ok(Some(joined.to_string()))
}

fn page_items(raw: Value, root: Option<&str>, page: u64) -> Result<Vec<Value>, Cause> {
    match apply_root(raw, root)? {
        Value::Array(items) => Ok(items),
        Value::Null => Ok(Vec::new()),
        other => Err(Cause::NotAList {
            whose: format!("page {page}"),
            found: path::kind(&other),
        }),
    }
}

/// Walks the pages from `first` (a relative next link is resolved against the page's URL; every
/// page is requested with the first request's method and body, and its headers while the link
/// stays on the first request's origin: see [`crate::origin`]). Each page has `timeout`;
/// the whole walk has `walk.deadline`; a next link to a page already fetched is an error, or with
/// `on_page_error: skip` the end of the walk with the pages read.
pub async fn walk(
    io: &dyn Io,
    trace: &dyn Trace,
    first: HttpRequest,
    walk: &LinkWalk,
    timeout: Duration,
) -> Result<Value, Cause> {
    let cap = walk.cap();
    let started = io.now();
    let mut items = Vec::new();
    let mut seen = HashMap::new();
    let configured = first.url.clone();
    let configured_headers = first.headers.clone();
    let mut request = first;
    let mut page = 1;
    loop {
        seen.insert(request.url.clone(), page);
        let remaining = walk
            .deadline
            .saturating_sub(io.now().saturating_sub(started));
        let page_timeout = timeout.min(remaining);
        let fetched = async {
            if page_timeout.is_zero() {
                return Err(Cause::Io(IoError::Timeout(page_timeout)));
            }
            let body = http_body(io, trace, request.clone(), page_timeout).await?;
            let raw = decode(&body, Format::Json, "response")?;
            let next = next_url(&raw, &walk.next_path, &request.url, page, trace)?;
            Ok::<_, Cause>((page_items(raw, walk.root.as_deref(), page)?, next))
        }
        .await;
        let (mut page_items, next) = match fetched {
            Ok(fetched) => fetched,
            Err(Cause::Io(IoError::Timeout(_))) if page_timeout < timeout => {
                return Err(Cause::WalkDeadline {
                    deadline: walk.deadline,
                    pages: page - 1,
                    items: items.len(),
                });
            }
            Err(cause) if walk.skip_page_errors => {
                trace.warn(&format!(
                    "page {page} failed ({cause}); `on_page_error: skip` keeps the {} items of the pages before it",
                    items.len()
                ));
                break;
            }
            Err(cause) => return Err(cause),
        };
        items.append(&mut page_items);
        trace.progress(Progress::Pages {
            pages: page,
            items: items.len(),
        });
        let Some(next) = next else {
            trace.note(&format!(
                "  {page} page(s), {} items: no next link",
                items.len()
            ));
            break;
        };
        if page >= cap {
            trace.warn(&format!(
                "stopped at `max_pages: {cap}` with {} items; more pages remain (raise `max_pages` to read them)",
                items.len()
            ));
            break;
        }
        if let Some(first) = seen.get(&next) {
            if walk.skip_page_errors {
                // `max_pages` bounds the walk: a link back returns what was read, as the cap would
                // (without reading the same pages again).
                trace.warn(&format!(
                    "page {} links back to {}, already fetched as page {first}; `on_page_error: skip` keeps the {} items read",
                    page + 1,
                    crate::trace::url(&next),
                    items.len()
                ));
                break;
            }
            return Err(Cause::PageLoop {
                page: page + 1,
                url: crate::trace::url(&next),
                first: *first,
            });
        }
        if let Some(refusal) = crate::origin::downgrade(&request.url, &next) {
            return Err(Cause::Io(IoError::Transport(format!(
                "the next link of page {page}: {refusal}"
            ))));
        }
        // A next link to another origin gets none of the configured headers.
        request.headers = crate::origin::headers_for(&configured, &next, &configured_headers);
        if request.headers.len() < configured_headers.len() {
            trace.note(&format!(
                "  page {} is on another origin: none of the configured headers sent",
                page + 1
            ));
        }
        request.url = next;
        page += 1;
    }
    Ok(Value::Array(items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::DEFAULT_TIMEOUT;
    use crate::testing::{FakeIo, Reply};
    use crate::trace::{Collect, Silent};
    use serde_json::json;

    fn events_server() -> FakeIo {
        FakeIo::new().with_http(|request| {
            let page: u32 = request
                .url
                .split("page=")
                .nth(1)
                .and_then(|p| p.parse().ok())
                .unwrap_or(1);
            if page > 3 {
                return Reply::Body(404, vec![r#"{"error":"Invalid page."}"#.into()]);
            }
            let next = if page < 3 {
                json!(format!("/api/v2/jobs/1/job_events/?page={}", page + 1))
            } else {
                Value::Null
            };
            Reply::json(json!({"count": 6, "next": next, "results": [{"counter": page * 2 - 1}, {"counter": page * 2}]}))
        })
    }

    fn first() -> HttpRequest {
        HttpRequest {
            method: "GET".into(),
            url: "http://127.0.0.1:8099/api/v2/jobs/1/job_events/?page=1".into(),
            headers: vec![("Accept".into(), "application/json".into())],
            body: None,
        }
    }

    fn spec(max_pages: i64) -> LinkWalk {
        LinkWalk {
            next_path: "next".into(),
            max_pages,
            skip_page_errors: false,
            root: Some("results".into()),
            deadline: WALK_DEADLINE,
        }
    }

    #[tokio::test]
    async fn follows_relative_links_until_the_link_is_null() {
        let io = events_server();
        let value = walk(&io, &Silent, first(), &spec(0), DEFAULT_TIMEOUT)
            .await
            .expect("walks");
        let counters: Vec<i64> = value
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|e| e["counter"].as_i64())
            .collect();
        assert_eq!(counters, [1, 2, 3, 4, 5, 6]);
        let log = io.http_log();
        assert_eq!(log.len(), 3);
        assert_eq!(
            log[2].url,
            "http://127.0.0.1:8099/api/v2/jobs/1/job_events/?page=3"
        );
        assert_eq!(log[2].headers, first().headers);
    }

    #[tokio::test]
    async fn max_pages_caps_the_walk_and_zero_means_twenty() {
        let io = events_server();
        let trace = Collect::default();
        let value = walk(&io, &trace, first(), &spec(2), DEFAULT_TIMEOUT)
            .await
            .expect("walks");
        assert_eq!(value.as_array().map(Vec::len), Some(4));
        assert_eq!(
            trace.warnings(),
            [
                "stopped at `max_pages: 2` with 4 items; more pages remain (raise `max_pages` to read them)"
            ]
        );
        assert_eq!(spec(0).cap(), 20);
        assert_eq!(spec(-1).cap(), 20);
        assert_eq!(spec(5).cap(), 5);
    }

    #[tokio::test]
    async fn a_failing_later_page_fails_or_is_skipped() {
        let io = FakeIo::new().with_http(|request| {
            if request.url.ends_with("page=2") {
                Reply::Body(503, vec!["unavailable".into()])
            } else {
                Reply::json(json!({"next": "?page=2", "results": [1]}))
            }
        });
        let error = walk(&io, &Silent, first(), &spec(0), DEFAULT_TIMEOUT)
            .await
            .expect_err("fails");
        assert!(error.to_string().starts_with("HTTP 503"), "{error}");
        let skipping = LinkWalk {
            skip_page_errors: true,
            ..spec(0)
        };
        let value = walk(&io, &Silent, first(), &skipping, DEFAULT_TIMEOUT)
            .await
            .expect("skips");
        assert_eq!(value, json!([1]));
    }

    #[tokio::test]
    async fn a_failing_first_page_skipped_is_an_empty_list() {
        let io = FakeIo::new().with_http(|_| Reply::Body(503, vec!["unavailable".into()]));
        let skipping = LinkWalk {
            skip_page_errors: true,
            ..spec(0)
        };
        let trace = crate::trace::Collect::default();
        let value = walk(&io, &trace, first(), &skipping, DEFAULT_TIMEOUT)
            .await
            .expect("skips");
        assert_eq!(value, json!([]));
        let warnings = trace.warnings();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("page 1 failed (HTTP 503")
                && warnings[0]
                    .ends_with("`on_page_error: skip` keeps the 0 items of the pages before it"),
            "{warnings:?}"
        );
    }

    #[tokio::test]
    async fn a_next_path_matching_nothing_is_a_warning_with_a_did_you_mean() {
        let io =
            FakeIo::new().with_http(|_| Reply::json(json!({"nxt": "?page=2", "results": [1, 2]})));
        let trace = Collect::default();
        let value = walk(&io, &trace, first(), &spec(0), DEFAULT_TIMEOUT)
            .await
            .expect("walks");
        assert_eq!(value, json!([1, 2]));
        assert_eq!(
            trace.warnings(),
            [
                "`next_path: next` matched nothing on page 1: no key `next` at the top level (did you mean `nxt`?); the walk stopped there"
            ]
        );
        let last = FakeIo::new().with_http(|_| Reply::json(json!({"next": null, "results": []})));
        let quiet = Collect::default();
        walk(&last, &quiet, first(), &spec(0), DEFAULT_TIMEOUT)
            .await
            .expect("walks");
        assert!(quiet.warnings().is_empty(), "{:?}", quiet.lines());
    }

    #[tokio::test]
    async fn a_next_link_back_to_a_fetched_page_stops_the_walk_naming_it() {
        let io = FakeIo::new().with_http(|request| {
            if request.url.ends_with("page=2") {
                Reply::json(json!({"next": "?page=1", "results": [2]}))
            } else {
                Reply::json(json!({"next": "?page=2", "results": [1]}))
            }
        });
        let error = walk(&io, &Silent, first(), &spec(1000), DEFAULT_TIMEOUT)
            .await
            .expect_err("loops");
        assert_eq!(
            error.to_string(),
            "page 3 links back to http://127.0.0.1:8099/api/v2/jobs/1/job_events/?page=1, already fetched as page 1: the walk would never end (check the server's next link at `next_path`)"
        );
        assert_eq!(io.http_log().len(), 2);
        let skip = LinkWalk {
            skip_page_errors: true,
            ..spec(3)
        };
        let trace = Collect::default();
        let pages = walk(&io, &trace, first(), &skip, DEFAULT_TIMEOUT)
            .await
            .expect("the pages read");
        assert_eq!(pages, json!([1, 2]));
        assert_eq!(io.http_log().len(), 4);
        assert_eq!(
            trace.warnings(),
            [
                "page 3 links back to http://127.0.0.1:8099/api/v2/jobs/1/job_events/?page=1, already fetched as page 1; `on_page_error: skip` keeps the 2 items read"
            ]
        );
    }

    #[tokio::test]
    async fn the_whole_walk_has_a_deadline_beyond_each_page_timeout() {
        let io = FakeIo::new().with_http(|request| {
            if request.url.ends_with("page=1") {
                Reply::json(json!({"next": "?page=2", "results": [1, 2]}))
            } else {
                Reply::Hang
            }
        });
        let short = LinkWalk {
            deadline: Duration::from_secs(5),
            ..spec(0)
        };
        let error = walk(&io, &Silent, first(), &short, DEFAULT_TIMEOUT)
            .await
            .expect_err("deadline");
        assert_eq!(
            error.to_string(),
            "the whole page walk may take at most 5s; it ran out after 1 page(s) and 2 items"
        );
        let error = walk(&io, &Silent, first(), &spec(0), DEFAULT_TIMEOUT)
            .await
            .expect_err("page timeout");
        assert_eq!(error.to_string(), "timed out after 10s");
    }

    /// Records the progress reports of a walk.
    #[derive(Default)]
    struct Reports(std::sync::Mutex<Vec<Progress>>);

    impl Trace for Reports {
        fn note(&self, _line: &str) {}

        fn progress(&self, progress: Progress) {
            self.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(progress);
        }
    }

    #[tokio::test]
    async fn each_page_reports_the_pages_walked_and_the_items_read() {
        let io = events_server();
        let reports = Reports::default();
        walk(&io, &reports, first(), &spec(0), DEFAULT_TIMEOUT)
            .await
            .expect("walks");
        let reports = reports
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        assert_eq!(
            reports,
            [
                Progress::Pages { pages: 1, items: 2 },
                Progress::Pages { pages: 2, items: 4 },
                Progress::Pages { pages: 3, items: 6 },
            ]
        );
    }
}
