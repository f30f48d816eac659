//! TOML text to the spanned tree, through `toml`'s recoverable `DeTable` parser.
//!
//! `toml` reports every error it can recover from, keeps tables in source order (the workspace
//! enables `preserve_order`) and limits nesting itself, so no input can overflow the stack here.
//! The quoting style of each string is read back from the text at its span, and collection spans
//! are widened to cover what is written in them.

use ecow::EcoString;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::yaml::one_char;
use crate::{Entry, Key, Map, Node, Parse, ScalarStyle, Span, Str, SyntaxError, Value};

/// The nesting limit of `toml`'s parser (its `RecursionGuard`), named in our message.
const TOML_MAX_DEPTH: usize = 80;

/// Parses TOML text, collecting every error the parser recovers from.
pub(crate) fn parse(text: &str) -> Parse {
    let (table, errors) = DeTable::parse_recoverable(text);
    let mut errors: Vec<SyntaxError> = errors
        .iter()
        .map(|error| {
            let span = error.span().map_or(Span::empty(text.len()), |range| {
                if range.is_empty() {
                    one_char(text, range.start)
                } else {
                    Span::from(range)
                }
            });
            SyntaxError {
                message: message(text, error.message(), span),
                span,
            }
        })
        .collect();
    let root = if table.get_ref().is_empty() {
        None
    } else {
        let span = table.span();
        let entries = entries(text, table.into_inner(), &mut errors);
        Some(Node::new(
            Value::Map(Map { entries }),
            Span::new(span.start, span.end.max(text.len())),
        ))
    };
    errors.sort_by_key(|error| error.span);
    drop_cascades(text, &mut errors);
    duplicate_tables(text, &mut errors);
    if let Some(root) = &root {
        for error in &mut errors {
            point_at_first_key(text, root, error);
        }
    }
    Parse { root, errors }
}

/// Adds where the first of two duplicate keys is written: the key of that name in the innermost
/// table opened before the duplicate (the parser keeps the first and drops the second). A table's
/// span ends at its last kept entry, so the descent follows the last child starting before it.
fn point_at_first_key(text: &str, root: &Node, error: &mut SyntaxError) {
    let Some(name) = error
        .message
        .strip_prefix("duplicate key `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(name, _)| name.trim_matches(['"', '\''].as_slice()).to_owned())
    else {
        return;
    };
    let at = error.span.start();
    let mut first = None;
    let mut node = root;
    loop {
        let next = match &node.value {
            Value::Map(map) => {
                if let Some(entry) = map.get(&name).filter(|entry| entry.key.span.start() < at) {
                    first = Some(entry.key.span.start());
                }
                map.iter()
                    .map(|entry| &entry.value)
                    .filter(|child| child.span.start() <= at)
                    .max_by_key(|child| child.span.start())
            }
            Value::Seq(items) => items
                .iter()
                .filter(|child| child.span.start() <= at)
                .max_by_key(|child| child.span.start()),
            _ => None,
        };
        match next {
            Some(child) => node = child,
            None => break,
        }
    }
    if let Some(first) = first {
        let line = line_of(text, first);
        error.message = format!("duplicate key `{name}`; the first is at line {line}");
    }
}

/// The 1-based line of byte `offset` (clamped to the text; any offset, boundary or not).
fn line_of(text: &str, offset: usize) -> usize {
    let before = &text.as_bytes()[..offset.min(text.len())];
    before.iter().filter(|&&b| b == b'\n').count() + 1
}

/// A table header written twice is one mistake: its error names the table and the line of the
/// first header, and the duplicate keys the parser then finds in the second table's body (merged
/// into the first) are not reported again.
fn duplicate_tables(text: &str, errors: &mut Vec<SyntaxError>) {
    let mut body_end = None;
    errors.retain_mut(|error| {
        let start = error.span.start().min(text.len());
        let duplicate = error.message.starts_with("duplicate key");
        if duplicate && body_end.is_some_and(|end| start < end) {
            return false;
        }
        body_end = None;
        let (before, after) = text.as_bytes().split_at(start);
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        let line_end = after
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |at| start + at);
        let header = text[line_start..line_end].trim();
        if !duplicate || !header.starts_with('[') || header.starts_with("[[") {
            return true;
        }
        let header = header.split('#').next().unwrap_or(header).trim();
        let first = text[..line_start]
            .lines()
            .position(|line| line.split('#').next().unwrap_or(line).trim() == header);
        error.message = match first {
            Some(index) => format!(
                "table `{header}` is written twice; the first is at line {}: move these keys there",
                index + 1
            ),
            None => {
                format!("table `{header}` is written twice; move these keys into the first one")
            }
        };
        body_end = Some(next_header(text, line_end));
        true
    });
}

