//! The `${namespace.name}` template language of url, method, body, headers, path, command, env and
//! initial_messages values: one parser for the checker and the `try` engine.
//!
//! A template is literal text with tokens: `${params.NAME}`, `${env.NAME}` and the window tokens
//! `${window.offset}`, `${window.limit}`, `${window.search}`, `${window.sort}`,
//! `${window.sort_dir}`, `${window.cursor}`, `${window.dir}` and `${window.filters.NAME}`.
//! A `$` not followed by `{` is literal text.

use std::borrow::Cow;
use std::ops::Range;

/// One piece of a template: literal text or a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment<'a> {
    /// Text copied as written.
    Literal(&'a str),
    /// A `${…}` token.
    Token(Token<'a>),
}

/// A `${…}` token and where it stands inside the template string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// What the token names.
    pub kind: TokenKind<'a>,
    /// Byte range of the whole `${…}` inside the string.
    pub range: Range<usize>,
    /// The whole `${…}` as written: the string's text at `range`.
    pub written: &'a str,
}

/// What a token names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenKind<'a> {
    /// `${params.NAME}`: a declared parameter.
    Param(&'a str),
    /// `${env.NAME}`: an environment variable.
    Env(&'a str),
    /// `${window.…}`: a value of the window request being made.
    Window(WindowToken<'a>),
    /// `${selection}` or `${selection.COLUMN}`: the focused row of another component (a column of
    /// it, by its title as written, spaces included, or its 1-based cell number), filled in by
    /// the dashboard; `try` has no selection and leaves the token as written.
    Selection(Option<&'a str>),
}

/// The template namespaces: `params`, `env`, `window`, `selection`.
pub const NAMESPACES: &[&str] = &["params", "env", "window", "selection"];

/// The window tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WindowToken<'a> {
    /// `${window.offset}`: the first row wanted.
    Offset,
    /// `${window.limit}`: the page size (one more on an anchored window).
    Limit,
    /// `${window.search}`: bare terms joined with spaces.
    Search,
    /// `${window.sort}`: the sort column title.
    Sort,
    /// `${window.sort_dir}`: `asc`, `desc` or empty.
    SortDir,
    /// `${window.cursor}`: the edge item's cursor (anchored windows).
    Cursor,
    /// `${window.dir}`: `older` or `newer` (anchored windows).
    Dir,
    /// `${window.filters.NAME}`: a scoped term's value.
    Filter(&'a str),
}

impl WindowToken<'_> {
    /// The names a `${window.NAME}` token may use (without `filters.NAME`).
    pub const NAMES: &'static [&'static str] = &[
        "offset", "limit", "search", "sort", "sort_dir", "cursor", "dir", "filters",
    ];

    /// Whether the token carries filter input (search or a scoped filter).
    pub fn is_filter(&self) -> bool {
        matches!(self, WindowToken::Search | WindowToken::Filter(_))
    }
}

/// What is wrong with a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateErrorKind {
    /// `${` with no closing `}`.
    Unclosed,
    /// `${}` or a name with characters outside `[A-Za-z0-9_-]`, or missing pieces (`${params}`).
    Malformed,
    /// A namespace other than params, env, window and selection (the token stays literal).
    UnknownNamespace(String),
    /// `${window.NAME}` where NAME is not a window token.
    UnknownWindowToken(String),
}

/// A template error and where it is inside the string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError {
    /// What is wrong.
    pub kind: TemplateErrorKind,
    /// Byte range inside the string (the whole `${…}`, or from `${` to the end when unclosed).
    pub range: Range<usize>,
}

impl TemplateError {
    /// A one-line message naming the token.
    pub fn message(&self, text: &str) -> String {
        let written = text.get(self.range.clone()).unwrap_or("");
        match &self.kind {
            TemplateErrorKind::Unclosed => format!(
                "`{}` is not closed: a template token ends with `}}`",
                excerpt(written)
            ),
            TemplateErrorKind::Malformed => format!(
                "`{written}` is not a template token: write `${{params.NAME}}`, `${{env.NAME}}` or `${{window.NAME}}`"
            ),
            TemplateErrorKind::UnknownNamespace(namespace) => format!(
                "unknown template namespace `{namespace}` in `{written}`: it stays literal text"
            ),
            TemplateErrorKind::UnknownWindowToken(name) => {
                format!("unknown window token `{name}` in `{written}`")
            }
        }
    }
}

/// Most characters of a token quoted in a message.
const MAX_QUOTED_CHARS: usize = 40;

