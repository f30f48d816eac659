//! A service on a manual clock, one corner's router on a manual clock, and helpers to read their
//! answers.
#![allow(dead_code, clippy::unwrap_used, missing_docs)]

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use demo_backend::clock::{Clock, ManualClock, Millis};
use demo_backend::{Client, CornerContext, Options};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// 2027-01-15T08:00:00.000Z.
pub const T0: Millis = 1_800_000_000_000;

pub struct Demo {
    pub clock: ManualClock,
    pub client: Client,
}

impl Demo {
    /// 200 apps, seed 42, the scheduled work far away (a day) so that only commands change the world.
    pub fn quiet() -> Demo {
        Demo::with(Options {
            apps: 200,
            schedule: Duration::from_secs(86_400),
            ..Options::default()
        })
    }

    /// A service built from `options` with seed 42 (unless set) on a manual clock at [`T0`].
    pub fn with(options: Options) -> Demo {
        let clock = ManualClock::new(T0);
        let shared: Arc<dyn Clock> = Arc::new(clock.clone());
        let seed = if options.seed == 0 { 42 } else { options.seed };
        let client = Client::in_process(Options {
            seed,
            now: Some(shared),
            ..options
        });
        Demo { clock, client }
    }

    pub fn advance(&self, millis: u64) {
        self.clock.advance(Duration::from_millis(millis));
    }

    /// GET, expecting `status`, returning the JSON body.
    pub async fn get(&self, path: &str, status: u16) -> Value {
        let response = self.client.get(path).await.unwrap();
        json(response, status, path).await
    }

    /// POST, expecting `status`, returning the JSON body.
    pub async fn post(&self, path: &str, status: u16) -> Value {
        let response = self.client.post(path).await.unwrap();
        json(response, status, path).await
    }

    /// POST a JSON body, expecting 200, returning the JSON body.
    pub async fn post_json(&self, path: &str, body: Value) -> Value {
        let request = http::Request::builder()
            .method("POST")
            .uri(path)
            .header("content-type", "application/json")
            .body(bytes::Bytes::from(body.to_string()))
            .unwrap();
        let response = self.client.send(request).await.unwrap();
        json(response, 200, path).await
    }

    /// GET, expecting a 4xx/5xx `status` with a JSON error body; returns the message.
    pub async fn error(&self, method: &str, path: &str, status: u16) -> String {
        let request = http::Request::builder()
            .method(method)
            .uri(path)
            .body(bytes::Bytes::new())
            .unwrap();
        let response = self.client.send(request).await.unwrap();
        let body = json(response, status, path).await;
        let object = body.as_object().unwrap();
        assert_eq!(object.len(), 1, "{body}");
        object["error"].as_str().unwrap().to_owned()
    }
}

/// GET `path` through `client`, whatever the status; returns the body as text.
pub async fn text(client: &Client, path: &str) -> String {
    client
        .get(path)
        .await
        .unwrap()
        .into_body()
        .text()
        .await
        .unwrap()
}

pub async fn json(
    response: http::Response<demo_backend::ClientBody>,
    status: u16,
    what: &str,
) -> Value {
    let actual = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned());
    let text = response.into_body().text().await.unwrap();
    assert_eq!(actual, status, "{what}: {text}");
    assert_eq!(content_type.as_deref(), Some("application/json"), "{what}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: {e}: {text}"))
}

/// Lets spawned tasks run until they wait on something (the clock, a lock, a channel).
pub async fn settle() {
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
}

/// When a corner fixture's service is built.
pub const BUILT_AT: Millis = 1_790_000_000_000;

/// One corner's router (automation, search) built on a manual clock at [`BUILT_AT`], called
/// in-process.
pub struct Corner {
    pub clock: ManualClock,
    router: Router,
}

impl Corner {
    /// The corner `router` makes, with `seed`.
    pub fn build(router: fn(CornerContext) -> Router, seed: u64) -> Corner {
        let clock = ManualClock::new(BUILT_AT);
        let router = router(CornerContext {
            clock: Arc::new(clock.clone()),
            seed,
            built_at: BUILT_AT,
        });
        Corner { clock, router }
    }

    /// The whole service built from `seed`, which serves every corner.
    pub fn whole(seed: u64) -> Corner {
        let clock = ManualClock::new(BUILT_AT);
        let (router, _) = demo_backend::app(Options::seeded(seed, Arc::new(clock.clone())));
        Corner { clock, router }
    }

    /// Sends `request`; the status and the JSON body.
    pub async fn call(&self, request: Request<Body>) -> (StatusCode, Value) {
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("the router answers");
        let status = response.status();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        (status, serde_json::from_slice(&body).expect("a JSON body"))
    }
}
