//! Template substitution: `${params.NAME}`, `${env.NAME}` and the `${window.*}` tokens, through
//! the one template parser in `sources_config::template`.
//!
//! An undeclared `${params.X}` stays literal (the bound parameter map holds every declared name),
//! as does a window token where no window request is being made.
//!
//! In an http or websocket `url`, a value is percent-encoded for where its token stands (path,
//! query or fragment), as a browser's `encodeURIComponent` would, so `a&admin=1` stays one query
//! value. A token in the scheme or host is written as it is: there the encoding cannot be decided,
//! and the checker warns (`url-template-unencoded`). `${env.NAME}` there is taken as a base URL
//! (scheme, host and path prefix); any other token there leaves every later one unencoded too.

use std::collections::BTreeMap;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;
use sources_config::template::{Segment, Template, TokenKind, UrlPart, WindowToken};

use crate::io::Io;

/// The values of one window request, as the `${window.*}` tokens see them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WindowValues {
    /// `${window.offset}`: the first row wanted.
    pub offset: u64,
    /// `${window.limit}`: rows asked for (page size, plus one on an anchored window).
    pub limit: u64,
    /// `${window.search}`: bare terms joined with spaces.
    pub search: String,
    /// `${window.filters.NAME}`: scoped term values by token name.
    pub filters: BTreeMap<String, String>,
    /// `${window.sort}`: the sort column title (empty when unsorted).
    pub sort: String,
    /// `${window.sort_dir}`: `asc`, `desc` or empty.
    pub sort_dir: String,
    /// Anchored windows only: the cursor and direction.
    pub anchored: Option<AnchoredValues>,
}

/// The anchored-window part of a request.
#[derive(Clone, Debug, PartialEq)]
pub struct AnchoredValues {
    /// `${window.cursor}`: the edge item's cursor; `None` on the first request.
    pub cursor: Option<Value>,
    /// `${window.dir}`: `older` or `newer`.
    pub dir: &'static str,
}

/// What tokens resolve to while rendering one entry's templates.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    /// The bound parameters: every declared name, resolved.
    pub params: &'a BTreeMap<String, String>,
    /// Where `${env.NAME}` is read.
    pub io: &'a dyn Io,
    /// The window request being made, if any.
    pub window: Option<&'a WindowValues>,
}

/// How text tokens are written into the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Escape {
    /// As they are.
    None,
    /// Window text tokens escaped for the inside of a JSON string.
    JsonString,
}

impl<'a> Scope<'a> {
    /// A scope with parameters and the environment only.
    pub fn new(params: &'a BTreeMap<String, String>, io: &'a dyn Io) -> Scope<'a> {
        Scope {
            params,
            io,
            window: None,
        }
    }

    /// The same scope for a window request.
    pub fn with_window(self, window: &'a WindowValues) -> Scope<'a> {
        Scope {
            window: Some(window),
            ..self
        }
    }

    /// Renders a template value (url, method, header, path, env, initial message).
    pub fn render(&self, text: &str) -> String {
        let template = Template::parse(text);
        template.render(|kind| self.resolve(kind, Escape::None))
    }

    /// Renders an http or websocket `url`: each token's value is percent-encoded for the part of
    /// the URL it stands in; a token in the scheme or host is written as it is, and so is every
    /// later one unless the first was `${env.NAME}` (a base URL).
    pub fn render_url(&self, text: &str) -> String {
        let template = Template::parse(text);
        let mut out = String::with_capacity(text.len());
        let mut parts = template.url_parts().into_iter();
        for segment in &template.segments {
            match segment {
                Segment::Literal(literal) => out.push_str(literal),
                Segment::Token(token) => {
                    let part = parts.next();
                    match self.resolve(&token.kind, Escape::None) {
                        None => out.push_str(token.written),
                        Some(value) if part.is_some_and(UrlPart::is_encodable) => {
                            out.push_str(&encode_url_component(&value));
                        }
                        Some(value) => out.push_str(&value),
                    }
                }
            }
        }
        out
    }

    /// Renders a request `body`: `${window.search}` and `${window.filters.NAME}` are escaped for a
    /// JSON string and `${window.limit}` is a number.
    pub fn render_body(&self, text: &str) -> String {
        let template = Template::parse(text);
        template.render(|kind| self.resolve(kind, Escape::JsonString))
    }

    /// Renders one argv element; `None` when it has window tokens and every one of them resolves
    /// empty (the element is dropped).
    pub fn render_arg(&self, text: &str) -> Option<String> {
        let template = Template::parse(text);
        let mut window_tokens = 0;
        let mut all_empty = true;
        let rendered = template.render(|kind| {
            let value = self.resolve(kind, Escape::None);
            if matches!(kind, TokenKind::Window(_)) && self.window.is_some() {
                window_tokens += 1;
                if value.as_deref().is_some_and(|v| !v.is_empty()) {
                    all_empty = false;
                }
            }
            value
        });
        if window_tokens > 0 && all_empty {
            None
        } else {
            Some(rendered)
        }
    }

    fn resolve(&self, kind: &TokenKind<'_>, escape: Escape) -> Option<String> {
        match kind {
            TokenKind::Param(name) => self.params.get(*name).cloned(),
            TokenKind::Env(name) => Some(self.io.env_var(name).unwrap_or_default()),
            TokenKind::Selection(_) => None,
            TokenKind::Window(token) => {
                let window = self.window?;
                let text = match token {
                    // An anchored window has no offsets: the token stays empty, as lint warns.
                    WindowToken::Offset if window.anchored.is_some() => String::new(),
                    WindowToken::Offset => return Some(window.offset.to_string()),
                    WindowToken::Limit => return Some(window.limit.to_string()),
                    WindowToken::Search => window.search.clone(),
                    WindowToken::Filter(name) => {
                        window.filters.get(*name).cloned().unwrap_or_default()
                    }
                    WindowToken::Sort => window.sort.clone(),
                    WindowToken::SortDir => window.sort_dir.clone(),
                    WindowToken::Dir => window.anchored.as_ref()?.dir.to_owned(),
                    WindowToken::Cursor => match &window.anchored.as_ref()?.cursor {
                        None => String::new(),
                        Some(Value::String(text)) => text.clone(),
                        Some(other) => return Some(other.to_string()),
                    },
                };
                Some(match escape {
                    Escape::None => text,
                    Escape::JsonString => json_string_inner(&text),
                })
            }
        }
    }
}

