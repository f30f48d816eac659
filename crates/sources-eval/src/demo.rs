//! `--demo`: requests to `http://127.0.0.1:8099` and `http://localhost:8099` are served by the
//! demo backend — in-process (no socket) by default, or over the network to the base URL in
//! `SOURCES_DEMO_API` when it is set. Everything else goes to the wrapped seam.
//!
//! The in-process world is the playground ([`Options::playground`]): seed 2026 unless
//! `SOURCES_DEMO_SEED` says otherwise, a clock opening at a fixed instant, and a world that has
//! already lived for two minutes, so the same command prints the same rows on every machine.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use demo_backend::clock::ManualClock;
use demo_backend::options::{DEFAULT_SEED, PLAYGROUND_START, SEED_ENV, parse_seed};
use demo_backend::{Client, ClientError, DEMO_API_ENV, Options};
use futures::StreamExt;

use crate::io::{
    BoxFuture, CommandOutput, CommandSpec, FrameStream, HttpRequest, HttpResponse, Io, IoError,
    LineStream, WebSocketRequest,
};
use crate::params::Example;

/// The demo backend's default port.
pub const DEMO_PORT: u16 = 8099;

/// Set (to anything but `0`), the in-process world's clock stands still at its opening instant,
/// so even entries whose data moves every second print the same on every run.
pub const FROZEN_ENV: &str = "SOURCES_DEMO_FROZEN";

/// A seam that serves the demo address from the demo backend.
pub struct DemoIo {
    inner: Arc<dyn Io>,
    client: Client,
}

impl DemoIo {
    /// Wraps `inner`; reads `SOURCES_DEMO_API` through it to choose in-process or network, and
    /// `SOURCES_DEMO_SEED` for the in-process world's seed (a bad seed is an error naming it).
    pub fn new(inner: Arc<dyn Io>) -> Result<DemoIo, IoError> {
        let setting = inner.env_var(DEMO_API_ENV);
        let seed = match inner.env_var(SEED_ENV) {
            Some(text) if !text.trim().is_empty() => parse_seed(&text)
                .map_err(|error| IoError::Transport(format!("{SEED_ENV}: {error}")))?,
            _ => DEFAULT_SEED,
        };
        let mut options = Options::playground(seed);
        if inner
            .env_var(FROZEN_ENV)
            .is_some_and(|value| !value.trim().is_empty() && value.trim() != "0")
        {
            options.now = Some(Arc::new(ManualClock::new(PLAYGROUND_START)));
        }
        let client = Client::from_setting(setting.as_deref(), options)
            .map_err(|error| IoError::Transport(error.to_string()))?;
        Ok(DemoIo { inner, client })
    }

    /// Wraps `inner` around an already built client (tests pin the world's seed and clock).
    pub fn with_client(inner: Arc<dyn Io>, client: Client) -> DemoIo {
        DemoIo { inner, client }
    }

    /// One line saying which demo backend answers, for stderr.
    pub fn describe(&self) -> String {
        match self.client.base_url() {
            Some(base) => format!(
                "demo: requests to http://127.0.0.1:{DEMO_PORT} go to the live demo backend at {base} ({DEMO_API_ENV})"
            ),
            None => format!(
                "demo: requests to http://127.0.0.1:{DEMO_PORT} are served by the in-process demo backend (set {DEMO_API_ENV} to use a running one)"
            ),
        }
    }

    /// The path and query of `url` when it is the demo address.
    pub fn demo_path(url: &str) -> Option<String> {
        let parsed = url::Url::parse(url).ok()?;
        let host = parsed.host_str()?;
        let is_demo = parsed.scheme() == "http"
            && matches!(host, "127.0.0.1" | "localhost")
            && parsed.port() == Some(DEMO_PORT);
        if !is_demo {
            return None;
        }
        let mut path = parsed.path().to_owned();
        if let Some(query) = parsed.query() {
            path.push('?');
            path.push_str(query);
        }
        Some(path)
    }
}

