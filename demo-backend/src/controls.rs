//! Per-request controls (`latency`, `fail`, `flaky`), honoured on every route of the service, and
//! the layer that turns every error without a JSON body (unknown route, wrong method, extractor
//! rejections) into `{"error": "…"}`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::clock::Clock;
use crate::duration::parse_duration;
use crate::error::ApiError;
use crate::params::Params;
use crate::world::mix;

/// The longest `latency` (and held-refresh `takes`) a request may ask for: longer is a 400 naming
/// this maximum, so no request can hold a connection for hours.
pub const MAX_LATENCY: Duration = Duration::from_secs(60);

/// Parses a per-request duration parameter (`latency`, `takes`): a Go-style duration of at most
/// [`MAX_LATENCY`]; anything else is a 400 naming the parameter (and the maximum).
pub fn parse_wait(name: &str, text: &str) -> Result<Duration, ApiError> {
    let wait = parse_duration(text)
        .map_err(|error| ApiError::bad_request(format!("parameter {name}: {error}")))?;
    if wait > MAX_LATENCY {
        return Err(ApiError::bad_request(format!(
            "parameter {name}: {text} is longer than the maximum, {}s",
            MAX_LATENCY.as_secs()
        )));
    }
    Ok(wait)
}

/// The controls one request asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RequestControls {
    /// Delay before answering (added to the service's latency floor).
    pub latency: Duration,
    /// Answer this status with an error body.
    pub fail: Option<StatusCode>,
    /// Fail this fraction of requests with 503.
    pub flaky: Option<f64>,
}

impl RequestControls {
    /// Reads the controls from the query; a malformed one is a 400 naming it and its accepted form.
    pub fn parse(params: &Params) -> Result<RequestControls, ApiError> {
        let latency = match params.get("latency") {
            Some(text) => parse_wait("latency", text)?,
            None => Duration::ZERO,
        };
        let fail = params.get("fail").map(parse_fail).transpose()?;
        let flaky = params
            .get("flaky")
            .map(|text| {
                text.parse::<f64>().ok().filter(|f| (0.0..=1.0).contains(f)).ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "parameter flaky: expected a fraction from 0 to 1 (such as 0.25), got {text:?}"
                    ))
                })
            })
            .transpose()?;
        Ok(RequestControls {
            latency,
            fail,
            flaky,
        })
    }
}

/// The message of a `fail` status that is not an error or a redirect.
const FAIL_ACCEPTED: &str =
    "use an error status (400 to 599) or a redirect (300 to 303, 307, 308; it sends a Location)";

/// Parses `fail`: an error status (4xx, 5xx), or a redirect (300–303, 307, 308), which is answered
/// with a `Location`. Anything else (1xx, 2xx, 304–306, outside 100–599) is a 400 naming the
/// accepted ones: `fail=200` answering 200 with an error body would be a lie.
fn parse_fail(text: &str) -> Result<StatusCode, ApiError> {
    let status = text
        .parse::<u16>()
        .ok()
        .filter(|code| (100..=599).contains(code))
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "parameter fail: expected an HTTP status from 100 to 599, got {text:?}"
            ))
        })?;
    let code = status.as_u16();
    if code < 300 || (304..=306).contains(&code) || (309..400).contains(&code) {
        return Err(ApiError::bad_request(format!(
            "parameter fail: status {status} is not an error; {FAIL_ACCEPTED}"
        )));
    }
    Ok(status)
}

/// The request's own path and query without its `fail` parameters: where a `fail=3xx` redirect
/// points, so following it gets the answer the request would have had.
fn without_fail(uri: &axum::http::Uri) -> String {
    let kept: Vec<&str> = uri
        .query()
        .unwrap_or("")
        .split('&')
        .filter(|pair| !pair.is_empty() && pair.split('=').next() != Some("fail"))
        .collect();
    if kept.is_empty() {
        uri.path().to_owned()
    } else {
        format!("{}?{}", uri.path(), kept.join("&"))
    }
}

/// What the controls layer needs: the clock to wait on, the latency floor, and the seeded counter
/// that decides which `flaky` requests fail.
#[derive(Clone, Debug)]
pub struct ControlState {
    clock: Arc<dyn Clock>,
    floor: Duration,
    seed: u64,
    flaky_draws: Arc<AtomicU64>,
}

