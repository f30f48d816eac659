//! Semantic tokens: entry names (declared and referenced), kinds, field keys, parameters, the
//! parts of `${…}` templates inside strings, expressions (in the language the project's settings
//! select) and durations, so templates and expressions stand out inside plain YAML and TOML
//! strings.
//!
//! Everything comes from the analysis: spans of the decoded model, the checker's template and
//! expression sites, and offsets inside strings mapped back to the file through
//! `sources_syntax::str_offset`. Expression text is split by `sources_expr::Language::tokens`. The last result per
//! document is kept so `full/delta` can answer with one edit.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use sources_config::model::{Body, Growing, Source, Stage};
use sources_config::template::{Template, TokenKind};
use sources_config::{Config, Enumeration, Field, Text, name_span};
use sources_expr::{Language, Token};
use sources_syntax::{Node, ScalarStyle, Span, Str, Value};
use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensDelta,
    SemanticTokensEdit, SemanticTokensLegend, Uri,
};

use crate::document::Analyzed;
use crate::position::Positions;

/// The token types, in legend order.
const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::TYPE,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::KEYWORD,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::OPERATOR,
];

/// The token modifiers, in legend order (bit `1 << index`).
const MODIFIERS: &[SemanticTokenModifier] = &[
    SemanticTokenModifier::DECLARATION,
    SemanticTokenModifier::READONLY,
    SemanticTokenModifier::DEFAULT_LIBRARY,
];

/// A token type, by its index in [`TYPES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Namespace = 0,
    Type = 1,
    Variable = 2,
    Property = 3,
    Parameter = 4,
    Function = 5,
    Keyword = 6,
    String = 7,
    Number = 8,
    Operator = 9,
}

const DECLARATION: u32 = 1;
const READONLY: u32 = 1 << 1;
const DEFAULT_LIBRARY: u32 = 1 << 2;

/// The legend the server announces.
pub(crate) fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: MODIFIERS.to_vec(),
    }
}

/// One token before encoding: its span in the file, type and modifier bits.
#[derive(Clone, Copy, Debug)]
struct Raw {
    span: Span,
    kind: Kind,
    modifiers: u32,
}

/// Collects tokens over one document.
struct Collector<'a> {
    file: &'a str,
    /// The language the document's expressions are written in.
    language: Language,
    out: Vec<Raw>,
}