/// Where the next `[table]` header line after `from` starts (the end of the text when none).
fn next_header(text: &str, from: usize) -> usize {
    let mut at = from;
    for line in text[from..].split_inclusive('\n') {
        if at > from && line.trim_start().starts_with('[') {
            return at;
        }
        at += line.len();
    }
    text.len()
}

/// Keeps the first error of each line: the parser's later errors on that line follow from it.
fn drop_cascades(text: &str, errors: &mut Vec<SyntaxError>) {
    let mut previous_line_end = None;
    errors.retain(|error| {
        let start = error.span.start().min(text.len());
        let (before, after) = text.as_bytes().split_at(start);
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        if previous_line_end.is_some_and(|end| line_start < end) {
            return false;
        }
        let line_end = after
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |at| start + at);
        previous_line_end = Some(line_end + 1);
        true
    });
}

/// The parser's message, made specific where it can be.
fn message(text: &str, message: &str, span: Span) -> String {
    let written = text.get(span.range()).unwrap_or("").trim();
    match message {
        "duplicate key" if !written.is_empty() => {
            format!("duplicate key `{written}`; each key may be written once per table")
        }
        "cannot recurse further; max recursion depth met" => {
            format!(
                "nesting deeper than {TOML_MAX_DEPTH} levels; a config never needs this: flatten it"
            )
        }
        _ => message.to_owned(),
    }
}

fn entries(text: &str, table: DeTable<'_>, errors: &mut Vec<SyntaxError>) -> Box<[Entry]> {
    table
        .into_iter()
        .map(|(key, value)| {
            let span = Span::from(key.span());
            Entry {
                key: Key {
                    name: EcoString::from(key.into_inner()),
                    span,
                },
                value: node(text, value, errors),
            }
        })
        .collect()
}

fn node(text: &str, value: Spanned<DeValue<'_>>, errors: &mut Vec<SyntaxError>) -> Node {
    let span = Span::from(value.span());
    let value = match value.into_inner() {
        DeValue::String(s) => Value::Str(Str {
            text: EcoString::from(s),
            style: string_style(text, span.start()),
        }),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(i) => Value::Int(i),
            Err(_) => {
                let written = text.get(span.range()).unwrap_or("").to_owned();
                errors.push(SyntaxError {
                    message: format!("integer `{written}` does not fit in 64 bits"),
                    span,
                });
                Value::Invalid
            }
        },
        DeValue::Float(f) => match f.as_str().parse::<f64>() {
            Ok(f) => Value::Float(f),
            Err(_) => {
                errors.push(SyntaxError {
                    message: format!("`{}` is not a number", f.as_str()),
                    span,
                });
                Value::Invalid
            }
        },
        DeValue::Boolean(b) => Value::Bool(b),
        DeValue::Datetime(d) => Value::Str(Str {
            text: EcoString::from(d.to_string()),
            style: ScalarStyle::Plain,
        }),
        DeValue::Array(items) => Value::Seq(
            items
                .into_iter()
                .map(|item| node(text, item, errors))
                .collect(),
        ),
        DeValue::Table(table) => Value::Map(Map {
            entries: entries(text, table, errors),
        }),
    };
    Node {
        span: covering(span, &value),
        value,
    }
}

/// A collection's span widened to cover its children. `toml` spans a `[table]` by its header, an
/// `[[array]]` by its first header and a table made by a dotted key by that key; the tree's
/// collections span everything written in them, so a position inside one finds it.
fn covering(span: Span, value: &Value) -> Span {
    match value {
        Value::Map(map) => map.iter().fold(span, |span, entry| {
            span.cover(entry.key.span).cover(entry.value.span)
        }),
        Value::Seq(items) => items.iter().fold(span, |span, item| span.cover(item.span)),
        _ => span,
    }
}

/// The quoting style of a TOML string whose span starts at `start`. A value the parser recovered
/// from unquoted text (`by = éa`) starts with no quote: it is plain, as written.
fn string_style(text: &str, start: usize) -> ScalarStyle {
    let rest = text.get(start..).unwrap_or("");
    if rest.starts_with("\"\"\"") {
        ScalarStyle::MultilineBasic
    } else if rest.starts_with("'''") {
        ScalarStyle::MultilineLiteral
    } else if rest.starts_with('\'') {
        ScalarStyle::SingleQuoted
    } else if rest.starts_with('"') {
        ScalarStyle::DoubleQuoted
    } else {
        ScalarStyle::Plain
    }
}
