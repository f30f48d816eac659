//! The applications-and-jobs routes.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::json;

use crate::CornerContext;
use crate::error::ApiError;
use crate::joblog::{LogPlan, parse_rate};
use crate::listing::{ListIndex, ListQuery, facets, parse_flag};
use crate::params::Params;
use crate::world::{Command, CommandError, World};

/// How long `GET /apps/{id}?refresh=normal` holds the connection when `takes` is omitted.
pub const DEFAULT_TAKES: Duration = Duration::from_secs(2);

/// The world shared by every request: locked only for the synchronous part of a request, never
/// across an await.
#[derive(Clone, Debug)]
pub struct SharedWorld {
    ctx: CornerContext,
    world: Arc<Mutex<World>>,
    pages: Arc<Mutex<PageCache>>,
    index: Arc<Mutex<ListIndex>>,
}

/// Answers of `GET /apps` by request target, each kept while the world has not changed since it
/// was computed: a dashboard polling the same query gets the bytes again instead of a scan and a
/// sort of every application.
#[derive(Debug, Default)]
struct PageCache {
    entries: std::collections::HashMap<String, (u64, bytes::Bytes)>,
}

/// At most this many answers are kept; a full cache is emptied.
const PAGE_CACHE_ENTRIES: usize = 256;

impl PageCache {
    fn get(&self, target: &str, changes: u64) -> Option<bytes::Bytes> {
        match self.entries.get(target) {
            Some((at, bytes)) if *at == changes => Some(bytes.clone()),
            _ => None,
        }
    }

    fn put(&mut self, target: String, changes: u64, bytes: bytes::Bytes) {
        if self.entries.len() >= PAGE_CACHE_ENTRIES {
            self.entries.clear();
        }
        self.entries.insert(target, (changes, bytes));
    }
}

impl SharedWorld {
    /// Shares `world`, advanced on `ctx.clock`.
    pub fn new(ctx: CornerContext, world: World) -> SharedWorld {
        SharedWorld {
            ctx,
            world: Arc::new(Mutex::new(world)),
            pages: Arc::default(),
            index: Arc::default(),
        }
    }

    /// Advances the world to the clock's time and runs `f` on it.
    pub fn with<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        let now = self.ctx.clock.now();
        let mut world = self.world.lock().unwrap_or_else(PoisonError::into_inner);
        world.advance_to(now);
        f(&mut world)
    }

    /// The context the world was built in.
    pub fn context(&self) -> &CornerContext {
        &self.ctx
    }
}

/// The routes of the applications-and-jobs world.
pub fn router(world: SharedWorld) -> Router {
    Router::new()
        .route("/apps", get(list_apps))
        .route("/apps/facets", get(app_facets))
        .route("/apps/{id}", get(app_detail))
        .route("/apps/{id}/sync", post(sync_app))
        .route("/apps/{id}/refresh", post(refresh_app))
        .route("/jobs", get(list_jobs))
        .route("/jobs/{id}", get(job_detail))
        .route("/jobs/{id}/log", get(job_log))
        .with_state(world)
}

fn app_not_found(id: &str) -> ApiError {
    ApiError::not_found(format!("application {id:?} not found"))
}

fn job_not_found(id: &str) -> ApiError {
    ApiError::not_found(format!("job {id:?} not found"))
}

fn app_index(world: &World, id: &str) -> Result<usize, ApiError> {
    world
        .app(id)
        .map(|app| app.index)
        .ok_or_else(|| app_not_found(id))
}

fn json_response(status: StatusCode, value: &impl serde::Serialize) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => {
            let mut response = (status, body).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
        Err(error) => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response()
        }
    }
}

async fn list_apps(
    State(shared): State<SharedWorld>,
    uri: axum::http::Uri,
    params: Params,
) -> Result<Response, ApiError> {
    let query = ListQuery::parse(&params)?;
    let target = uri.path_and_query().map_or("", |target| target.as_str());
    let body = shared.with(|world| {
        let changes = world.changes();
        let mut pages = shared.pages.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(bytes) = pages.get(target, changes) {
            return Ok(bytes);
        }
        let mut index = shared.index.lock().unwrap_or_else(PoisonError::into_inner);
        let bytes = bytes::Bytes::from(query.run_indexed(world.apps(), changes, &mut index)?);
        pages.put(target.to_owned(), changes, bytes.clone());
        Ok::<_, serde_json::Error>(bytes)
    });
    let mut response = match body {
        Ok(bytes) => {
            let mut response = (StatusCode::OK, bytes).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
        Err(error) => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response()
        }
    };
    if let Some(warning) = query.clamp_warning()
        && let Ok(value) = HeaderValue::from_str(&warning)
    {
        response.headers_mut().insert(header::WARNING, value);
    }
    Ok(response)
}

