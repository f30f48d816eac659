//! What a message body must be to reach the server: one JSON-RPC 2.0 request, notification or
//! response, or the refusal (`-32700` / `-32600`, with the id when usable) it is answered with.

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Request, Response};

/// JSON-RPC's error codes for what the reader refuses.
const PARSE_ERROR: i64 = -32700;
pub(crate) const INVALID_REQUEST: i64 = -32600;

/// Why a message body was refused, and the error response it gets.
#[derive(Debug, PartialEq)]
pub(crate) struct Refused {
    /// `-32700` (not JSON) or `-32600` (not a valid message).
    pub(crate) code: i64,
    /// The request's id when it had a usable one, else `null`.
    pub(crate) id: Value,
    /// What was wrong.
    pub(crate) message: String,
}

/// A valid message, read once into what the server takes.
#[derive(Debug, PartialEq)]
pub(crate) enum Checked {
    /// A request (`id` is its id) or a notification (no `id`).
    Call {
        /// The id a request is answered with.
        id: Option<Value>,
        /// The message.
        request: Request,
    },
    /// A response to one of the server's requests.
    Response(Response),
}

/// Checks that a body is one JSON-RPC 2.0 request, notification or response that the server can
/// take (batches are not part of LSP).
pub(crate) fn check_message(body: &[u8]) -> Result<Checked, Refused> {
    let value = crate::json::parse(body).map_err(|error| Refused {
        code: PARSE_ERROR,
        id: Value::Null,
        message: format!("a message body is not JSON ({error}); it was skipped"),
    })?;
    let invalid = |id: Value, what: &str| Refused {
        code: INVALID_REQUEST,
        id,
        message: format!("invalid JSON-RPC message: {what}; it was skipped"),
    };
    let Value::Object(object) = &value else {
        let what = match value {
            Value::Array(_) => "a batch (an array), which LSP does not use",
            _ => "not an object",
        };
        return Err(invalid(Value::Null, what));
    };
    let id = match object.get("id") {
        None => None,
        Some(id @ (Value::Number(_) | Value::String(_) | Value::Null)) if is_usable_id(id) => {
            Some(id.clone())
        }
        Some(_) => return Err(invalid(Value::Null, "`id` is not a string or an integer")),
    };
    let answer_id = id.clone().unwrap_or(Value::Null);
    if object.get("jsonrpc") != Some(&Value::String("2.0".to_owned())) {
        return Err(invalid(answer_id, "`jsonrpc` is not \"2.0\""));
    }
    let is_call = match object.get("method") {
        Some(Value::String(_)) => {
            if let Some(params) = object.get("params") {
                if !params.is_object() && !params.is_array() && !params.is_null() {
                    return Err(invalid(answer_id, "`params` is not an object or an array"));
                }
            }
            true
        }
        Some(_) => return Err(invalid(answer_id, "`method` is not a string")),
        None if id.is_some() && (object.contains_key("result") != object.contains_key("error")) => {
            false
        }
        None => return Err(invalid(answer_id, "no `method`, and not a response")),
    };
    if is_call {
        serde_json::from_value::<Request>(value)
            .map(|request| Checked::Call { id, request })
            .map_err(|error| invalid(answer_id, &error.to_string()))
    } else {
        serde_json::from_value::<Response>(value)
            .map(Checked::Response)
            .map_err(|error| invalid(answer_id, &error.to_string()))
    }
}

/// Whether an id is one the server can echo: a string, an integer, or `null`.
fn is_usable_id(id: &Value) -> bool {
    match id {
        Value::Number(number) => number.is_i64() || number.is_u64(),
        Value::String(_) | Value::Null => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn messages_are_checked_as_json_rpc_asks() {
        let refused = |body: &str| check_message(body.as_bytes()).expect_err(body);
        assert_eq!(refused("{nope").code, PARSE_ERROR);
        assert_eq!(refused("").code, PARSE_ERROR);
        let not_object = refused("[1, 2]");
        assert_eq!(
            (not_object.code, not_object.id.clone()),
            (INVALID_REQUEST, Value::Null)
        );
        assert!(
            not_object.message.contains("batch"),
            "{}",
            not_object.message
        );
        for scalar in ["42", "\"initialize\"", "null", "true"] {
            assert_eq!(
                refused(scalar),
                Refused {
                    code: INVALID_REQUEST,
                    id: Value::Null,
                    message: "invalid JSON-RPC message: not an object; it was skipped".to_owned(),
                },
                "{scalar}"
            );
        }
        let no_method = refused(r#"{"jsonrpc":"2.0","id":7}"#);
        assert_eq!((no_method.code, no_method.id), (INVALID_REQUEST, json!(7)));
        let bad_version = refused(r#"{"jsonrpc":"1.0","id":"x","method":"a"}"#);
        assert_eq!(bad_version.id, json!("x"));
        assert!(
            bad_version.message.contains("`jsonrpc`"),
            "{}",
            bad_version.message
        );
        assert!(
            refused(r#"{"jsonrpc":"2.0","id":1,"method":5}"#)
                .message
                .contains("`method` is not a string")
        );
        assert!(
            refused(r#"{"jsonrpc":"2.0","id":1,"method":"a","params":3}"#)
                .message
                .contains("`params`")
        );
        assert_eq!(
            refused(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"a"}"#).id,
            Value::Null
        );
        assert_eq!(
            check_message(br#"{"jsonrpc":"2.0","id":1,"method":"a"}"#),
            Ok(Checked::Call {
                id: Some(json!(1)),
                request: Request::build("a").id(1).finish(),
            })
        );
        assert_eq!(
            check_message(br#"{"jsonrpc":"2.0","method":"n","params":[]}"#),
            Ok(Checked::Call {
                id: None,
                request: Request::build("n").params(json!([])).finish(),
            })
        );
        assert_eq!(
            check_message(br#"{"jsonrpc":"2.0","id":1,"result":null}"#),
            Ok(Checked::Response(Response::from_ok(1.into(), Value::Null)))
        );
    }
}