impl DemoIo {
    /// Whether `url` is a websocket URL at the demo address: the demo backend serves none, so
    /// under `--demo` such an entry is refused with that reason instead of a refused connection.
    pub fn is_demo_websocket(url: &str) -> bool {
        let Ok(parsed) = url::Url::parse(url) else {
            return false;
        };
        matches!(parsed.scheme(), "ws" | "wss")
            && matches!(parsed.host_str(), Some("127.0.0.1" | "localhost"))
            && parsed.port() == Some(DEMO_PORT)
    }
}

impl DemoIo {
    /// A value for `${params.NAME}` in `url` that the demo world answers: the id of a row of the
    /// collection the URL names before the parameter (`…/jobs/${params.job}/log` → a row of
    /// `/jobs`), preferring a running one. `None` when the URL is not the demo's, or the
    /// collection has no rows with an `id`.
    pub async fn example(&self, url: &str, name: &str) -> Option<Example> {
        let at = url.find(&format!("${{params.{name}}}"))?;
        let collection = url[..at].trim_end_matches('/');
        let path = DemoIo::demo_path(collection)?;
        let noun = path.rsplit('/').next().unwrap_or_default();
        let noun = noun.strip_suffix('s').unwrap_or(noun).to_owned();
        let mut body = None;
        for url in [collection.to_owned(), format!("{collection}/")] {
            let request = HttpRequest {
                method: "GET".to_owned(),
                url,
                headers: vec![("Accept".to_owned(), "application/json".to_owned())],
                body: None,
            };
            let fetched = crate::fetch::http_body(
                self,
                &crate::trace::Silent,
                request,
                crate::fetch::DEFAULT_TIMEOUT,
            );
            if let Ok(fetched) = fetched.await {
                body = Some(fetched);
                break;
            }
        }
        let body = body?;
        let value: serde_json::Value = serde_json::from_slice(&body).ok()?;
        let rows = ["", "rows", "results", "items", "data"]
            .iter()
            .find_map(|key| {
                let rows = if key.is_empty() {
                    &value
                } else {
                    value.get(key)?
                };
                rows.as_array()
            })?;
        let with_id = |row: &&serde_json::Value| row.get("id").is_some();
        let row = rows
            .iter()
            .filter(with_id)
            .find(|row| {
                row.get("status")
                    .and_then(|status| status.as_str())
                    .is_some_and(|status| status.eq_ignore_ascii_case("running"))
            })
            .or_else(|| rows.iter().find(with_id))?;
        let value = match row.get("id")? {
            serde_json::Value::String(id) => id.clone(),
            other => other.to_string(),
        };
        let text = |key: &str| row.get(key).and_then(|field| field.as_str());
        let what = match (text("status"), text("name")) {
            (Some(status), _) => Some(format!("a {} {noun}", status.to_lowercase())),
            (None, Some(name)) if name != value => Some(format!("{noun} `{name}`")),
            _ => None,
        };
        Some(Example { value, what })
    }
}

fn client_error(error: ClientError) -> IoError {
    match error {
        ClientError::Connect { address, source } => IoError::Connect {
            address,
            detail: source.to_string(),
        },
        other => IoError::Transport(other.to_string()),
    }
}

impl Io for DemoIo {
    fn http(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, IoError>> {
        let Some(path) = DemoIo::demo_path(&request.url) else {
            return self.inner.http(request);
        };
        Box::pin(async move {
            let mut builder = http::Request::builder()
                .method(request.method.as_str())
                .uri(path.as_str());
            for (name, value) in &request.headers {
                builder = builder.header(name.as_str(), value.as_str());
            }
            let outgoing = builder
                .body(Bytes::from(request.body.unwrap_or_default()))
                .map_err(|error| IoError::Url {
                    url: request.url.clone(),
                    detail: error.to_string(),
                })?;
            let response = self.client.send(outgoing).await.map_err(client_error)?;
            let status = response.status().as_u16();
            let body = response
                .into_body()
                .into_stream()
                .map(|chunk| chunk.map_err(client_error))
                .boxed();
            Ok(HttpResponse {
                status,
                body,
                redirects: Vec::new(),
            })
        })
    }

    fn run(&self, command: CommandSpec) -> BoxFuture<'_, Result<CommandOutput, IoError>> {
        self.inner.run(command)
    }