/// `written` as a message quotes it: its first line, at most [`MAX_QUOTED_CHARS`] characters, with
/// an ellipsis when cut (an unclosed `${` runs to the end of a value that may be 100 KB long).
fn excerpt(written: &str) -> Cow<'_, str> {
    let line = written.lines().next().unwrap_or("");
    match line.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((cut, _)) => Cow::Owned(format!("{}…", &line[..cut])),
        None if line.len() < written.len() => Cow::Owned(format!("{line}…")),
        None => Cow::Borrowed(written),
    }
}

/// A parsed template: its segments in order, and any errors (malformed tokens stay literal text).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Template<'a> {
    /// Literal text and tokens, in order.
    pub segments: Vec<Segment<'a>>,
    /// Problems found, in order.
    pub errors: Vec<TemplateError>,
}

impl<'a> Template<'a> {
    /// Parses `text`. Never fails: malformed tokens are kept as literal text and reported.
    pub fn parse(text: &'a str) -> Template<'a> {
        let mut template = Template::default();
        let mut literal_start = 0;
        let mut cursor = 0;
        while let Some(start) = token_start(text, cursor) {
            // A byte loop: a template's tokens are short, shorter than a substring search's setup.
            let Some(close) = text.as_bytes()[start + 2..]
                .iter()
                .position(|&byte| byte == b'}')
            else {
                template.errors.push(TemplateError {
                    kind: TemplateErrorKind::Unclosed,
                    range: start..text.len(),
                });
                break;
            };
            let end = start + 2 + close + 1;
            let inner = &text[start + 2..end - 1];
            match classify(inner) {
                Ok(kind) => {
                    if literal_start < start {
                        template
                            .segments
                            .push(Segment::Literal(&text[literal_start..start]));
                    }
                    template.segments.push(Segment::Token(Token {
                        kind,
                        range: start..end,
                        written: &text[start..end],
                    }));
                    literal_start = end;
                }
                Err(kind) => template.errors.push(TemplateError {
                    kind,
                    range: start..end,
                }),
            }
            cursor = end;
        }
        if literal_start < text.len() {
            template
                .segments
                .push(Segment::Literal(&text[literal_start..]));
        }
        template
    }

    /// The tokens, in order.
    pub fn tokens(&self) -> impl Iterator<Item = &Token<'a>> {
        self.segments.iter().filter_map(|segment| match segment {
            Segment::Token(token) => Some(token),
            Segment::Literal(_) => None,
        })
    }

    /// Whether the template has no tokens at all.
    pub fn is_literal(&self) -> bool {
        self.tokens().next().is_none()
    }

    /// For a URL template: where each token stands, in order. `${env.NAME}` in the scheme or host
    /// is taken as a base URL (what follows is its host or path); any other token there makes
    /// every later token [`UrlPart::Unknown`].
    pub fn url_parts(&self) -> Vec<UrlPart> {
        let mut part = UrlPart::Scheme;
        let mut parts = Vec::new();
        for segment in &self.segments {
            match segment {
                Segment::Literal(literal) => part = part.after_literal(literal),
                Segment::Token(token) => {
                    parts.push(part);
                    part = match (part, &token.kind) {
                        (UrlPart::Path | UrlPart::Query | UrlPart::Fragment, _) => part,
                        (UrlPart::Unknown, _) => UrlPart::Unknown,
                        (_, TokenKind::Env(_)) => UrlPart::Authority,
                        _ => UrlPart::Unknown,
                    };
                }
            }
        }
        parts
    }

    /// Renders the template, asking `resolve` for each token's value; `None` keeps the token as
    /// written (an undeclared `${params.X}` stays literal).
    pub fn render(&self, mut resolve: impl FnMut(&TokenKind<'a>) -> Option<String>) -> String {
        let written = self.segments.iter().map(|segment| match segment {
            Segment::Literal(literal) => literal.len(),
            Segment::Token(token) => token.written.len(),
        });
        let mut out = String::with_capacity(written.sum());
        for segment in &self.segments {
            match segment {
                Segment::Literal(literal) => out.push_str(literal),
                Segment::Token(token) => match resolve(&token.kind) {
                    Some(value) => out.push_str(&value),
                    None => out.push_str(token.written),
                },
            }
        }
        out
    }
}

/// Where in a URL template a token stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UrlPart {
    /// The scheme, up to `://`.
    Scheme,
    /// The slashes of `://` still to pass.
    Slashes(u8),
    /// The host, port and user info.
    Authority,
    /// The path.
    Path,
    /// The query.
    Query,
    /// The fragment.
    Fragment,
    /// After a token in the scheme or host: the rest cannot be placed.
    Unknown,
}