/// What `encodeURIComponent` escapes: everything but letters, digits and `-_.!~*'()`.
const URL_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// `text` percent-encoded as `encodeURIComponent` does: how a value is written into a URL's path
/// segment or query value.
pub fn encode_url_component(text: &str) -> String {
    utf8_percent_encode(text, URL_COMPONENT).to_string()
}

/// `text` escaped for the inside of a JSON string (without the quotes).
pub fn json_string_inner(text: &str) -> String {
    let quoted = Value::String(text.to_owned()).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::FakeIo;
    use serde_json::json;

    fn params() -> BTreeMap<String, String> {
        BTreeMap::from([
            ("id".to_owned(), "app-0001".to_owned()),
            ("empty".to_owned(), String::new()),
        ])
    }

    #[test]
    fn params_and_env_substitute_and_undeclared_stays_literal() {
        let io = FakeIo::new().with_env("TOKEN", "s3cret");
        let params = params();
        let scope = Scope::new(&params, &io);
        assert_eq!(
            scope.render("http://x/apps/${params.id}?t=${env.TOKEN}&u=${env.UNSET}"),
            "http://x/apps/app-0001?t=s3cret&u="
        );
        assert_eq!(
            scope.render("${params.nope}/${window.offset}"),
            "${params.nope}/${window.offset}"
        );
    }

    #[test]
    fn body_escapes_window_text_tokens_but_not_params() {
        let io = FakeIo::new();
        let params = BTreeMap::from([("q".to_owned(), "a\"b".to_owned())]);
        let window = WindowValues {
            limit: 26,
            search: "say \"hi\"\\".into(),
            filters: BTreeMap::from([("level".to_owned(), "ERR\n".to_owned())]),
            ..WindowValues::default()
        };
        let scope = Scope::new(&params, &io).with_window(&window);
        assert_eq!(
            scope.render_body(
                r#"{"size": ${window.limit}, "q": "${window.search} ${window.filters.level}", "p": "${params.q}"}"#
            ),
            r#"{"size": 26, "q": "say \"hi\"\\ ERR\n", "p": "a"b"}"#
        );
    }

    #[test]
    fn argv_elements_whose_window_tokens_are_all_empty_are_dropped() {
        let io = FakeIo::new();
        let params = params();
        let window = WindowValues {
            offset: 0,
            limit: 50,
            filters: BTreeMap::from([("region".to_owned(), "eu".to_owned())]),
            ..WindowValues::default()
        };
        let scope = Scope::new(&params, &io).with_window(&window);
        assert_eq!(
            scope.render_arg("--offset=${window.offset}").as_deref(),
            Some("--offset=0")
        );
        assert_eq!(scope.render_arg("--q=${window.search}"), None);
        assert_eq!(
            scope
                .render_arg("${window.search}${window.filters.region}")
                .as_deref(),
            Some("eu")
        );
        assert_eq!(
            scope.render_arg("--sort=${window.sort}${window.sort_dir}"),
            None
        );
        assert_eq!(scope.render_arg("${params.empty}").as_deref(), Some(""));
        assert_eq!(scope.render_arg("plain").as_deref(), Some("plain"));
    }

    #[test]
    fn an_anchored_window_leaves_the_offset_empty() {
        let io = FakeIo::new();
        let params = params();
        let window = WindowValues {
            anchored: Some(AnchoredValues {
                cursor: None,
                dir: "older",
            }),
            ..WindowValues::default()
        };
        let scope = Scope::new(&params, &io).with_window(&window);
        assert_eq!(scope.render("from=${window.offset}"), "from=");
        let offsets = WindowValues::default();
        let scope = Scope::new(&params, &io).with_window(&offsets);
        assert_eq!(scope.render("from=${window.offset}"), "from=0");
    }

    #[test]
    fn cursor_is_unquoted_when_a_string_and_json_otherwise() {
        let io = FakeIo::new();
        let params = params();
        let mut window = WindowValues {
            anchored: Some(AnchoredValues {
                cursor: Some(json!("abc")),
                dir: "older",
            }),
            ..WindowValues::default()
        };
        let scope = Scope::new(&params, &io).with_window(&window);
        assert_eq!(scope.render("${window.cursor}/${window.dir}"), "abc/older");
        window.anchored = Some(AnchoredValues {
            cursor: Some(json!([1700000000000_i64, 7])),
            dir: "newer",
        });
        let scope = Scope::new(&params, &io).with_window(&window);
        assert_eq!(scope.render("${window.cursor}"), "[1700000000000,7]");
        window.anchored = Some(AnchoredValues {
            cursor: None,
            dir: "older",
        });
        let scope = Scope::new(&params, &io).with_window(&window);
        assert_eq!(scope.render_arg("--after=${window.cursor}"), None);
        assert_eq!(
            scope
                .render_arg("--dir=${window.dir}${window.cursor}")
                .as_deref(),
            Some("--dir=older")
        );
        assert_eq!(scope.render_arg("${window.cursor}"), None);
    }

    fn url_with(value: &str, template: &str) -> String {
        let io = FakeIo::new().with_env("BASE", "http://h:1/api?x=1");
        let params = BTreeMap::from([("v".to_owned(), value.to_owned())]);
        Scope::new(&params, &io).render_url(template)
    }

    #[test]
    fn url_values_are_encoded_for_their_part() {
        let query = "http://h/s?q=${params.v}&n=1";
        assert_eq!(
            url_with("a&admin=1", query),
            "http://h/s?q=a%26admin%3D1&n=1"
        );
        assert_eq!(url_with("a b", query), "http://h/s?q=a%20b&n=1");
        assert_eq!(url_with("x#frag", query), "http://h/s?q=x%23frag&n=1");
        assert_eq!(url_with("100%", query), "http://h/s?q=100%25&n=1");
        assert_eq!(url_with("é/ü", query), "http://h/s?q=%C3%A9%2F%C3%BC&n=1");
        let path = "http://h/apps/${params.v}/logs";
        assert_eq!(url_with("a/../b", path), "http://h/apps/a%2F..%2Fb/logs");
        assert_eq!(url_with("a b?c", path), "http://h/apps/a%20b%3Fc/logs");
        assert_eq!(url_with("x#y", path), "http://h/apps/x%23y/logs");
        assert_eq!(url_with("50%", path), "http://h/apps/50%25/logs");
        assert_eq!(url_with("naïve", path), "http://h/apps/na%C3%AFve/logs");
        assert_eq!(
            url_with("a&b", "http://h/p#${params.v}"),
            "http://h/p#a%26b"
        );
        assert_eq!(url_with("p", "ws://h:8/?t=${params.v}"), "ws://h:8/?t=p");
    }

    #[test]
    fn url_tokens_in_the_scheme_or_host_are_written_as_they_are() {
        assert_eq!(url_with("h:8/x", "http://${params.v}/a"), "http://h:8/x/a");
        assert_eq!(
            url_with("a b", "${env.BASE}/q/${params.v}"),
            "http://h:1/api?x=1/q/a%20b"
        );
        assert_eq!(url_with("a b", "${params.v}/q/${params.v}"), "a b/q/a b");
        assert_eq!(url_with("http://x/a?b", "${params.v}"), "http://x/a?b");
        assert_eq!(
            url_with("v", "http://h/${params.nope}"),
            "http://h/${params.nope}"
        );
    }
}
