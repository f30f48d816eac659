//! The decoder's readers of single values (strings, text, booleans, integers, durations,
//! enumerations, methods) and of lists and maps of them: each reports a value of the wrong type or
//! form at that value and leaves the field unset.

use ecow::EcoString;
use ecow::string::ToEcoString;
use sources_diagnostics::{Diagnostic, Rule, did_you_mean};
use sources_syntax::{Node, ScalarStyle, Span, Value};

use super::{Convert, Decoder, Fields, Path, float_text, join_or, name_span};
use crate::duration::{GoDuration, parse_duration};
use crate::enums::{Enumeration, Method};
use crate::fields::Section;
use crate::reference::Block;
use crate::spanned::{Named, NamedMap, Spanned, Text};

impl Decoder {
    pub(super) fn string(&mut self, name: Path<'_>, node: Node) -> Option<String> {
        let Node {
            value: Value::Str(text),
            ..
        } = node
        else {
            self.wrong_type(name, "a string", &node);
            return None;
        };
        Some(String::from(text.text))
    }

    /// Text for templates and expressions: a string, or a number or boolean kept as written.
    pub(super) fn text(&mut self, name: Path<'_>, node: Node) -> Option<Text> {
        let plain = |text: EcoString| {
            Some(Text {
                text,
                style: ScalarStyle::Plain,
            })
        };
        match node.value {
            Value::Str(text) => Some(Text {
                text: text.text,
                style: text.style,
            }),
            Value::Int(value) => plain(value.to_eco_string()),
            Value::Float(value) => plain(float_text(value).into()),
            Value::Bool(value) => plain(value.to_eco_string()),
            _ => {
                self.wrong_type(name, "a string", &node);
                None
            }
        }
    }

    /// A scalar kept as its text (parameter defaults, option values).
    pub(super) fn scalar_text(&mut self, name: Path<'_>, node: Node) -> Option<String> {
        self.text(name, node).map(|text| String::from(text.text))
    }

    /// A boolean: `true` or `false`, or a YAML 1.1 spelling the dashboard's decoder also takes
    /// (`noncanonical-value`, with the canonical one as a fix).
    pub(super) fn boolean(&mut self, name: Path<'_>, node: Node) -> Option<bool> {
        let value = read_bool(&node.value);
        match (&node.value, value) {
            (Value::Bool(_), value) => value,
            (Value::Str(text), Some(value)) => {
                self.noncanonical(name, node.span, &text.text, &value.to_string(), "");
                Some(value)
            }
            _ => {
                self.wrong_type(name, "`true` or `false`", &node);
                None
            }
        }
    }

    /// An integer, or a number with a fraction, which the dashboard's decoder truncates
    /// (`noncanonical-value`, with the whole number as a fix).
    pub(super) fn integer(&mut self, name: Path<'_>, node: Node) -> Option<i64> {
        match (&node.value, read_int(&node.value)) {
            (Value::Int(value), _) => Some(*value),
            (Value::Float(value), Some(whole)) => {
                let note = if value.fract() == 0.0 {
                    ""
                } else {
                    ", dropping its fraction"
                };
                self.noncanonical(
                    name,
                    node.span,
                    &float_text(*value),
                    &whole.to_string(),
                    note,
                );
                Some(whole)
            }
            _ => {
                self.wrong_type(name, "an integer", &node);
                None
            }
        }
    }

    /// Reports `written` at `span` as read as `canonical` (`noncanonical-value`).
    fn noncanonical(
        &mut self,
        name: Path<'_>,
        span: Span,
        written: &str,
        canonical: &str,
        note: &str,
    ) {
        self.report(
            Diagnostic::new(
                Rule::NoncanonicalValue,
                span,
                format!("`{name}`: `{written}` is read as `{canonical}`{note}"),
            )
            .with_label(format!("write `{canonical}`"))
            .with_help(format!(
                "the dashboard's YAML decoder reads it as `{canonical}`; write `{canonical}`, \
                 which every reader reads the same"
            ))
            .with_replacement(format!("Write `{canonical}`"), span, canonical),
        );
    }

    pub(super) fn duration(&mut self, name: Path<'_>, node: Node) -> Option<GoDuration> {
        let text = match node.value {
            Value::Str(text) => String::from(text.text),
            Value::Int(0) => return Some(GoDuration::default()),
            Value::Int(value) => value.to_string(),
            Value::Float(value) => float_text(value),
            _ => {
                self.wrong_type(name, "a duration such as `30s`", &node);
                return None;
            }
        };
        match parse_duration(&text) {
            Ok(duration) => Some(GoDuration(duration)),
            Err(error) => {
                self.report(
                    Diagnostic::new(
                        Rule::InvalidDuration,
                        node.span,
                        format!("`{name}`: `{text}` is not a duration: {error}"),
                    )
                    .with_label("not a Go duration")
                    .with_help("write a Go duration: a number and a unit (ns, us, ms, s, m, h), e.g. `250ms`, `30s`, `1m30s`, `2h`"),
                );
                None
            }
        }
    }

    pub(super) fn enumeration<E: Enumeration>(&mut self, name: Path<'_>, node: Node) -> Option<E> {
        let Value::Str(text) = &node.value else {
            let names: Vec<String> = E::names().iter().map(|n| format!("`{n}`")).collect();
            self.wrong_type(name, &format!("one of {}", names.join(", ")), &node);
            return None;
        };
        if let Some(value) = E::from_name(&text.text) {
            return Some(value);
        }
        self.report(invalid_choice(name, &text.text, node.span, &E::names()));
        None
    }

