//! Which host a request's configured headers belong to. A configuration writes its headers
//! (`X-Api-Key`, `Authorization`, values from `${env.…}`) for the URL it names; they go only to that
//! URL's origin (scheme, host and port). A redirect or a `paginate` next link to another origin is
//! followed without any of them, and never from `https` to `http`.

use url::Url;

/// Whether `a` and `b` are URLs of the same origin: scheme, host and port (the scheme's default
/// port when none is written). Unparsable URLs share no origin.
pub fn same_origin(a: &str, b: &str) -> bool {
    match (Url::parse(a), Url::parse(b)) {
        (Ok(a), Ok(b)) => a.origin() == b.origin() && a.origin().is_tuple(),
        _ => false,
    }
}

/// The headers a request to `to` carries when the configuration wrote `headers` for
/// `configured`: all of them on the same origin, none on another.
pub fn headers_for(
    configured: &str,
    to: &str,
    headers: &[(String, String)],
) -> Vec<(String, String)> {
    if same_origin(configured, to) {
        headers.to_vec()
    } else {
        Vec::new()
    }
}

/// Why a move from `from` to `to` is refused: leaving `https` for `http` would send the request,
/// and whatever the next hop answers, in clear text.
pub fn downgrade(from: &str, to: &str) -> Option<String> {
    let (Ok(from), Ok(to)) = (Url::parse(from), Url::parse(to)) else {
        return None;
    };
    (from.scheme() == "https" && to.scheme() == "http").then(|| {
        format!(
            "refusing to go from {} to {}: it leaves https for plain http",
            crate::trace::url(from.as_str()),
            crate::trace::url(to.as_str())
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_scheme_host_and_port() {
        assert!(same_origin(
            "https://a.example/x?q=1",
            "https://a.example:443/y"
        ));
        assert!(same_origin(
            "http://127.0.0.1:8099/a",
            "http://127.0.0.1:8099/b"
        ));
        assert!(!same_origin(
            "http://127.0.0.1:8099/a",
            "http://127.0.0.1:8100/a"
        ));
        assert!(!same_origin("https://a.example/", "http://a.example/"));
        assert!(!same_origin("https://a.example/", "https://b.example/"));
        assert!(!same_origin("https://a.example/", "not a url"));
    }

    #[test]
    fn headers_stay_with_their_origin() {
        let headers = vec![("X-Api-Key".to_owned(), "k".to_owned())];
        assert_eq!(
            headers_for("https://a.example/x", "https://a.example/y", &headers),
            headers
        );
        assert!(headers_for("https://a.example/x", "https://b.example/y", &headers).is_empty());
    }

    #[test]
    fn https_to_http_is_a_downgrade() {
        assert_eq!(
            downgrade("https://a.example/x", "http://a.example/x").as_deref(),
            Some(
                "refusing to go from https://a.example/x to http://a.example/x: it leaves https for plain http"
            )
        );
        assert_eq!(downgrade("http://a.example/x", "https://a.example/x"), None);
    }
}
