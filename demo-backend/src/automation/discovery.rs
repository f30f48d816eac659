//! What a real automation client (the `awx` command line) asks before it asks for jobs: the
//! `/api/` and `/api/v2/` root listings, `OPTIONS` on a list with its allowed methods and filter
//! fields, and a redirect from a path without its trailing slash to the slash form.

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

/// The methods every route of the corner allows.
const ALLOWED: &str = "GET, HEAD, OPTIONS";

/// The discovery routes: root listings, `OPTIONS` and trailing-slash redirects.
pub fn router() -> Router {
    Router::new()
        .route("/api/", get(api_root).options(allow_only))
        .route("/api", get(to_slash))
        .route("/api/v2/", get(v2_root).options(allow_only))
        .route("/api/v2", get(to_slash))
        .route("/api/v2/jobs", get(to_slash))
        .route("/api/v2/jobs/{id}", get(to_slash))
        .route("/api/v2/jobs/{id}/job_events", get(to_slash))
}

async fn api_root() -> Response {
    json_with_allow(json!({
        "description": "AWX REST API (a demo fixture: only jobs and their events are modelled)",
        "current_version": "/api/v2/",
        "available_versions": { "v2": "/api/v2/" },
        "oauth2": "/api/o/",
        "custom_logo": "",
        "custom_login_info": "",
    }))
}

async fn v2_root() -> Response {
    json_with_allow(json!({ "jobs": "/api/v2/jobs/" }))
}

/// `OPTIONS` on a route with nothing to describe: its allowed methods.
pub(super) async fn allow_only() -> Response {
    json_with_allow(json!({ "renders": ["application/json"], "parses": [] }))
}

fn field(kind: &str, label: &str) -> serde_json::Value {
    json!({ "type": kind, "label": label, "filterable": true })
}

/// `OPTIONS /api/v2/jobs/`: allowed methods and the fields of a job.
pub(super) async fn job_list_options() -> Response {
    json_with_allow(json!({
        "name": "Job List",
        "renders": ["application/json"],
        "parses": [],
        "actions": { "GET": {
            "id": field("integer", "ID"),
            "type": field("choice", "Type"),
            "url": field("string", "Url"),
            "related": field("object", "Related"),
            "name": field("string", "Name"),
            "status": field("choice", "Status"),
            "started": field("datetime", "Started"),
            "finished": field("datetime", "Finished"),
            "event_processing_finished": field("boolean", "Event processing finished"),
        } },
    }))
}

/// `OPTIONS /api/v2/jobs/{id}/job_events/`: allowed methods and the fields of an event.
pub(super) async fn events_options() -> Response {
    json_with_allow(json!({
        "name": "Job Event List",
        "renders": ["application/json"],
        "parses": [],
        "actions": { "GET": {
            "id": field("integer", "ID"),
            "counter": field("integer", "Counter"),
            "event": field("choice", "Event"),
            "stdout": field("string", "Stdout"),
            "failed": field("boolean", "Failed"),
            "changed": field("boolean", "Changed"),
            "host_name": field("string", "Host name"),
            "task": field("string", "Task"),
        } },
    }))
}

fn json_with_allow(value: serde_json::Value) -> Response {
    let mut response = axum::Json(value).into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(ALLOWED));
    response
}

/// A path without its trailing slash: `301` to the slash form, the query kept, as a real AWX does.
async fn to_slash(request: Request) -> Response {
    let uri = request.uri();
    let location = match uri.query() {
        Some(query) => format!("{}/?{query}", uri.path()),
        None => format!("{}/", uri.path()),
    };
    let mut response = crate::error::ApiError::new(
        StatusCode::MOVED_PERMANENTLY,
        format!("moved to {location} (the trailing-slash form)"),
    )
    .into_response();
    if let Ok(value) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}
