//! `GET /apps`, `GET /apps/facets` and `GET /apps/{id}`: paging, filters, sorting, facets, the
//! detail document and the held refresh.
#![allow(clippy::unwrap_used, missing_docs)]

mod common;

use std::collections::BTreeSet;

use common::{Demo, T0, settle};
use serde_json::Value;

fn ids(page: &Value) -> Vec<String> {
    page["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["id"].as_str().unwrap().to_owned())
        .collect()
}

fn column(page: &Value, name: &str) -> Vec<Value> {
    page["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row[name].clone())
        .collect()
}

#[tokio::test]
async fn paging_defaults_and_edges() {
    let demo = Demo::quiet();
    let page = demo.get("/apps", 200).await;
    assert_eq!(
        (page["total"].as_u64(), page["offset"].as_u64()),
        (Some(200), Some(0))
    );
    assert_eq!(ids(&page).len(), 100, "limit defaults to 100");
    assert_eq!(ids(&page)[0], "app-0001");
    let row = page["rows"][0].as_object().unwrap();
    let keys: BTreeSet<&str> = row.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        BTreeSet::from(["id", "name", "region", "sync", "health", "rev", "phase"])
    );

    let last = demo.get("/apps?offset=190&limit=25", 200).await;
    assert_eq!(ids(&last).len(), 10, "a final short page");
    assert_eq!(
        (last["total"].as_u64(), last["offset"].as_u64()),
        (Some(200), Some(190))
    );

    let past = demo.get("/apps?offset=500", 200).await;
    assert_eq!(
        (
            ids(&past).len(),
            past["total"].as_u64(),
            past["offset"].as_u64()
        ),
        (0, Some(200), Some(500))
    );

    let zero = demo.get("/apps?limit=0", 200).await;
    assert_eq!((ids(&zero).len(), zero["total"].as_u64()), (0, Some(200)));

    let big = Demo::with(demo_backend::Options {
        apps: 1_500,
        ..Default::default()
    });
    let clamped = big.get("/apps?limit=5000", 200).await;
    assert_eq!(
        (ids(&clamped).len(), clamped["total"].as_u64()),
        (1_000, Some(1_500))
    );
    let response = big.client.get("/apps?limit=5000").await.unwrap();
    assert_eq!(
        response.headers()["warning"],
        "299 demo-backend \"limit 5000 is above the maximum 1000: at most 1000 rows are returned\"",
        "the clamp is said in the response"
    );
    let response = big.client.get("/apps?limit=1000").await.unwrap();
    assert!(response.headers().get("warning").is_none());
    let total = big.get("/apps", 200).await;
    assert_eq!(total["total"].as_u64(), Some(1_500));
}

#[tokio::test]
async fn the_default_world_has_five_thousand_apps() {
    let demo = Demo::with(demo_backend::Options::default());
    let page = demo.get("/apps?offset=4999", 200).await;
    assert_eq!(
        (page["total"].as_u64(), ids(&page)),
        (Some(5_000), vec!["app-5000".to_owned()])
    );
}

#[tokio::test]
async fn sorting_by_any_column_in_both_directions() {
    let demo = Demo::quiet();
    for name in ["id", "name", "region", "sync", "health", "rev", "phase"] {
        let asc = column(
            &demo
                .get(&format!("/apps?sort={name}&limit=1000"), 200)
                .await,
            name,
        );
        let desc = column(
            &demo
                .get(&format!("/apps?sort={name}&desc=1&limit=1000"), 200)
                .await,
            name,
        );
        let prefixed = column(
            &demo
                .get(&format!("/apps?sort=-{name}&limit=1000"), 200)
                .await,
            name,
        );
        let mut sorted = asc.clone();
        if name == "rev" {
            sorted.sort_by_key(|v| v.as_u64());
        } else {
            sorted.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
        }
        assert_eq!(asc, sorted, "{name}");
        let reversed: Vec<Value> = sorted.into_iter().rev().collect();
        assert_eq!(desc, reversed, "{name}");
        assert_eq!(prefixed, desc, "{name}");
    }
    let desc_true = demo.get("/apps?sort=name&desc=true", 200).await;
    let desc_one = demo.get("/apps?sort=name&desc=1", 200).await;
    assert_eq!(desc_true, desc_one);
    let no_sort_desc = ids(&demo.get("/apps?desc=1&limit=1", 200).await);
    assert_eq!(
        no_sort_desc,
        vec!["app-0200".to_owned()],
        "desc without sort reverses id order"
    );
}

#[tokio::test]
async fn ties_keep_id_order() {
    let demo = Demo::quiet();
    let page = demo.get("/apps?sort=region&limit=1000", 200).await;
    let rows = page["rows"].as_array().unwrap();
    for pair in rows.windows(2) {
        if pair[0]["region"] == pair[1]["region"] {
            assert!(pair[0]["id"].as_str() < pair[1]["id"].as_str(), "{pair:?}");
        }
    }
}

#[tokio::test]
async fn q_terms_and_column_parameters_combine_with_and() {
    let demo = Demo::quiet();
    let all = demo.get("/apps?limit=1000", 200).await;
    let rows = all["rows"].as_array().unwrap();
    let matching = |pred: &dyn Fn(&Value) -> bool| -> Vec<String> {
        rows.iter()
            .filter(|r| pred(r))
            .map(|r| r["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let s = |r: &Value, k: &str| r[k].as_str().unwrap().to_lowercase();

    let bare = ids(&demo.get("/apps?q=CHECKOUT&limit=1000", 200).await);
    assert_eq!(
        bare,
        matching(&|r| ["id", "name", "region"]
            .iter()
            .any(|k| s(r, k).contains("checkout")))
    );
    assert!(!bare.is_empty());

    let region_term = ids(&demo.get("/apps?q=eu-&limit=1000", 200).await);
    assert_eq!(
        region_term,
        matching(&|r| s(r, "region").contains("eu-") || s(r, "name").contains("eu-"))
    );

    // One rule for fielded terms and column parameters: the whole value, ignoring case.
    let scoped = ids(&demo.get("/apps?q=health:DEGRADED&limit=1000", 200).await);
    assert_eq!(scoped, matching(&|r| r["health"] == "Degraded"));
    assert!(!scoped.is_empty());
    assert_eq!(
        scoped,
        ids(&demo.get("/apps?health=degraded&limit=1000", 200).await),
        "q=health:x and health=x are the same filter"
    );
    let part = demo.get("/apps?q=health:degr", 200).await;
    assert_eq!(
        part["total"].as_u64(),
        Some(0),
        "a fielded term is not a substring"
    );
    let region = ids(&demo.get("/apps?q=region:eu-west-1&limit=1000", 200).await);
    assert_eq!(region, matching(&|r| r["region"] == "eu-west-1"));
    assert_eq!(
        region,
        ids(&demo.get("/apps?region=EU-WEST-1&limit=1000", 200).await)
    );
    assert_eq!(
        demo.get("/apps?q=region:eu", 200).await["total"].as_u64(),
        Some(0)
    );

    // A term whose key is not a column is text, searched like any bare term.
    let text = ids(&demo.get("/apps?q=checkout:api&limit=1000", 200).await);
    assert!(text.is_empty(), "no name holds \"checkout:api\"");
    let colon = demo.get("/apps?q=colour:red", 200).await;
    assert_eq!(colon["total"].as_u64(), Some(0));

    let regex = ids(&demo
        .get("/apps?q=~%5Ebilling-(api|web)%24&limit=1000", 200)
        .await);
    assert_eq!(
        regex,
        matching(&|r| s(r, "name") == "billing-api" || s(r, "name") == "billing-web")
    );

    let exact = ids(&demo.get("/apps?sync=outofsync&limit=1000", 200).await);
    assert_eq!(exact, matching(&|r| r["sync"] == "OutOfSync"));
    assert!(!exact.is_empty());
    let not_exact = demo.get("/apps?sync=outof", 200).await;
    assert_eq!(
        not_exact["total"].as_u64(),
        Some(0),
        "per-column parameters match whole values"
    );

    let combined = demo
        .get(
            "/apps?q=api%20region:us-east-1&health=Healthy&sync=Synced&limit=1000",
            200,
        )
        .await;
    let expected = matching(&|r| {
        ["id", "name", "region"]
            .iter()
            .any(|k| s(r, k).contains("api"))
            && r["region"] == "us-east-1"
            && r["health"] == "Healthy"
            && r["sync"] == "Synced"
    });
    assert_eq!(ids(&combined), expected);
    assert_eq!(
        combined["total"].as_u64(),
        Some(expected.len() as u64),
        "total counts all matching rows"
    );

    let quoted = demo.get("/apps?q=%22billing-api%22&limit=1000", 200).await;
    assert_eq!(
        ids(&quoted),
        matching(&|r| s(r, "name").contains("billing-api"))
    );

    let rev = ids(&demo.get("/apps?rev=7&limit=1000", 200).await);
    assert_eq!(rev, matching(&|r| r["rev"] == 7));

    let paged = demo.get("/apps?sync=OutOfSync&limit=2&offset=1", 200).await;
    assert_eq!(paged["total"].as_u64(), Some(exact.len() as u64));
    assert_eq!(ids(&paged), exact[1..3].to_vec());
}

#[tokio::test]
async fn malformed_list_parameters_are_400s_that_say_what_is_accepted() {
    let demo = Demo::quiet();
    let cases = [
        (
            "/apps?sort=colour",
            "parameter sort: unknown field \"colour\"; accepted fields: id, name, region, sync, health, rev, phase",
        ),
        (
            "/apps?desc=yes",
            "parameter desc: expected 1, true, 0 or false, got \"yes\"",
        ),
        (
            "/apps?offset=-1",
            "parameter offset: expected a non-negative integer, got \"-1\"",
        ),
        (
            "/apps?limit=ten",
            "parameter limit: expected a non-negative integer, got \"ten\"",
        ),
        (
            "/apps?q=~(",
            "parameter q: invalid regular expression \"(\"",
        ),
        ("/apps?q=%22open", "parameter q: unclosed double quote"),
        (
            "/apps?q=%22two%0Alines%22",
            "parameter q: term \"two\\nlines\" holds a line break",
        ),
    ];
    for (path, message) in cases {
        let error = demo.error("GET", path, 400).await;
        assert!(error.starts_with(message), "{path}: {error}");
    }
}

#[tokio::test]
async fn facets_hold_the_whole_distinct_set() {
    let demo = Demo::quiet();
    let all = demo.get("/apps?limit=1000", 200).await;
    for field in ["region", "health", "sync", "phase", "name", "id"] {
        let facets = demo
            .get(&format!("/apps/facets?field={field}&limit=1"), 200)
            .await;
        let values: Vec<&str> = facets["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let expected: BTreeSet<&str> = all["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r[field].as_str().unwrap())
            .collect();
        assert_eq!(values, expected.into_iter().collect::<Vec<_>>(), "{field}");
    }
    let regions = demo.get("/apps/facets?field=region", 200).await;
    assert!(regions["values"].as_array().unwrap().len() > 1);
    let sync = demo.get("/apps/facets?field=sync", 200).await;
    assert_eq!(sync["values"], serde_json::json!(["OutOfSync", "Synced"]));
    let revs = demo.get("/apps/facets?field=rev", 200).await;
    let revs: Vec<u64> = revs["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().parse().unwrap())
        .collect();
    assert!(
        revs.windows(2).all(|w| w[0] < w[1]),
        "rev facets sort numerically: {revs:?}"
    );

    let unknown = demo.error("GET", "/apps/facets?field=colour", 400).await;
    assert_eq!(
        unknown,
        "parameter field: unknown field \"colour\"; accepted fields: id, name, region, sync, health, rev, phase"
    );
    let missing = demo.error("GET", "/apps/facets", 400).await;
    assert_eq!(
        missing,
        "parameter field is required; accepted fields: id, name, region, sync, health, rev, phase"
    );
}

#[tokio::test]
async fn the_detail_document_is_nested_and_agrees_with_the_row() {
    let demo = Demo::quiet();
    let row = &demo.get("/apps?id=app-0007", 200).await["rows"][0];
    let detail = demo.get("/apps/app-0007", 200).await;
    assert_eq!(detail["metadata"]["name"], row["id"]);
    assert_eq!(
        detail["metadata"]["labels"]["app.kubernetes.io/name"],
        row["name"]
    );
    assert_eq!(detail["metadata"]["labels"]["region"], row["region"]);
    assert_eq!(detail["metadata"]["generation"], row["rev"]);
    assert_eq!(detail["status"]["sync"]["status"], row["sync"]);
    assert_eq!(detail["status"]["health"]["status"], row["health"]);
    assert_eq!(
        detail["status"]["sync"]["revision"].as_str().unwrap().len(),
        40
    );
    assert!(detail["spec"]["source"]["repoURL"].is_string());
    assert!(detail["spec"]["destination"]["server"].is_string());
    assert!(detail["spec"]["syncPolicy"]["automated"]["prune"].is_boolean());
    assert!(detail["status"]["history"].is_array());
    assert_eq!(detail["status"]["resources"].as_array().unwrap().len(), 3);
    assert!(
        detail["status"]["reconciledAt"]
            .as_str()
            .unwrap()
            .ends_with('Z')
    );
    let phase = row["phase"].as_str().unwrap();
    if phase.is_empty() {
        assert!(detail["status"]["operationState"].is_null());
    } else {
        assert_eq!(detail["status"]["operationState"]["phase"], phase);
    }

    let missing = demo.error("GET", "/apps/app-9999", 404).await;
    assert_eq!(missing, "application \"app-9999\" not found");
    let odd = demo.error("GET", "/apps/nope", 404).await;
    assert_eq!(odd, "application \"nope\" not found");
}

#[tokio::test]
async fn a_held_refresh_answers_after_takes_and_sets_reconciled_at() {
    let demo = Demo::quiet();
    let before = demo.get("/apps/app-0003", 200).await;
    let held = {
        let client = demo.client.clone();
        tokio::spawn(async move { client.get("/apps/app-0003?refresh=normal").await })
    };
    settle().await;
    assert!(!held.is_finished());
    demo.advance(1_999);
    settle().await;
    assert!(!held.is_finished(), "held for the default 2s");
    assert_eq!(
        demo.get("/apps/app-0003", 200).await,
        before,
        "nothing changes until the reply is sent"
    );
    demo.advance(1);
    let reply = common::json(held.await.unwrap().unwrap(), 200, "held").await;
    assert_eq!(reply["status"]["reconciledAt"], "2027-01-15T08:00:02.000Z");
    assert_eq!(
        reply["metadata"]["generation"],
        before["metadata"]["generation"]
    );
    let after = demo.get("/apps/app-0003", 200).await;
    assert_eq!(after, reply);

    let custom = {
        let client = demo.client.clone();
        tokio::spawn(async move {
            client
                .get("/apps/app-0003?refresh=normal&takes=500ms")
                .await
        })
    };
    settle().await;
    demo.advance(499);
    settle().await;
    assert!(!custom.is_finished());
    demo.advance(1);
    let reply = common::json(custom.await.unwrap().unwrap(), 200, "custom").await;
    assert_eq!(reply["status"]["reconciledAt"], "2027-01-15T08:00:02.500Z");
    assert_eq!(T0 + 2_500, demo_backend::clock::Clock::now(&demo.clock));
}

#[tokio::test]
async fn held_refresh_errors_answer_at_once() {
    let demo = Demo::quiet();
    assert_eq!(
        demo.error("GET", "/apps/app-0999?refresh=normal", 404)
            .await,
        "application \"app-0999\" not found"
    );
    assert_eq!(
        demo.error("GET", "/apps/app-0001?refresh=hard", 400).await,
        "parameter refresh: expected \"normal\", got \"hard\""
    );
    let takes = demo
        .error("GET", "/apps/app-0001?refresh=normal&takes=soon", 400)
        .await;
    assert!(
        takes.starts_with("parameter takes: invalid duration \"soon\""),
        "{takes}"
    );
}

#[tokio::test]
async fn a_repeated_query_follows_every_change_of_the_world() {
    let demo = Demo::quiet();
    let path = "/apps?sort=-rev&limit=3&q=app-000";
    let first = demo.get(path, 200).await;
    assert_eq!(
        demo.get(path, 200).await,
        first,
        "nothing changed, the same answer"
    );
    let top = first["rows"][0]["id"].as_str().unwrap().to_owned();
    let rev = first["rows"][0]["rev"].as_u64().unwrap();
    demo.post(&format!("/apps/{top}/sync"), 202).await;
    let running = demo.get(path, 200).await;
    assert_eq!(
        running["rows"][0]["phase"], "Running",
        "a command shows at once"
    );
    demo.advance(4_000);
    let done = demo.get(path, 200).await;
    assert_eq!(done["rows"][0]["id"], top);
    assert_eq!(
        done["rows"][0]["rev"].as_u64(),
        Some(rev + 1),
        "a finished job shows"
    );
    assert_eq!(done["rows"][0]["phase"], "Succeeded");
}
