//! The search corner (being written).

use axum::Router;

use crate::CornerContext;

/// The corner's routes, with their state applied.
pub fn router(ctx: CornerContext) -> Router {
    let _ = ctx;
    Router::new()
}