impl Collector<'_> {
    fn push(&mut self, span: Span, kind: Kind, modifiers: u32) {
        if span.start() < span.end() {
            self.out.push(Raw {
                span,
                kind,
                modifiers,
            });
        }
    }

    /// A name written at `span` (maybe quoted): the token covers the bare name.
    fn name(&mut self, span: Span, name: &str, kind: Kind, modifiers: u32) {
        self.push(name_span(span, name).unwrap_or(span), kind, modifiers);
    }

    fn key<T>(&mut self, field: &Option<Field<T>>) {
        if let Some(field) = field {
            self.push(field.key_span, Kind::Property, 0);
        }
    }

    /// A duration value: the token covers its text inside any quotes.
    fn duration<T>(&mut self, field: Option<&Field<T>>) {
        if let Some(field) = field {
            let span = field.value_span;
            let written = self.file.get(span.range()).unwrap_or("");
            let quoted = written.len() >= 2
                && (written.starts_with('"') && written.ends_with('"')
                    || written.starts_with('\'') && written.ends_with('\''));
            let inner = if quoted {
                Span::new(span.start() + 1, span.end() - 1)
            } else {
                span
            };
            self.push(inner, Kind::Number, 0);
        }
    }

    /// The parts of every `${…}` token of a template string.
    fn template(&mut self, text: &str, style: ScalarStyle, span: Span) {
        let template = Template::parse(text);
        if template.is_literal() {
            return;
        }
        let map = mapped(self.file, text, style, span);
        let mut found = Vec::new();
        for token in template.tokens() {
            let range = token.range.clone();
            let inner = &text[range.start + 2..range.end - 1];
            let (namespace, rest) = inner.split_once('.').unwrap_or((inner, ""));
            let namespace_start = range.start + 2;
            let name_start = namespace_start + namespace.len() + 1;
            found.push((range.start..range.start + 2, Kind::Operator, 0));
            found.push((
                namespace_start..namespace_start + namespace.len(),
                Kind::Namespace,
                0,
            ));
            let name_kind = match token.kind {
                TokenKind::Param(_) => (Kind::Parameter, 0),
                TokenKind::Env(_) => (Kind::Variable, READONLY),
                TokenKind::Window(_) => (Kind::Property, DEFAULT_LIBRARY),
                TokenKind::Selection(_) => (Kind::Property, 0),
            };
            if !rest.is_empty() {
                found.push((
                    name_start..name_start + rest.len(),
                    name_kind.0,
                    name_kind.1,
                ));
            }
            found.push((range.end - 1..range.end, Kind::Operator, 0));
        }
        let spans: Vec<(Span, Kind, u32)> = found
            .into_iter()
            .filter_map(|(range, kind, modifiers)| Some((map(range)?, kind, modifiers)))
            .collect();
        for (span, kind, modifiers) in spans {
            self.push(span, kind, modifiers);
        }
    }

    /// The tokens of an expression, in the document's language.
    fn expression(&mut self, text: &Text, span: Span) {
        let map = mapped(self.file, &text.text, text.style, span);
        let spans: Vec<(Span, Kind)> = self
            .language
            .tokens(&text.text)
            .into_iter()
            .filter_map(|(token, range)| {
                let kind = match token {
                    Token::Identifier => Kind::Variable,
                    Token::Function => Kind::Function,
                    Token::Namespace => Kind::Namespace,
                    Token::Keyword => Kind::Keyword,
                    Token::Number => Kind::Number,
                    Token::String => Kind::String,
                    Token::Operator => Kind::Operator,
                };
                Some((map(range)?, kind))
            })
            .collect();
        for (span, kind) in spans {
            self.push(span, kind, 0);
        }
    }

    /// Keys, kinds, durations and expressions of a body (an entry's or a stage's).
    fn body(&mut self, body: &Body) {
        for site in sources_check::expression_sites(body) {
            self.expression(site.text, site.span);
        }
        if let Some(common) = body.common() {
            for param in common
                .parameters
                .iter()
                .flat_map(|parameters| parameters.value.iter())
            {
                self.name(
                    param.name.span,
                    &param.name.value,
                    Kind::Parameter,
                    DECLARATION,
                );
                let declared = &param.value.value;
                self.key(&declared.kind);
                self.key(&declared.required);
                self.key(&declared.default);
                self.key(&declared.description);
                self.key(&declared.label);
                self.key(&declared.placeholder);
                self.key(&declared.options);
                self.key(&declared.mask);
                self.key(&declared.order);
            }
            for stage in common.pipe.iter().flat_map(|pipe| pipe.value.iter()) {
                self.stage(&stage.value);
            }
        }
        if let Some(leaf) = body.leaf() {
            self.duration(leaf.refresh.as_deref());
            self.duration(leaf.timeout.as_deref());
            if let Some(cache) = &leaf.cache {
                self.key(&cache.value.ttl);
                self.key(&cache.value.size);
                self.duration(cache.value.ttl.as_ref());
            }
        }
        if let Body::Cache(cache) = body {
            self.duration(cache.ttl.as_ref());
        }
        if let Body::Http(http) = body
            && let Some(paginate) = &http.paginate
        {
            let paginate = &paginate.value;
            self.key(&paginate.strategy);
            self.key(&paginate.next_path);
            self.key(&paginate.max_pages);
            self.key(&paginate.on_page_error);
        }
        if let Some(window) = body.window() {
            let window = &window.value;
            for key in [
                window.page_size.as_ref().map(|field| field.key_span),
                window.prefetch.as_ref().map(|field| field.key_span),
                window.total_path.as_ref().map(|field| field.key_span),
                window.filters.as_ref().map(|field| field.key_span),
                window.offset_param.as_ref().map(|field| field.key_span),
                window.limit_param.as_ref().map(|field| field.key_span),
                window.search_param.as_ref().map(|field| field.key_span),
                window.sort_param.as_ref().map(|field| field.key_span),
                window.sorts.as_ref().map(|field| field.key_span),
                window.sort_desc_prefix.as_ref().map(|field| field.key_span),
                window.cursor.as_ref().map(|field| field.key_span),
                window.older.as_ref().map(|field| field.key_span),
                window.newer.as_ref().map(|field| field.key_span),
                window.anchor.as_ref().map(|field| field.key_span),
                window.growing.as_ref().map(|field| field.key_span),
                window.follow_every.as_ref().map(|field| field.key_span),
            ]
            .into_iter()
            .flatten()
            {
                self.push(key, Kind::Property, 0);
            }
            self.duration(window.follow_every.as_ref());
            if let Some(growing) = &window.growing
                && let Growing::While(condition) = &growing.value
            {
                self.key(&condition.source);
                self.key(&condition.condition);
                if let Some(expression) = &condition.condition {
                    self.expression(&expression.value, expression.value_span);
                }
            }
        }
    }

    fn stage(&mut self, stage: &Stage) {
        for key in &stage.keys {
            self.push(key.span, Kind::Property, 0);
        }
        if let Some(kind) = &stage.kind {
            self.push(kind.span, Kind::Type, 0);
        }
        self.body(&stage.body);
    }

    fn entry(&mut self, source: &Source) {
        self.name(
            source.name.span,
            &source.name.value,
            Kind::Variable,
            DECLARATION,
        );
        for key in &source.keys {
            self.push(key.span, Kind::Property, 0);
        }
        if let Some(kind) = &source.kind {
            self.name(kind.span, kind.value.as_str(), Kind::Type, 0);
        }
        for reference in source.references() {
            self.name(
                reference.name.span,
                &reference.name.value,
                Kind::Variable,
                0,
            );
        }
        for site in sources_check::template_sites(source) {
            self.template(site.text, site.style, site.span);
        }
        self.body(&source.body);
    }
}