impl UrlPart {
    /// Whether a value standing here can be percent-encoded (path, query or fragment); in the
    /// scheme or host, or after a token there, it cannot be decided.
    pub fn is_encodable(self) -> bool {
        matches!(self, UrlPart::Path | UrlPart::Query | UrlPart::Fragment)
    }

    /// The part after the literal text `literal`. Only ASCII characters move it, so the text is
    /// walked byte by byte (a multi-byte character moves it as its first byte does); the fragment
    /// and an unknown part are never left, so the walk stops there.
    fn after_literal(self, literal: &str) -> UrlPart {
        let bytes = literal.as_bytes();
        let mut part = self;
        for (index, &byte) in bytes.iter().enumerate() {
            if matches!(part, UrlPart::Fragment | UrlPart::Unknown) {
                break;
            }
            part = part.after(byte, &bytes[index..]);
        }
        part
    }

    /// The part after the literal byte `c`; `rest` is the literal text from `c` on. A token right
    /// after `://` stands in the host.
    fn after(self, c: u8, rest: &[u8]) -> UrlPart {
        match (self, c) {
            (UrlPart::Unknown, _) => UrlPart::Unknown,
            (UrlPart::Fragment, _) | (_, b'#') => UrlPart::Fragment,
            (UrlPart::Query, _) | (_, b'?') => UrlPart::Query,
            (UrlPart::Scheme, b':') if rest.starts_with(b"://") => UrlPart::Slashes(2),
            (UrlPart::Slashes(2), b'/') => UrlPart::Slashes(1),
            (UrlPart::Slashes(_), _) => UrlPart::Authority,
            (UrlPart::Authority | UrlPart::Path, b'/') => UrlPart::Path,
            (part, _) => part,
        }
    }
}

/// The offset of the first `${` at or after `from`. Templates are short and most hold a `$` only
/// where a token starts: a scan for `$` costs less than setting up a substring search.
fn token_start(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(found) = bytes.get(at..)?.iter().position(|&byte| byte == b'$') {
        let dollar = at + found;
        if bytes.get(dollar + 1) == Some(&b'{') {
            return Some(dollar);
        }
        at = dollar + 1;
    }
    None
}

/// Whether `name` can be written after a namespace in a token (`${params.NAME}`,
/// `${window.filters.NAME}`): ASCII letters, digits, `_` and `-`.
pub fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn classify(inner: &str) -> Result<TokenKind<'_>, TemplateErrorKind> {
    let inner_trimmed = inner.trim();
    let Some((namespace, name)) = inner_trimmed.split_once('.') else {
        return match inner_trimmed {
            "selection" => Ok(TokenKind::Selection(None)),
            "params" | "env" | "window" | "" => Err(TemplateErrorKind::Malformed),
            other if is_name(other) => Err(TemplateErrorKind::UnknownNamespace(other.to_owned())),
            _ => Err(TemplateErrorKind::Malformed),
        };
    };
    if inner_trimmed.len() != inner.len() {
        return Err(TemplateErrorKind::Malformed);
    }
    match namespace {
        "params" if is_name(name) => Ok(TokenKind::Param(name)),
        "env" if is_name(name) => Ok(TokenKind::Env(name)),
        "window" => window_token(name).map(TokenKind::Window),
        // A column title is matched exactly (bar case), spaces and all: `${selection.Last Seen}`.
        "selection" if !name.is_empty() => Ok(TokenKind::Selection(Some(name))),
        "params" | "env" | "selection" => Err(TemplateErrorKind::Malformed),
        other if is_name(other) => Err(TemplateErrorKind::UnknownNamespace(other.to_owned())),
        _ => Err(TemplateErrorKind::Malformed),
    }
}

