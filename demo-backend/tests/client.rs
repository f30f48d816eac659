//! The client: in-process or over the network, chosen by `SOURCES_DEMO_API`.
#![allow(clippy::unwrap_used, missing_docs)]

mod common;

use std::sync::Arc;
use std::time::Duration;

use demo_backend::clock::ManualClock;
use demo_backend::{Client, ClientError, Options};

fn options() -> Options {
    Options {
        seed: 3,
        apps: 30,
        now: Some(Arc::new(ManualClock::new(common::T0))),
        ..Options::default()
    }
}

/// Serves `options` on a free loopback port; returns the base URL.
async fn serve(options: Options) -> String {
    let (router, _) = demo_backend::app(options);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{address}")
}

#[tokio::test]
async fn unset_builds_the_service_in_process_from_the_options() {
    for setting in [None, Some(""), Some("  ")] {
        let client = Client::from_setting(setting, options()).unwrap();
        assert!(!client.is_live());
        assert_eq!(client.base_url(), None);
        assert_eq!(
            client.handle().unwrap().context().seed,
            3,
            "built from the options"
        );
        let page = common::text(&client, "/apps?limit=1").await;
        assert!(page.starts_with("{\"total\":30,"), "{page}");
    }
    let absolute = Client::in_process(options())
        .get("http://demo.invalid/apps?limit=0")
        .await
        .unwrap();
    assert_eq!(
        absolute.into_body().text().await.unwrap(),
        "{\"total\":30,\"offset\":0,\"rows\":[]}"
    );
}

#[tokio::test]
async fn set_talks_to_that_server_and_ignores_the_options() {
    let base = serve(Options {
        seed: 5,
        apps: 12,
        ..options()
    })
    .await;
    let client = Client::from_setting(Some(&base), options()).unwrap();
    assert!(client.is_live());
    assert_eq!(client.base_url(), Some(base.as_str()));
    assert!(client.handle().is_none());
    let page = common::text(&client, "/apps?limit=0").await;
    assert_eq!(
        page, "{\"total\":12,\"offset\":0,\"rows\":[]}",
        "the server's world, not the options'"
    );
    let created = client.post("/apps/app-0001/refresh").await.unwrap();
    assert_eq!(created.status(), 202);
    let missing = client.get("/apps/app-0099").await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(
        missing.into_body().text().await.unwrap(),
        "{\"error\":\"application \\\"app-0099\\\" not found\"}"
    );
}

#[tokio::test]
async fn a_base_url_prefix_is_kept_and_a_trailing_slash_ignored() {
    let base = serve(options()).await;
    let client = Client::network(&format!("{base}/")).unwrap();
    assert_eq!(client.get("/apps?limit=0").await.unwrap().status(), 200);
    let prefixed = Client::network(&format!("{base}/prefix")).unwrap();
    let response = prefixed.get("/apps").await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(
        response.into_body().text().await.unwrap(),
        "{\"error\":\"no route for GET /prefix/apps\"}"
    );
}

#[tokio::test]
async fn the_network_client_streams_the_log_as_it_is_written() {
    let clock = ManualClock::new(common::T0);
    let base = serve(Options {
        now: Some(Arc::new(clock.clone())),
        ..options()
    })
    .await;
    let client = Client::network(&base).unwrap();
    assert_eq!(
        client.post("/apps/app-0002/sync").await.unwrap().status(),
        202
    );
    let mut body = client
        .get("/jobs/job-000001/log")
        .await
        .unwrap()
        .into_body();
    let first = body.next_chunk().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&first).contains("app-0002: comparing live state"));
    clock.advance(Duration::from_secs(4));
    let rest = body.text().await.unwrap();
    assert!(rest.ends_with("app-0002: sync succeeded\n"), "{rest}");
}

#[tokio::test]
async fn bad_base_urls_and_unreachable_servers_are_typed_errors() {
    for (url, reason) in [
        ("not a url", "not a URL"),
        ("https://127.0.0.1:8099", "only http:// is supported"),
        ("127.0.0.1:8099", "only http:// is supported"),
        ("http://127.0.0.1:8099/?x=1", "a base URL has no query"),
    ] {
        match Client::from_setting(Some(url), options()) {
            Err(ClientError::InvalidBaseUrl {
                url: given,
                reason: why,
            }) => {
                assert_eq!((given.as_str(), why.as_str()), (url, reason));
            }
            other => panic!("{url}: {other:?}"),
        }
    }
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let client = Client::network(&format!("http://{closed}")).unwrap();
    match client.get("/apps").await {
        Err(ClientError::Connect { address, .. }) => assert_eq!(address, closed.to_string()),
        other => panic!("{other:?}"),
    }
    match client.get("not a path").await {
        Err(ClientError::InvalidRequest(_)) => {}
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_body_is_also_a_stream_and_an_http_body() {
    use futures::StreamExt;
    use http_body_util::BodyExt;
    let client = Client::in_process(options());
    let chunks: Vec<_> = client
        .get("/apps?limit=2")
        .await
        .unwrap()
        .into_body()
        .into_stream()
        .collect()
        .await;
    assert_eq!(chunks.len(), 1);
    let via_trait = client
        .get("/apps?limit=2")
        .await
        .unwrap()
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes();
    assert_eq!(chunks[0].as_ref().unwrap(), &via_trait);
}
