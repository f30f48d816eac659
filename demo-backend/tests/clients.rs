//! What real third-party clients ask beyond the spec's core: the Elasticsearch product header,
//! `GET /` and `HEAD /`, `_count`, URL-parameter forms of search fields, integer
//! `track_total_hits`; the automation corner's root listings, `OPTIONS` and trailing-slash
//! redirects.
#![allow(clippy::unwrap_used, missing_docs)]

mod common;

use common::Demo;
use serde_json::json;

async fn send(demo: &Demo, method: &str, path: &str) -> http::Response<demo_backend::ClientBody> {
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .body(bytes::Bytes::new())
        .unwrap();
    demo.client.send(request).await.unwrap()
}

#[tokio::test]
async fn the_search_corner_answers_as_elasticsearch() {
    let demo = Demo::quiet();
    let info = send(&demo, "GET", "/").await;
    assert_eq!(info.status(), 200);
    assert_eq!(info.headers()["x-elastic-product"], "Elasticsearch");
    let body: serde_json::Value =
        serde_json::from_str(&info.into_body().text().await.unwrap()).unwrap();
    assert_eq!(body["version"]["number"], "8.13.0");
    let head = send(&demo, "HEAD", "/").await;
    assert_eq!(head.status(), 200);
    let refused = send(&demo, "POST", "/logs-app/_search?size=oops").await;
    assert_eq!(refused.status(), 400);
    assert_eq!(
        refused.headers()["x-elastic-product"],
        "Elasticsearch",
        "errors too"
    );
    assert_eq!(
        refused.into_body().text().await.unwrap(),
        r#"{"error":"Failed to parse int parameter [size] with value [oops]"}"#
    );
}

#[tokio::test]
async fn url_parameters_stand_for_body_fields_and_count_counts() {
    let demo = Demo::quiet();
    let by_body = demo
        .post_json(
            "/logs-app/_search",
            json!({"size": 3, "from": 2, "track_total_hits": true,
                   "sort": [{"@timestamp": "desc"}, {"_shard_doc": "desc"}]}),
        )
        .await;
    let by_url = demo
        .get(
            "/logs-app/_search?size=3&from=2&track_total_hits=true&sort=@timestamp:desc,_shard_doc:desc",
            200,
        )
        .await;
    assert_eq!(by_url, by_body);
    assert_eq!(
        by_url["hits"]["total"],
        json!({"value": 20_000, "relation": "eq"})
    );
    let capped = demo
        .get("/logs-app/_search?size=0&track_total_hits=100", 200)
        .await;
    assert_eq!(
        capped["hits"]["total"],
        json!({"value": 100, "relation": "gte"})
    );
    let body_int = demo
        .post_json(
            "/logs-app/_search",
            json!({"size": 0, "track_total_hits": 20_001}),
        )
        .await;
    assert_eq!(
        body_int["hits"]["total"],
        json!({"value": 20_000, "relation": "eq"})
    );
    let mixed = demo
        .error(
            "GET",
            "/logs-app/_search?sort=@timestamp:desc,_shard_doc:asc",
            400,
        )
        .await;
    assert!(
        mixed.contains("direction") || mixed.contains("mix"),
        "{mixed}"
    );

    let all = demo.post_json("/logs-app/_count", json!({})).await;
    assert_eq!(all["count"], 20_000);
    let errors = demo
        .post_json(
            "/logs-app/_count",
            json!({"query": {"query_string": {"query": "log.level:error"}}}),
        )
        .await;
    let searched = demo
        .post_json(
            "/logs-app/_search",
            json!({"size": 0, "track_total_hits": true,
                   "query": {"query_string": {"query": "log.level:error"}}}),
        )
        .await;
    assert_eq!(errors["count"], searched["hits"]["total"]["value"]);
    assert!(errors["count"].as_u64().unwrap() > 0);
    let refused = demo.error("GET", "/logs-app/_count?size=1", 400).await;
    assert_eq!(
        refused,
        "request [/logs-app/_count] contains unrecognized parameter: [size]"
    );
}

#[tokio::test]
async fn the_automation_corner_can_be_discovered() {
    let demo = Demo::quiet();
    let api = demo.get("/api/", 200).await;
    assert_eq!(api["current_version"], "/api/v2/");
    let v2 = demo.get("/api/v2/", 200).await;
    assert_eq!(v2, json!({"jobs": "/api/v2/jobs/"}));
    let options = send(&demo, "OPTIONS", "/api/v2/jobs/").await;
    assert_eq!(options.status(), 200);
    assert_eq!(options.headers()["allow"], "GET, HEAD, OPTIONS");
    let body: serde_json::Value =
        serde_json::from_str(&options.into_body().text().await.unwrap()).unwrap();
    assert_eq!(body["actions"]["GET"]["status"]["type"], "choice");
    let redirect = send(&demo, "GET", "/api/v2/jobs/1?format=json").await;
    assert_eq!(redirect.status(), 301);
    assert_eq!(
        redirect.headers()["location"],
        "/api/v2/jobs/1/?format=json"
    );
    let post = send(&demo, "POST", "/api/v2/jobs/").await;
    assert_eq!(post.status(), 405);
}
