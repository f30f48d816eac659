//! Template substitution: `${params.NAME}`, `${env.NAME}` and the `${window.*}` tokens, through
//! the one template parser in `sources_config::template`.
//!
//! An undeclared `${params.X}` stays literal (the bound parameter map holds every declared name),
//! as does a window token where no window request is being made.

use std::collections::BTreeMap;

use serde_json::Value;
use sources_config::template::{Template, TokenKind, WindowToken};

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
        template.render(text, |kind| self.resolve(kind, Escape::None))
    }

    /// Renders a request `body`: `${window.search}` and `${window.filters.NAME}` are escaped for a
    /// JSON string and `${window.limit}` is a number.
    pub fn render_body(&self, text: &str) -> String {
        let template = Template::parse(text);
        template.render(text, |kind| self.resolve(kind, Escape::JsonString))
    }

    /// Renders one argv element; `None` when it has window tokens and every one of them resolves
    /// empty (the element is dropped).
    pub fn render_arg(&self, text: &str) -> Option<String> {
        let template = Template::parse(text);
        let mut window_tokens = 0;
        let mut all_empty = true;
        let rendered = template.render(text, |kind| {
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
}