    fn follow(&self, command: CommandSpec) -> BoxFuture<'_, Result<LineStream, IoError>> {
        self.inner.follow(command)
    }

    fn read_file(&self, path: String) -> BoxFuture<'_, Result<Vec<u8>, IoError>> {
        self.inner.read_file(path)
    }

    fn websocket(&self, request: WebSocketRequest) -> BoxFuture<'_, Result<FrameStream, IoError>> {
        if DemoIo::is_demo_websocket(&request.url) {
            let refused = IoError::WebSocket(format!(
                "the demo backend serves no websocket: `{}` is its address, whose one stream is \
                 a job's log over http (`http://127.0.0.1:{DEMO_PORT}/jobs/ID/log` in an `http` \
                 entry with `follow: true`); point this entry at a websocket server to try it",
                request.url
            ));
            return Box::pin(async move { Err(refused) });
        }
        self.inner.websocket(request)
    }

    fn env_var(&self, name: &str) -> Option<String> {
        self.inner.env_var(name)
    }

    fn now(&self) -> Duration {
        self.inner.now()
    }

    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        self.inner.sleep(duration)
    }

    fn max_body(&self) -> usize {
        self.inner.max_body()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{FakeIo, Reply};
    use demo_backend::clock::ManualClock;

    fn demo(inner: FakeIo) -> DemoIo {
        let clock = Arc::new(ManualClock::new(1_700_000_000_000));
        let client = Client::in_process(Options {
            apps: 50,
            ..Options::seeded(7, clock)
        });
        DemoIo::with_client(Arc::new(inner), client)
    }

    #[test]
    fn only_the_demo_address_is_intercepted() {
        assert_eq!(
            DemoIo::demo_path("http://127.0.0.1:8099/apps?limit=2").as_deref(),
            Some("/apps?limit=2")
        );
        assert_eq!(
            DemoIo::demo_path("http://localhost:8099/logs-app/_search").as_deref(),
            Some("/logs-app/_search")
        );
        assert_eq!(DemoIo::demo_path("http://127.0.0.1:8098/apps"), None);
        assert_eq!(DemoIo::demo_path("https://localhost:8099/apps"), None);
        assert_eq!(DemoIo::demo_path("http://example.test:8099/apps"), None);
    }

    #[tokio::test]
    async fn a_websocket_at_the_demo_address_is_refused_with_the_reason() {
        let io = demo(FakeIo::new().with_websocket(|_| Ok(vec!["elsewhere".into()])));
        let request = |url: &str| WebSocketRequest {
            url: url.into(),
            headers: vec![],
            initial_messages: vec![],
        };
        for url in ["ws://127.0.0.1:8099/ws", "wss://localhost:8099/"] {
            let Err(error) = io.websocket(request(url)).await else {
                panic!("{url}: the demo address must be refused");
            };
            let message = error.to_string();
            assert!(
                message.contains("the demo backend serves no websocket")
                    && message.contains(url)
                    && message.contains("/jobs/ID/log"),
                "{message}"
            );
        }
        let frames: Vec<_> = io
            .websocket(request("ws://127.0.0.1:8098/ws"))
            .await
            .expect("another address passes through")
            .collect()
            .await;
        assert_eq!(frames, [Ok("elsewhere".to_owned())]);
    }

    #[tokio::test]
    async fn demo_requests_are_served_in_process_and_others_pass_through() {
        let io = demo(FakeIo::new().with_http(|_| Reply::json(serde_json::json!({"other": true}))));
        let body = crate::fetch::http_body(
            &io,
            &crate::trace::Silent,
            HttpRequest {
                method: "GET".into(),
                url: "http://127.0.0.1:8099/apps?limit=2".into(),
                headers: vec![],
                body: None,
            },
            crate::fetch::DEFAULT_TIMEOUT,
        )
        .await
        .expect("served");
        let page: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(page["total"], 50);
        assert_eq!(page["rows"].as_array().map(Vec::len), Some(2));
        let body = crate::fetch::http_body(
            &io,
            &crate::trace::Silent,
            HttpRequest {
                method: "GET".into(),
                url: "http://example.test/x".into(),
                headers: vec![],
                body: None,
            },
            crate::fetch::DEFAULT_TIMEOUT,
        )
        .await
        .expect("passed through");
        assert_eq!(body, br#"{"other":true}"#);
        assert!(io.describe().contains("in-process"));
    }

    #[tokio::test]
    async fn the_playground_is_seeded_by_default_and_by_the_variable() {
        let rows = |io: &DemoIo| {
            let client = io.client.clone();
            async move {
                let response = client.get("/apps?limit=1").await.expect("served");
                response.into_body().text().await.expect("body")
            }
        };
        let default = DemoIo::new(Arc::new(FakeIo::new())).expect("in-process");
        assert!(
            rows(&default)
                .await
                .contains(r#""name":"checkout-scheduler-staging""#),
            "seed 2026"
        );
        assert_eq!(
            default
                .client
                .handle()
                .map(demo_backend::Handle::examples)
                .and_then(|examples| examples.running_job)
                .as_deref(),
            Some("job-000033")
        );
        let seeded = DemoIo::new(Arc::new(FakeIo::new().with_env(SEED_ENV, "7"))).expect("seed 7");
        assert!(!rows(&seeded).await.contains("checkout-scheduler-staging"));
        let error = DemoIo::new(Arc::new(FakeIo::new().with_env(SEED_ENV, "seven")))
            .err()
            .expect("a bad seed");
        assert_eq!(
            error.to_string(),
            "SOURCES_DEMO_SEED: invalid demo seed \"seven\": expected a whole number such as 2026, \
             or 0 or `random` for a seed taken from the clock"
        );
    }

    #[tokio::test]
    async fn with_the_variable_set_requests_go_to_the_live_backend() {
        let clock = Arc::new(ManualClock::new(1_700_000_000_000));
        let (router, _handle) = demo_backend::app(Options {
            apps: 12,
            ..Options::seeded(5, clock)
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        tokio::spawn(async move { axum::serve(listener, router).await });
        let inner = FakeIo::new()
            .with_env(DEMO_API_ENV, &base)
            .with_real_sleep();
        let io = DemoIo::new(Arc::new(inner)).expect("network client");
        assert!(
            io.describe()
                .contains(&format!("live demo backend at {base}"))
        );
        let body = crate::fetch::http_body(
            &io,
            &crate::trace::Silent,
            HttpRequest {
                method: "GET".into(),
                url: "http://localhost:8099/apps?limit=1".into(),
                headers: vec![],
                body: None,
            },
            crate::fetch::DEFAULT_TIMEOUT,
        )
        .await
        .expect("served live");
        let page: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(
            page["total"], 12,
            "the live world, not a default in-process one"
        );
    }

    #[tokio::test]
    async fn an_example_parameter_comes_from_the_collection_the_url_names() {
        let io = demo(FakeIo::new());
        let listed = crate::fetch::http_body(
            &io,
            &crate::trace::Silent,
            HttpRequest {
                method: "GET".into(),
                url: "http://127.0.0.1:8099/apps".into(),
                headers: vec![],
                body: None,
            },
            crate::fetch::DEFAULT_TIMEOUT,
        )
        .await
        .expect("listed");
        let listed: serde_json::Value = serde_json::from_slice(&listed).expect("json");
        let first = &listed["rows"][0];
        let example = io
            .example("http://127.0.0.1:8099/apps/${params.id}", "id")
            .await
            .expect("an example");
        assert_eq!(Some(example.value.as_str()), first["id"].as_str());
        let detail = crate::fetch::http_body(
            &io,
            &crate::trace::Silent,
            HttpRequest {
                method: "GET".into(),
                url: format!("http://127.0.0.1:8099/apps/{}", example.value),
                headers: vec![],
                body: None,
            },
            crate::fetch::DEFAULT_TIMEOUT,
        )
        .await;
        assert!(detail.is_ok(), "the example answers: {detail:?}");
        assert_eq!(
            io.example("http://example.test/apps/${params.id}", "id")
                .await,
            None
        );
        assert_eq!(
            io.example("http://127.0.0.1:8099/nothing/${params.id}", "id")
                .await,
            None
        );
    }
}
