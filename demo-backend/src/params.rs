//! Query parameters as an ordered list, read the same way by every handler and by the controls.

use axum::extract::{FromRequestParts, Query};
use axum::http::Uri;
use axum::http::request::Parts;

use crate::error::ApiError;

/// A request's query parameters, decoded, in order. When a name repeats, the first value counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params(pub Vec<(String, String)>);

impl Params {
    /// Decodes the query of `uri`; a malformed query is a 400.
    pub fn from_uri(uri: &Uri) -> Result<Params, ApiError> {
        Query::<Vec<(String, String)>>::try_from_uri(uri)
            .map(|Query(pairs)| Params(pairs))
            .map_err(|error| {
                ApiError::bad_request(format!("malformed query string: {}", error.body_text()))
            })
    }

    /// The first value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Params, ApiError> {
        Params::from_uri(&parts.uri)
    }
}
