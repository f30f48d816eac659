//! The yardstick of `scripts/bench-demo`: a minimal axum server (the same axum and tokio as the
//! demo backend) answering every `GET /` with the same ~2 KB JSON body.
//!
//! ```text
//! cargo run --release -p demo-backend --example hello -- 127.0.0.1:PORT
//! ```

use axum::Router;
use axum::http::header;
use axum::routing::get;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8098".to_owned());
    let rows: Vec<serde_json::Value> = (0..16)
        .map(|i| {
            serde_json::json!({
                "id": format!("app-{i:04}"), "name": format!("checkout-api-{i}"),
                "region": "eu-west-1", "sync": "Synced", "health": "Healthy", "rev": i, "phase": "Succeeded",
            })
        })
        .collect();
    let body = serde_json::json!({ "total": 16, "offset": 0, "rows": rows }).to_string();
    let app = Router::new().route(
        "/",
        get(move || {
            let body = body.clone();
            async move { ([(header::CONTENT_TYPE, "application/json")], body) }
        }),
    );
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    axum::serve(listener, app).await?;
    Ok(())
}