    /// `method`: a template; when it holds no token it must name a standard method.
    pub(super) fn method(&mut self, name: Path<'_>, node: Node) -> Option<Text> {
        let span = node.span;
        let text = self.text(name, node)?;
        if !text.text.contains("${") && Method::from_name(&text.text.to_ascii_uppercase()).is_none()
        {
            self.report(invalid_choice(name, &text.text, span, &Method::names()));
            return None;
        }
        Some(text)
    }

    pub(super) fn list<T>(
        &mut self,
        name: Path<'_>,
        node: Node,
        item: Convert<T>,
    ) -> Option<Vec<Spanned<T>>> {
        let Node {
            value: Value::Seq(items),
            ..
        } = node
        else {
            self.wrong_type(name, "a list", &node);
            return None;
        };
        let mut values = Vec::with_capacity(items.len());
        for (index, node) in items.into_iter().enumerate() {
            let span = node.span;
            self.key_span = span;
            if let Some(value) = item(self, Path::Index(&name, index), node) {
                values.push(Spanned::new(value, span));
            }
        }
        Some(values)
    }

    pub(super) fn named_map<T>(
        &mut self,
        name: Path<'_>,
        node: Node,
        item: Convert<T>,
    ) -> Option<NamedMap<T>> {
        let Node {
            value: Value::Map(map),
            ..
        } = node
        else {
            self.wrong_type(name, "a map", &node);
            return None;
        };
        let mut items = Vec::with_capacity(map.entries.len());
        for entry in map.entries {
            self.key_span = entry.key.span;
            let value_span = entry.value.span;
            if let Some(value) = item(self, Path::Child(&name, &entry.key.name), entry.value) {
                items.push(Named {
                    name: Spanned::new(String::from(entry.key.name), entry.key.span),
                    value: Spanned::new(value, value_span),
                });
            }
        }
        Some(NamedMap(items))
    }

    /// A nested map read with its own field reader and its section's field list.
    pub(super) fn section<T>(
        &mut self,
        name: Path<'_>,
        node: Node,
        section: Section,
        read: fn(&mut Decoder, &mut Fields) -> T,
    ) -> Option<T> {
        let Node {
            value: Value::Map(map),
            ..
        } = node
        else {
            self.wrong_type(name, "a map", &node);
            return None;
        };
        let mut fields = Fields::new(map, self.key_span);
        fields.prefix = Some(name);
        let value = read(self, &mut fields);
        self.finish(&fields, Block::Section(section), None);
        Some(value)
    }
}

/// The boolean a value is read as by the dashboard's decoder: `true` or `false`, or a YAML 1.1
/// spelling it also takes (see [`yaml11_bool`]).
pub(super) fn read_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(value) => Some(*value),
        Value::Str(text) => yaml11_bool(&text.text),
        _ => None,
    }
}

/// The integer a value is read as by the dashboard's decoder: an integer, or a finite number
/// with a fraction, truncated.
pub(super) fn read_int(value: &Value) -> Option<i64> {
    match *value {
        Value::Int(value) => Some(value),
        Value::Float(value) if value.is_finite() && value.trunc().abs() < i64::MAX as f64 => {
            Some(value.trunc() as i64)
        }
        _ => None,
    }
}

/// A YAML 1.1 boolean that gopkg.in/yaml.v3 accepts for a field typed `bool` besides `true` and
/// `false` (`yes`, `On`, `N`, …): its value.
fn yaml11_bool(text: &str) -> Option<bool> {
    match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(true),
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(false),
        _ => None,
    }
}

/// `invalid-value` for a value outside its enumeration, with a did-you-mean and a fix.
pub(super) fn invalid_choice(
    name: Path<'_>,
    written: &str,
    span: Span,
    allowed: &[&'static str],
) -> Diagnostic {
    let list: Vec<String> = allowed.iter().map(|value| format!("`{value}`")).collect();
    let mut diagnostic = Diagnostic::new(
        Rule::InvalidValue,
        span,
        format!("`{name}` must be {}, found `{written}`", join_or(&list)),
    )
    .with_label(format!("not a valid `{name}`"));
    let suggestions = did_you_mean(written, allowed.iter().copied());
    if let Some(best) = suggestions.first() {
        diagnostic = diagnostic.with_help(format!("did you mean `{best}`?"));
        if let Some(edit) = name_span(span, written) {
            let title = format!("Replace `{written}` with `{best}`");
            // An allowed value written out in full (`descending` for `desc`) means that value as
            // surely as a misspelling of it does.
            diagnostic = if spelled_out(written, best) {
                diagnostic.with_replacement(title, edit, *best)
            } else {
                diagnostic.with_correction(title, edit, written, best)
            };
        }
    }
    diagnostic
}

/// Whether `written` is the allowed value `short` written out: it starts with all of `short`
/// (`descending` for `desc`, `ascending` for `asc`), letter case aside, and `short` has at least
/// three letters (a one-letter value abbreviates too many words).
fn spelled_out(written: &str, short: &str) -> bool {
    short.len() >= 3
        && written.len() > short.len()
        && written
            .get(..short.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(short))
}
