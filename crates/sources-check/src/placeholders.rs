//! What lint renders a template value with before it asks `request`'s constructors about it: each
//! `${…}` token replaced by a value that stands for what `try` would put there.
//!
//! A parameter stands for its default when it has one (then `try` renders exactly that), else for
//! [`sample`] of its type; `${env.NAME}` for [`ENV_SAMPLE`]; `${selection…}` for
//! [`ENCODED_SAMPLE`], as the dashboard fills it in (`try`, which has no selection, leaves it as
//! written: a value it makes unsendable there is not lint's to refuse); a window token for its value on the first request
//! (offset 0, text tokens empty, no cursor). In an `http` or websocket url a token in the path,
//! query or fragment stands for [`ENCODED_SAMPLE`]: `try` percent-encodes what it writes there,
//! so any value is as good as any other. A value that starts with a token (a url or program taken
//! from the environment) is left to run time.

use sources_config::enums::ParamType;
use sources_config::template::{Segment, Template, TokenKind, WindowToken};
use sources_config::{Field, Source};

/// What a parameter without a default stands for, by type: a value a user could pass.
pub fn sample(kind: ParamType) -> &'static str {
    match kind {
        ParamType::String | ParamType::Int => "0",
        ParamType::Bool => "true",
        ParamType::Duration => "1s",
    }
}

/// What `${env.NAME}` stands for.
pub const ENV_SAMPLE: &str = "0";

/// What any token stands for where `try` percent-encodes its value.
pub const ENCODED_SAMPLE: &str = "0";

/// The values one entry's tokens stand for.
pub(crate) struct Placeholders<'s> {
    /// Each parameter's value, borrowed from the entry (or a sample of its type); for a name
    /// listed twice the last one holds. An entry declares a few parameters: a list is searched
    /// faster than a table is built.
    params: Vec<(&'s str, &'s str)>,
    /// Whether the entry's window is anchored (has a `cursor`): its first request has no offset.
    anchored: bool,
}

impl<'s> Placeholders<'s> {
    /// The placeholders of `source`'s declared parameters.
    pub(crate) fn of(source: &'s Source) -> Placeholders<'s> {
        let declared = source
            .body
            .common()
            .and_then(|common| common.parameters.as_ref());
        let params = declared
            .iter()
            .flat_map(|parameters| parameters.value.iter())
            .map(|param| {
                let declared = &param.value.value;
                let value = match &declared.default {
                    Some(default) => default.value.as_str(),
                    None => sample(
                        declared
                            .kind
                            .as_ref()
                            .map_or(ParamType::String, field_value),
                    ),
                };
                (param.name.value.as_str(), value)
            })
            .collect();
        let window = match &source.body {
            sources_config::Body::Http(http) => http.window.as_deref(),
            sources_config::Body::Exec(exec) => exec.window.as_deref(),
            _ => None,
        };
        let anchored = window.is_some_and(|window| window.value.cursor.is_some());
        Placeholders { params, anchored }
    }

    /// The parameters of `source` that render empty when it is read by an entry that supplies
    /// only those named in `supplied`: each optional one without a default, as `try` binds it (a
    /// required one is left to `unbound-param`).
    pub(crate) fn unsupplied(source: &Source, supplied: &[&str]) -> Vec<String> {
        let declared = source
            .body
            .common()
            .and_then(|common| common.parameters.as_ref());
        let mut names: Vec<String> = Vec::new();
        for param in declared
            .iter()
            .flat_map(|parameters| parameters.value.iter())
        {
            let name = &param.name.value;
            let declaration = &param.value.value;
            let required = declaration.required.as_ref().is_some_and(|r| r.value);
            if declaration.default.is_none()
                && !required
                && !supplied.contains(&name.as_str())
                && !names.contains(name)
            {
                names.push(name.clone());
            }
        }
        names
    }

    /// The placeholders of `source` with the parameters `empty` rendered empty.
    pub(crate) fn with_empty(source: &'s Source, empty: &'s [String]) -> Placeholders<'s> {
        let mut placeholders = Placeholders::of(source);
        for name in empty {
            placeholders.params.push((name, ""));
        }
        placeholders
    }