impl ControlState {
    /// Controls waiting on `clock`, with `floor` added to every request, drawing from `seed`.
    pub fn new(clock: Arc<dyn Clock>, floor: Duration, seed: u64) -> ControlState {
        ControlState {
            clock,
            floor,
            seed,
            flaky_draws: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The `n`th `flaky` draw is a number in [0, 1) derived from the seed and `n` alone, so a
    /// sequence of requests fails the same way for the same seed.
    fn draw(&self) -> f64 {
        let n = self.flaky_draws.fetch_add(1, Ordering::Relaxed);
        (mix(self.seed ^ mix(n)) >> 11) as f64 / (1_u64 << 53) as f64
    }
}

/// The layer: validates the controls (400 if malformed), waits `floor + latency` on the world
/// clock (only this request waits), then answers `fail`, then fails a `flaky` fraction with 503,
/// and otherwise passes the request on.
pub async fn apply_controls(
    State(state): State<ControlState>,
    request: Request,
    next: Next,
) -> Response {
    let controls =
        match Params::from_uri(request.uri()).and_then(|params| RequestControls::parse(&params)) {
            Ok(controls) => controls,
            Err(error) => return error.into_response(),
        };
    let wait = state.floor.saturating_add(controls.latency);
    if !wait.is_zero() {
        let millis = wait.as_micros().div_ceil(1_000).min(i64::MAX as u128) as i64;
        let until = state.clock.now().saturating_add(millis);
        state.clock.sleep_until(until).await;
    }
    if let Some(status) = controls.fail {
        if status.is_redirection() {
            let location = without_fail(request.uri());
            let mut response = ApiError::new(
                status,
                format!(
                    "redirecting to {location} as asked by fail={}",
                    status.as_u16()
                ),
            )
            .into_response();
            if let Ok(value) = HeaderValue::from_str(&location) {
                response.headers_mut().insert(header::LOCATION, value);
            }
            return response;
        }
        return ApiError::new(
            status,
            format!("failing as asked by fail={}", status.as_u16()),
        )
        .into_response();
    }
    if let Some(fraction) = controls.flaky
        && state.draw() < fraction
    {
        return ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("flaky={fraction}: this request was picked to fail"),
        )
        .into_response();
    }
    next.run(request).await
}

/// The longest request target (path and query) served; longer is `414` with a JSON error.
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// The most header bytes (names and values) served; more is `431` with a JSON error.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// The layer that refuses oversized requests with the same JSON error body as every other error:
/// a request target over [`MAX_URI_BYTES`] (`414`) or headers over [`MAX_HEADER_BYTES`] (`431`).
pub async fn request_limits(request: Request, next: Next) -> Response {
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |target| target.as_str().len());
    if target > MAX_URI_BYTES {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!("the request target is {target} bytes; the limit is {MAX_URI_BYTES}"),
        )
        .into_response();
    }
    let headers: usize = request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    if headers > MAX_HEADER_BYTES {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!("the request headers are {headers} bytes; the limit is {MAX_HEADER_BYTES}"),
        )
        .into_response();
    }
    next.run(request).await
}

/// The largest error body read back when an error is rewritten as JSON.
const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// The layer that gives every 4xx and 5xx answer a JSON `{"error": "…"}` body: errors already in
/// JSON pass untouched; others (axum's empty 404 and 405, text rejections) are rewritten, keeping
/// their status and headers (such as `Allow`).
pub async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let response = next.run(request).await;
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    if response.status().as_u16() < 400 || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, ERROR_BODY_LIMIT)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_owned();
    let message = match parts.status {
        StatusCode::NOT_FOUND if text.is_empty() => format!("no route for {method} {path}"),
        StatusCode::METHOD_NOT_ALLOWED => {
            match parts
                .headers
                .get(header::ALLOW)
                .and_then(|v| v.to_str().ok())
                .filter(|v| !v.is_empty())
            {
                Some(allowed) => {
                    format!("method {method} is not allowed on {path} (allowed: {allowed})")
                }
                None => format!("method {method} is not allowed on {path}"),
            }
        }
        status if text.is_empty() => status.canonical_reason().unwrap_or("error").to_lowercase(),
        _ => text,
    };
    let body = serde_json::json!({ "error": message }).to_string();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}
