//! Panics inside a handler become error responses instead of taking the server down.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use tower_lsp_server::jsonrpc::{Error, ErrorCode};

/// A panic caught while serving a message: what was being done and the panic's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Panicked {
    /// The method or step that panicked (`textDocument/hover`, `analysis`).
    pub(crate) context: &'static str,
    /// The panic payload, when it was a string.
    pub(crate) message: String,
}

impl Panicked {
    /// The JSON-RPC error sent in place of the result.
    pub(crate) fn into_error(self) -> Error {
        Error {
            code: ErrorCode::InternalError,
            message: format!(
                "sources language server: internal error in {}: {}",
                self.context, self.message
            )
            .into(),
            data: None,
        }
    }
}

fn payload_message(payload: &(dyn Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "panic with a non-string payload".to_owned()
    }
}

/// Runs `body`, turning a panic into [`Panicked`].
pub(crate) fn catch<T>(context: &'static str, body: impl FnOnce() -> T) -> Result<T, Panicked> {
    catch_unwind(AssertUnwindSafe(body)).map_err(|payload| Panicked {
        context,
        message: payload_message(payload.as_ref()),
    })
}

/// Runs a request handler's body, turning a panic into an internal-error response.
pub(crate) fn request<T>(
    method: &'static str,
    body: impl FnOnce() -> tower_lsp_server::jsonrpc::Result<T>,
) -> tower_lsp_server::jsonrpc::Result<T> {
    catch(method, body).unwrap_or_else(|panicked| Err(panicked.into_error()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error_naming_the_method() {
        let result: tower_lsp_server::jsonrpc::Result<()> =
            request("textDocument/hover", || panic!("index out of bounds"));
        let error = result.expect_err("the panic is reported");
        assert_eq!(error.code, ErrorCode::InternalError);
        assert!(
            error.message.contains("textDocument/hover"),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("index out of bounds"),
            "{}",
            error.message
        );
        let formatted: Result<(), Panicked> = catch("analysis", || panic!("{} {}", "formatted", 1));
        assert_eq!(formatted.expect_err("caught").message, "formatted 1");
    }

    #[test]
    fn a_normal_result_passes_through() {
        assert_eq!(request("shutdown", || Ok(7)).ok(), Some(7));
    }
}