    /// The value standing for the parameter `name`, when it is declared.
    fn param(&self, name: &str) -> Option<&'s str> {
        self.params
            .iter()
            .rev()
            .find(|(declared, _)| *declared == name)
            .map(|(_, value)| *value)
    }

    /// The value standing for one token (`None`: it stays as written, as in `try`).
    fn value(&self, kind: &TokenKind<'_>) -> Option<&'s str> {
        match kind {
            TokenKind::Param(name) => self.param(name),
            TokenKind::Env(_) => Some(ENV_SAMPLE),
            // Filled in by the dashboard; `try`, which has none, leaves it as written.
            TokenKind::Selection(_) => Some(ENCODED_SAMPLE),
            TokenKind::Window(token) => Some(match token {
                // An anchored window has no offsets: `try` leaves the token empty.
                WindowToken::Offset if self.anchored => "",
                WindowToken::Offset | WindowToken::Limit => "1",
                WindowToken::Dir => "older",
                WindowToken::Search
                | WindowToken::Sort
                | WindowToken::SortDir
                | WindowToken::Cursor
                | WindowToken::Filter(_) => "",
            }),
        }
    }

    /// `template` with each token replaced by the value standing for it (one without a value
    /// stays as written), as `Template::render` renders it, without a string per token.
    fn render(&self, template: &Template<'_>) -> String {
        let mut out = String::with_capacity(written_len(template));
        for segment in &template.segments {
            match segment {
                Segment::Literal(literal) => out.push_str(literal),
                Segment::Token(token) => {
                    out.push_str(self.value(&token.kind).unwrap_or(token.written));
                }
            }
        }
        out
    }

    /// Whether `template` has a `${params.NAME}` token naming no declared parameter (it stays as
    /// written, and `params` reports it).
    pub(crate) fn names_undeclared(&self, template: &Template<'_>) -> bool {
        template.segments.iter().any(|segment| {
            matches!(segment, Segment::Token(token)
                if matches!(token.kind, TokenKind::Param(name) if self.param(name).is_none()))
        })
    }

    /// `template` rendered whatever it starts with (a malformed token stays as written): for a
    /// value whose every rendering is judged alike (a NUL byte, an empty path).
    pub(crate) fn render_whole(&self, template: &Template<'_>) -> String {
        self.render(template)
    }

    /// An `http` or websocket url rendered as `try` renders it (see [`Placeholders::render`]).
    pub(crate) fn render_url(&self, template: &Template<'_>) -> Option<String> {
        if !judged(template) {
            return None;
        }
        let mut parts = template.url_parts().into_iter();
        let mut out = String::with_capacity(written_len(template));
        for segment in &template.segments {
            match segment {
                Segment::Literal(literal) => out.push_str(literal),
                Segment::Token(token) => {
                    let encoded = parts.next().is_some_and(|part| part.is_encodable());
                    match self.value(&token.kind) {
                        None => out.push_str(token.written),
                        Some(_) if encoded => out.push_str(ENCODED_SAMPLE),
                        Some(value) => out.push_str(value),
                    }
                }
            }
        }
        Some(out)
    }

    /// An anchored window's `body` rendered for its first request, as `try` renders it: window
    /// text tokens escaped for a JSON string; `None` when it holds a `${selection…}` token (filled
    /// in only by the dashboard) or cannot be judged.
    pub(crate) fn render_body(&self, template: &Template<'_>) -> Option<String> {
        if !template.errors.is_empty() {
            return None;
        }
        let selection = template.segments.iter().any(|segment| {
            matches!(segment, Segment::Token(token) if matches!(token.kind, TokenKind::Selection(_)))
        });
        (!selection).then(|| self.render(template))
    }
}

fn field_value<T: Copy>(field: &Field<T>) -> T {
    field.value
}

/// The length of `template` as written.
fn written_len(template: &Template<'_>) -> usize {
    template
        .segments
        .iter()
        .map(|segment| match segment {
            Segment::Literal(literal) => literal.len(),
            Segment::Token(token) => token.written.len(),
        })
        .sum()
}

/// Whether a url can be judged before run time: it parsed without errors and does not start
/// with a token.
fn judged(template: &Template<'_>) -> bool {
    let starts_with_token = matches!(template.segments.first(), Some(Segment::Token(_)));
    template.errors.is_empty() && !starts_with_token
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placeholders() -> Placeholders<'static> {
        Placeholders {
            params: vec![("host", "a b")],
            anchored: true,
        }
    }

    #[test]
    fn urls_render_encoded_parts_with_a_sample_and_the_host_as_it_is() {
        let p = placeholders();
        let render_url = |text: &str| p.render_url(&Template::parse(text));
        assert_eq!(
            render_url("https://api.example.com/x/${params.host}?q=${env.Q}#${selection.id}"),
            Some("https://api.example.com/x/0?q=0#0".to_owned())
        );
        // After a token in the host nothing can be placed, so nothing is encoded, as in `try`.
        assert_eq!(
            render_url("https://${params.host}/x/${params.host}?q=${env.Q}#${selection.id}"),
            Some("https://a b/x/a b?q=0#0".to_owned())
        );
        assert_eq!(render_url("${env.BASE}/items"), None);
        assert_eq!(render_url("https://x/${params.bad"), None);
    }

    #[test]
    fn an_anchored_body_renders_first_request_values() {
        let p = placeholders();
        let render_body = |text: &str| p.render_body(&Template::parse(text));
        assert_eq!(
            render_body(
                r#"{"size": ${window.limit}, "q": ${window.search}, "from": ${window.offset}}"#
            ),
            Some(r#"{"size": 1, "q": , "from": }"#.to_owned())
        );
        assert_eq!(render_body(r#"{"id": ${selection.id}}"#), None);
    }
}