async fn app_facets(
    State(world): State<SharedWorld>,
    params: Params,
) -> Result<Response, ApiError> {
    world
        .with(|world| facets(&params, world.apps()))
        .map(|facets| json_response(StatusCode::OK, &facets))
}

async fn app_detail(
    State(world): State<SharedWorld>,
    Path(id): Path<String>,
    params: Params,
) -> Result<Response, ApiError> {
    let takes = match params.get("takes") {
        Some(text) => crate::controls::parse_wait("takes", text)?,
        None => DEFAULT_TAKES,
    };
    let hold = match params.get("refresh") {
        None => false,
        Some("normal") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "parameter refresh: expected \"normal\", got {other:?}"
            )));
        }
    };
    let seed = world.context().seed;
    if !hold {
        return world.with(|world| {
            let index = app_index(world, &id)?;
            Ok(json_response(
                StatusCode::OK,
                &world.apps()[index].detail(seed),
            ))
        });
    }
    world.with(|world| app_index(world, &id))?;
    let clock = world.context().clock.clone();
    let until = clock
        .now()
        .saturating_add(takes.as_millis().min(i64::MAX as u128) as i64);
    clock.sleep_until(until).await;
    world.with(|world| {
        let index = app_index(world, &id)?;
        world.reconcile(index);
        Ok(json_response(
            StatusCode::OK,
            &world.apps()[index].detail(seed),
        ))
    })
}

fn accepted(job: String) -> Response {
    let mut response = json_response(StatusCode::ACCEPTED, &json!({ "job": job }));
    if let Ok(location) = HeaderValue::from_str(&format!("/jobs/{job}")) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response
}

fn run_command(world: &SharedWorld, id: &str, command: Command) -> Result<Response, ApiError> {
    world.with(|world| {
        let index = app_index(world, id)?;
        world
            .command(index, command)
            .map(|number| accepted(crate::world::job_id(number)))
            .map_err(|error| match error {
                CommandError::Busy(busy) => ApiError::new(StatusCode::CONFLICT, busy.to_string()),
                CommandError::NoSuchApp(_) => app_not_found(id),
            })
    })
}

async fn sync_app(
    State(world): State<SharedWorld>,
    Path(id): Path<String>,
    params: Params,
) -> Result<Response, ApiError> {
    let quick = params
        .get("quick")
        .map(|v| parse_flag("quick", v))
        .transpose()?
        .unwrap_or(false);
    let failing = params
        .get("failing")
        .map(|v| parse_flag("failing", v))
        .transpose()?
        .unwrap_or(false);
    let command = match (quick, failing) {
        (true, true) => {
            return Err(ApiError::bad_request(
                "parameters quick and failing exclude each other; send at most one",
            ));
        }
        (true, false) => Command::QuickSync,
        (false, true) => Command::FailingSync,
        (false, false) => Command::Sync,
    };
    run_command(&world, &id, command)
}

async fn refresh_app(
    State(world): State<SharedWorld>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    run_command(&world, &id, Command::Refresh)
}

async fn list_jobs(State(world): State<SharedWorld>, params: Params) -> Result<Response, ApiError> {
    world.with(|world| {
        let app = params
            .get("app")
            .map(|id| app_index(world, id))
            .transpose()?;
        let rows: Vec<_> = world
            .jobs()
            .filter(|job| app.is_none_or(|app| job.app == app))
            .map(|job| job.row(world.apps()))
            .collect();
        Ok(json_response(StatusCode::OK, &rows))
    })
}

async fn job_detail(
    State(world): State<SharedWorld>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    world.with(|world| {
        let job = world.job(&id).ok_or_else(|| job_not_found(&id))?;
        Ok(json_response(StatusCode::OK, &job.row(world.apps())))
    })
}

async fn job_log(
    State(world): State<SharedWorld>,
    Path(id): Path<String>,
    params: Params,
) -> Result<Response, ApiError> {
    let rate = parse_rate(&params)?;
    let plan = world.with(|world| {
        let job = world.job(&id).ok_or_else(|| job_not_found(&id))?;
        let app = world.apps().get(job.app).map_or("", |app| app.id.as_str());
        Ok::<_, ApiError>(LogPlan::new(job, app, rate))
    })?;
    let body = Body::from_stream(plan.stream(world.context().clock.clone()));
    let mut response = (StatusCode::OK, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    Ok(response)
}