/// The token `${window.NAME}` names, or why `NAME` names none.
pub fn window_token(name: &str) -> Result<WindowToken<'_>, TemplateErrorKind> {
    Ok(match name {
        "offset" => WindowToken::Offset,
        "limit" => WindowToken::Limit,
        "search" => WindowToken::Search,
        "sort" => WindowToken::Sort,
        "sort_dir" => WindowToken::SortDir,
        "cursor" => WindowToken::Cursor,
        "dir" => WindowToken::Dir,
        _ => match name.strip_prefix("filters.") {
            Some(filter) if is_name(filter) => WindowToken::Filter(filter),
            Some(_) => return Err(TemplateErrorKind::Malformed),
            None => return Err(TemplateErrorKind::UnknownWindowToken(name.to_owned())),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_literals_and_tokens_with_ranges() {
        let text = "https://x/${params.id}?q=${window.search}&f=${window.filters.region}";
        let template = Template::parse(text);
        assert!(template.errors.is_empty());
        let tokens: Vec<_> = template.tokens().collect();
        assert_eq!(tokens[0].kind, TokenKind::Param("id"));
        assert_eq!(&text[tokens[0].range.clone()], "${params.id}");
        assert_eq!(tokens[1].kind, TokenKind::Window(WindowToken::Search));
        assert_eq!(
            tokens[2].kind,
            TokenKind::Window(WindowToken::Filter("region"))
        );
        assert_eq!(template.segments.len(), 6);
    }

    #[test]
    fn an_unclosed_token_quotes_at_most_one_short_line() {
        let long = format!("x ${{params.id {}", "y".repeat(100_000));
        let template = Template::parse(&long);
        let message = template.errors[0].message(&long);
        assert_eq!(
            message,
            format!(
                "`${{params.id {}…` is not closed: a template token ends with `}}`",
                "y".repeat(28)
            )
        );
        let lines = "${params.id\nmore text";
        let message = Template::parse(lines).errors[0].message(lines);
        assert_eq!(
            message,
            "`${params.id…` is not closed: a template token ends with `}`"
        );
        let short = "${params.id";
        let message = Template::parse(short).errors[0].message(short);
        assert_eq!(
            message,
            "`${params.id` is not closed: a template token ends with `}`"
        );
    }

    #[test]
    fn reports_every_malformed_token_and_keeps_going() {
        let text = "${foo.bar} ${params} ${window.size} ${} ${env.HOME} ${params.x";
        let template = Template::parse(text);
        let kinds: Vec<_> = template.errors.iter().map(|e| e.kind.clone()).collect();
        assert_eq!(
            kinds,
            vec![
                TemplateErrorKind::UnknownNamespace("foo".into()),
                TemplateErrorKind::Malformed,
                TemplateErrorKind::UnknownWindowToken("size".into()),
                TemplateErrorKind::Malformed,
                TemplateErrorKind::Unclosed,
            ]
        );
        assert_eq!(template.tokens().count(), 1);
        assert_eq!(&text[template.errors[2].range.clone()], "${window.size}");
        assert!(template.errors[0].message(text).contains("`foo`"));
    }

    #[test]
    fn selection_tokens_are_tokens() {
        let text = "/apps/${selection.id}?row=${selection}";
        let template = Template::parse(text);
        assert!(template.errors.is_empty());
        let kinds: Vec<_> = template.tokens().map(|token| token.kind.clone()).collect();
        assert_eq!(
            kinds,
            [TokenKind::Selection(Some("id")), TokenKind::Selection(None)]
        );
        let spaced = Template::parse("${selection.Last Seen}");
        assert!(spaced.errors.is_empty());
        assert_eq!(
            spaced.tokens().next().map(|token| token.kind.clone()),
            Some(TokenKind::Selection(Some("Last Seen")))
        );
        let bad = Template::parse("${selection.}");
        assert_eq!(bad.errors[0].kind, TemplateErrorKind::Malformed);
    }

    #[test]
    fn renders_and_keeps_unresolved_tokens_literal() {
        let text = "a ${params.x} b ${params.y} $5";
        let template = Template::parse(text);
        let out = template.render(|kind| match kind {
            TokenKind::Param("x") => Some("1".into()),
            _ => None,
        });
        assert_eq!(out, "a 1 b ${params.y} $5");
        assert!(Template::parse("plain $ text").is_literal());
    }

    #[test]
    fn an_unresolved_token_is_copied_from_the_text_it_was_parsed_from() {
        // `render` took the text a second time and sliced it at the token's range: handed any
        // other text (here `é`, two bytes, for a token at 0..11) it panicked.
        let text = "é${params.y}ü${env.Z}";
        let template = Template::parse(text);
        assert_eq!(template.render(|_| None), text);
        assert_eq!(
            template.render(|kind| match kind {
                TokenKind::Env("Z") => Some("ß".into()),
                _ => None,
            }),
            "é${params.y}üß"
        );
    }

    #[test]
    fn a_token_starts_at_the_dollar_right_before_its_brace() {
        let text = "$$${env.HOME}$x/${params.id}$";
        let template = Template::parse(text);
        assert!(template.errors.is_empty());
        let ranges: Vec<&str> = template
            .tokens()
            .map(|token| &text[token.range.clone()])
            .collect();
        assert_eq!(ranges, ["${env.HOME}", "${params.id}"]);
        let written: Vec<&str> = template.tokens().map(|token| token.written).collect();
        assert_eq!(written, ranges);
        assert_eq!(template.segments.first(), Some(&Segment::Literal("$$")));
        assert!(Template::parse("$").is_literal() && Template::parse("").segments.is_empty());
    }
}
