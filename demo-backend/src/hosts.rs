//! The standalone server's guard against DNS rebinding and cross-site requests: which `Host`
//! names it answers, and which `Origin` may send a request that changes the world.
//!
//! A page on another site can make a browser send requests to a loopback server, either through a
//! name that the attacker's DNS later points at 127.0.0.1 (the request then carries the attacker's
//! name in `Host`) or with a cross-site form `POST` (the request then carries the page's `Origin`).
//! The server answers only `Host` names it listens under: `localhost`, a loopback IP, the IP the
//! connection arrived on and the host named in `--addr`, each with the listening port. A request
//! other than `GET`, `HEAD` or `OPTIONS` that carries an `Origin` is answered only when that
//! origin is `http://` and one of the same names with the same port. In-process clients never pass
//! through here.

use std::net::{IpAddr, SocketAddr};

use axum::http::{HeaderMap, Method, StatusCode, header};
use http::uri::{Authority, Uri};

use crate::error::ApiError;

/// The names a server answers under, built from its `--addr` and the port it listens on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostGuard {
    /// The host part of `--addr`, lower-cased and without brackets (`localhost`, `::1`, `myhost`).
    named: String,
    /// The port the server listens on.
    port: u16,
}

impl HostGuard {
    /// A guard for a server started with `--addr addr` and listening on `port`.
    pub fn new(addr: &str, port: u16) -> HostGuard {
        let host = addr.rsplit_once(':').map_or(addr, |(host, _)| host);
        HostGuard {
            named: bare_host(host).to_ascii_lowercase(),
            port,
        }
    }

    /// Whether a request with these `method` and `headers`, arrived on the connection whose local
    /// address is `local`, may be answered; the refusal (`403`, or `400` without a `Host`) says
    /// why and what to use instead.
    pub fn check(
        &self,
        method: &Method,
        headers: &HeaderMap,
        local: Option<SocketAddr>,
    ) -> Result<(), ApiError> {
        let Some(host) = headers.get(header::HOST) else {
            return Err(ApiError::bad_request(format!(
                "the request has no Host header; send Host: 127.0.0.1:{}",
                self.port
            )));
        };
        let host = host.to_str().unwrap_or("");
        if !self.allows(host, local) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "this server does not answer the host name {host:?} (a guard against DNS \
                     rebinding); use http://127.0.0.1:{port}, http://localhost:{port} or the \
                     address given with --addr",
                    port = self.port
                ),
            ));
        }
        if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
            return Ok(());
        }
        let Some(origin) = headers.get(header::ORIGIN) else {
            return Ok(());
        };
        let origin = origin.to_str().unwrap_or("");
        let same = origin
            .parse::<Uri>()
            .ok()
            .filter(|uri| uri.scheme_str() == Some("http") && uri.path() == "/")
            .and_then(|uri| {
                uri.authority()
                    .map(|authority| authority.as_str().to_owned())
            })
            .is_some_and(|authority| self.allows(&authority, local));
        if same {
            Ok(())
        } else {
            Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "refusing a cross-origin {method} from {origin:?}: only pages served by this \
                     server may change its world; send the request without an Origin header or \
                     from http://127.0.0.1:{}",
                    self.port
                ),
            ))
        }
    }

    /// Whether `authority` (`HOST[:PORT]`) names this server.
    fn allows(&self, authority: &str, local: Option<SocketAddr>) -> bool {
        let Ok(authority) = authority.parse::<Authority>() else {
            return false;
        };
        if authority.port_u16().unwrap_or(80) != self.port {
            return false;
        }
        let host = bare_host(authority.host()).to_ascii_lowercase();
        if host == "localhost" || host == self.named {
            return true;
        }
        match host.parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || local.is_some_and(|local| local.ip() == ip),
            Err(_) => false,
        }
    }
}

/// `host` without the brackets of an IPv6 literal.
fn bare_host(host: &str) -> &str {
    host.trim_start_matches('[').trim_end_matches(']')
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(name.clone(), HeaderValue::from_str(value).expect("value"));
        }
        map
    }

    fn allowed(guard: &HostGuard, method: Method, pairs: &[(header::HeaderName, &str)]) -> bool {
        let local = "192.168.1.5:8099".parse().ok();
        guard.check(&method, &headers(pairs), local).is_ok()
    }

    #[test]
    fn loopback_names_the_addr_host_and_the_arrival_address_are_answered() {
        let guard = HostGuard::new("myhost:8099", 8099);
        for host in [
            "127.0.0.1:8099",
            "localhost:8099",
            "LOCALHOST:8099",
            "[::1]:8099",
            "myhost:8099",
            "192.168.1.5:8099",
        ] {
            assert!(
                allowed(&guard, Method::GET, &[(header::HOST, host)]),
                "{host}"
            );
        }
        for host in [
            "evil.example:8099",
            "127.0.0.1:9000",
            "localhost",
            "192.168.1.6:8099",
            "",
        ] {
            assert!(
                !allowed(&guard, Method::GET, &[(header::HOST, host)]),
                "{host}"
            );
        }
    }

    #[test]
    fn refusals_say_why_and_what_to_use() {
        let guard = HostGuard::new("127.0.0.1:8099", 8099);
        let refused = guard
            .check(
                &Method::GET,
                &headers(&[(header::HOST, "evil.example:8099")]),
                None,
            )
            .expect_err("another name");
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
        assert!(refused.message.starts_with(
            "this server does not answer the host name \"evil.example:8099\" (a guard against DNS rebinding)"
        ));
        let missing = guard
            .check(&Method::GET, &HeaderMap::new(), None)
            .expect_err("no host");
        assert_eq!(missing.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            missing.message,
            "the request has no Host header; send Host: 127.0.0.1:8099"
        );
    }

    #[test]
    fn only_same_origin_posts_are_answered() {
        let guard = HostGuard::new("127.0.0.1:8099", 8099);
        let host = (header::HOST, "127.0.0.1:8099");
        assert!(allowed(&guard, Method::POST, std::slice::from_ref(&host)));
        assert!(allowed(
            &guard,
            Method::POST,
            &[host.clone(), (header::ORIGIN, "http://localhost:8099")]
        ));
        assert!(allowed(
            &guard,
            Method::GET,
            &[host.clone(), (header::ORIGIN, "https://evil.example")]
        ));
        for origin in [
            "https://evil.example",
            "null",
            "http://127.0.0.1:9000",
            "https://127.0.0.1:8099",
        ] {
            assert!(
                !allowed(
                    &guard,
                    Method::POST,
                    &[host.clone(), (header::ORIGIN, origin)]
                ),
                "{origin}"
            );
        }
    }
}