/// Maps byte ranges inside the string `text` (written at `span` in `style`) to file spans; `None`
/// for a range that cannot be mapped exactly or spans lines.
fn mapped<'a>(
    file: &'a str,
    text: &str,
    style: ScalarStyle,
    span: Span,
) -> impl Fn(std::ops::Range<usize>) -> Option<Span> + 'a {
    let node = Node::new(
        Value::Str(Str {
            text: text.into(),
            style,
        }),
        span,
    );
    move |range: std::ops::Range<usize>| {
        let start = sources_syntax::str_offset(file, &node, range.start)?;
        let end = sources_syntax::str_offset(file, &node, range.end)?;
        (start < end && !file.get(start..end)?.contains('\n')).then(|| Span::new(start, end))
    }
}

/// The tokens of a configuration, sorted, without overlaps, as file spans.
fn collect(config: &Config, file: &str, language: Language) -> Vec<Raw> {
    let mut collector = Collector {
        file,
        language,
        out: Vec::new(),
    };
    for source in &config.entries {
        collector.entry(source);
    }
    for component in &config.components {
        if let Some(source) = &component.source {
            collector.name(source.span, &source.value, Kind::Variable, 0);
        }
    }
    let mut tokens = collector.out;
    tokens.sort_by_key(|token| (token.span.start(), token.span.end()));
    let mut kept: Vec<Raw> = Vec::with_capacity(tokens.len());
    for token in tokens {
        if kept
            .last()
            .is_none_or(|last| last.span.end() <= token.span.start())
        {
            kept.push(token);
        }
    }
    kept
}

/// The document's tokens in `within` (the whole document when `None`), encoded relative to each
/// other as the protocol wants. Tokens spanning lines are left out.
pub(crate) fn tokens(
    analyzed: &Analyzed,
    positions: Positions<'_>,
    within: Option<Span>,
) -> Vec<SemanticToken> {
    let analysis = &analyzed.analysis;
    if !analysis.has_sources {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (mut line, mut character) = (0, 0);
    for token in collect(&analysis.config, analyzed.text(), analysis.language) {
        if within.is_some_and(|within| {
            token.span.end() <= within.start() || token.span.start() >= within.end()
        }) {
            continue;
        }
        let range = positions.range(token.span);
        if range.start.line != range.end.line {
            continue;
        }
        let delta_line = range.start.line - line;
        let delta_start = if delta_line == 0 {
            range.start.character - character
        } else {
            range.start.character
        };
        out.push(SemanticToken {
            delta_line,
            delta_start,
            length: range.end.character - range.start.character,
            token_type: token.kind as u32,
            token_modifiers_bitset: token.modifiers,
        });
        line = range.start.line;
        character = range.start.character;
    }
    out
}

/// The last full result sent per document, for `full/delta`.
#[derive(Debug, Default)]
pub(crate) struct Sent {
    results: Mutex<HashMap<Uri, (String, Vec<SemanticToken>)>>,
    next_id: std::sync::atomic::AtomicU64,
}

impl Sent {
    /// Remembers `data` as the latest result for `uri` and returns it with its new result id.
    pub(crate) fn full(&self, uri: &Uri, data: Vec<SemanticToken>) -> SemanticTokens {
        let id = self.remember(uri, data.clone());
        SemanticTokens {
            result_id: Some(id),
            data,
        }
    }

    /// The edit from the result `previous` to `data`, or `None` when `previous` is not the last
    /// result sent for `uri` (the caller then sends the full tokens).
    pub(crate) fn delta(
        &self,
        uri: &Uri,
        previous: &str,
        data: Vec<SemanticToken>,
    ) -> Option<SemanticTokensDelta> {
        let edit = {
            let results = self.results.lock().unwrap_or_else(PoisonError::into_inner);
            let (id, old) = results.get(uri)?;
            if id != previous {
                return None;
            }
            edit(old, &data)
        };
        let id = self.remember(uri, data);
        Some(SemanticTokensDelta {
            result_id: Some(id),
            edits: edit.into_iter().collect(),
        })
    }

    /// Forgets a closed document.
    pub(crate) fn forget(&self, uri: &Uri) {
        self.results
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(uri);
    }

    fn remember(&self, uri: &Uri, data: Vec<SemanticToken>) -> String {
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .to_string();
        self.results
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(uri.clone(), (id.clone(), data));
        id
    }
}

/// One edit turning `old` into `new` (the differing middle), in units of integers as the
/// protocol counts them (five per token); `None` when they are equal.
fn edit(old: &[SemanticToken], new: &[SemanticToken]) -> Option<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let removed = old.len() - prefix - suffix;
    let inserted = &new[prefix..new.len() - suffix];
    if removed == 0 && inserted.is_empty() {
        return None;
    }
    Some(SemanticTokensEdit {
        start: (prefix * 5) as u32,
        delete_count: (removed * 5) as u32,
        data: Some(inserted.to_vec()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(delta_line: u32) -> SemanticToken {
        SemanticToken {
            delta_line,
            delta_start: 0,
            length: 1,
            token_type: 0,
            token_modifiers_bitset: 0,
        }
    }

    #[test]
    fn the_delta_replaces_only_the_differing_middle() {
        let old = [token(1), token(2), token(3)];
        let new = [token(1), token(7), token(8), token(3)];
        let edit = edit(&old, &new).expect("they differ");
        assert_eq!((edit.start, edit.delete_count), (5, 5));
        assert_eq!(edit.data, Some(vec![token(7), token(8)]));
        assert_eq!(super::edit(&old, &old), None);
    }

    #[test]
    fn expressions_are_highlighted_by_the_selected_language() {
        let text = "data:\n  sources:\n    a: {type: static, data: []}\n    b:\n      type: filter\n      from: a\n      where: x and hasPrefix(y, 'z')\n";
        let analysis = sources_check::analyze(text, sources_syntax::Syntax::Yaml);
        let kinds = |language| -> Vec<(String, Kind)> {
            collect(&analysis.config, text, language)
                .into_iter()
                .filter(|token| token.span.start() >= text.find("x and").expect("where"))
                .map(|token| (text[token.span.range()].to_owned(), token.kind))
                .collect()
        };
        let expr = kinds(Language::Expr);
        assert_eq!(expr[1], ("and".to_owned(), Kind::Keyword), "{expr:?}");
        assert_eq!(
            expr[2],
            ("hasPrefix".to_owned(), Kind::Function),
            "{expr:?}"
        );
        // CEL has no `and`: a name there.
        let cel = kinds(Language::Cel);
        assert_eq!(cel[1], ("and".to_owned(), Kind::Variable), "{cel:?}");
    }
}
