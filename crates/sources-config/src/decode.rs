//! The decoder: spanned tree → typed model, collecting every error.
//!
//! Each map is read through a [`Fields`] reader: the decoder takes the fields it knows by name, and
//! what is left is reported as `unknown-field`. A wrong value is reported and its field left unset,
//! and decoding goes on, so one mistake never hides another.

use ecow::EcoString;
use sources_diagnostics::{Collector, Diagnostic, Rule, did_you_mean};
use sources_syntax::{Entry, Key, Map, Node, Span, Value};

use crate::enums::{Enumeration, EventlogStart, Kind};
use crate::fields::{self, Section};
use crate::model::*;
use crate::reference::Block;
use crate::spanned::{AnyValue, Field, Spanned};

mod components;
mod dashboard_keys;
mod map_reader;
mod message_path;
mod outer;
mod root;
mod sections;
mod values;

pub(crate) use map_reader::Fields;
use map_reader::{Label, Owner, Taken};
pub(crate) use message_path::Path;
pub use root::{EntryReuse, decode, decode_edited, decode_into};

fn get<'a>(map: &'a Map, name: &str) -> Option<&'a Entry> {
    map.entries.iter().find(|entry| entry.key.name == name)
}

fn as_map(node: &Node) -> Option<&Map> {
    match &node.value {
        Value::Map(map) => Some(map),
        _ => None,
    }
}

/// A number as it reads back: `5.0` stays `5.0` (Rust prints it `5`, which is an integer).
pub(crate) fn float_text(value: f64) -> String {
    let text = value.to_string();
    if value.is_finite() && !text.contains(['.', 'e', 'E']) {
        format!("{text}.0")
    } else {
        text
    }
}

/// The span of the bare name inside `span` when it is written plain or in single-line quotes:
/// what a rename replaces. `None` when the written form is something else (escapes, blocks).
pub fn name_span(span: Span, name: &str) -> Option<Span> {
    if span.len() == name.len() {
        Some(span)
    } else if span.len() == name.len() + 2 {
        Some(Span::new(span.start() + 1, span.end() - 1))
    } else {
        None
    }
}

/// The decoder state: the diagnostics collected so far.
pub(crate) struct Decoder {
    pub(crate) diagnostics: Collector,
    /// The key (or list item) whose value is being decoded: where a nested map's `missing-field`
    /// points.
    pub(crate) key_span: Span,
    /// The `missing-field` of a required field written misspelled, by the misspelled key's span:
    /// the key's `unknown-field` (which proposes the rename) carries it as its stand-in.
    pub(crate) stand_ins: Vec<(Span, Diagnostic)>,
}

type Convert<T> = fn(&mut Decoder, Path<'_>, Node) -> Option<T>;

impl Decoder {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn wrong_type(&mut self, name: Path<'_>, expected: &str, node: &Node) {
        if matches!(node.value, Value::Invalid) {
            // The syntax error that made it unreadable is the one diagnostic.
            return;
        }
        let diagnostic = Diagnostic::new(
            Rule::InvalidValue,
            node.span,
            format!(
                "`{name}`: expected {expected}, found {}",
                node.value.type_name()
            ),
        )
        .with_label(format!("expected {expected}"));
        self.report(match node.value {
            // `default:` with nothing after the colon.
            Value::Null => diagnostic.with_help(format!(
                "`{name}` is written with no value after its colon: write {expected} there, or \
                 remove the key to leave it unset"
            )),
            _ => diagnostic,
        });
    }

    /// Reads field `name` with `convert`; a wrong value is reported and gives `None`.
    fn field<T>(
        &mut self,
        fields: &mut Fields,
        name: &'static str,
        convert: Convert<T>,
    ) -> Option<Field<T>> {
        let Taken { key_span, value } = fields.take(name)?;
        self.key_span = key_span;
        let value_span = value.span;
        let converted = match fields.prefix {
            None => convert(self, Path::Name(name), value),
            Some(prefix) => convert(self, Path::Child(&prefix, name), value),
        };
        let Some(value) = converted else {
            fields.rejected.push(name);
            return None;
        };
        Some(Field {
            key_span,
            value,
            value_span,
        })
    }

    /// Reports `missing-field` for `name` unless it is written (a written but invalid value was
    /// reported already).
    fn require<T>(&mut self, fields: &Fields, value: &Option<T>, name: &str, block: Block) {
        if value.is_some() || fields.written(name) || (fields.stage && name == "from") {
            return;
        }
        let owner = fields.label();
        let docs = block.fields();
        let doc = docs
            .iter()
            .find(|info| info.name == name)
            .map(|info| info.summary())
            .unwrap_or_default();
        let misspelled = fields
            .entries
            .iter()
            .enumerate()
            .find(|(index, entry)| {
                !fields.taken.get(*index) && !did_you_mean(&entry.key.name, [name]).is_empty()
            })
            .map(|(_, entry)| entry);
        let renamed = misspelled.filter(|entry| {
            did_you_mean(&entry.key.name, docs.iter().map(|info| info.name.as_str())).first()
                == Some(&name)
        });
        let help = match misspelled {
            Some(entry) => format!(
                "add `{name}`: {doc}; `{}` looks like a misspelling of it",
                entry.key.name
            ),
            None => format!("add `{name}`: {doc}"),
        };
        let mut diagnostic = Diagnostic::new(
            Rule::MissingField,
            fields.owner_span,
            format!("{owner} is missing `{name}`"),
        )
        .with_label(format!("`{name}` is required here"))
        .with_help(help);
        if let Some(entry) = misspelled {
            diagnostic = diagnostic.with_secondary(entry.key.span, format!("perhaps `{name}`?"));
        }
        match renamed {
            // The `unknown-field` at the misspelling proposes the rename: one mistake, one
            // diagnostic, and this one stands in for it where it is hidden.
            Some(entry) => self.stand_ins.push((entry.key.span, diagnostic)),
            None => self.report(diagnostic),
        }
    }

    /// Reports every field `fields` did not take as `unknown-field`.
    ///
    /// The field list is looked up only when there is one: building it is the decoder's most
    /// expensive step, and a document without mistakes never needs it.
    fn finish(&mut self, fields: &Fields, block: Block, kind: Option<Kind>) {
        // Names a rename already proposes: a second misspelling of the same field gets the
        // did-you-mean but no fix, so that fixing both never writes the key twice.
        let mut proposed: Vec<&str> = Vec::new();
        for (index, entry) in fields.entries.iter().enumerate() {
            if fields.taken.get(index) {
                continue;
            }
            let name = entry.key.name.as_str();
            if kind.is_some() && name == "window" {
                // `window` on a kind without windows is the checker's `window-kind`, which says
                // more than `unknown-field` could; one mistake gets one diagnostic.
                continue;
            }
            let docs = block.fields();
            let owner = fields.label();
            let suggestions = did_you_mean(name, docs.iter().map(|info| info.name.as_str()));
            let other_kinds: Vec<Kind> = match kind {
                Some(kind) => fields::kinds_with_field(name)
                    .into_iter()
                    .filter(|other| *other != kind)
                    .collect(),
                None => Vec::new(),
            };
            let section = kind.and(fields::section_with_field(name));
            let mut diagnostic = if !other_kinds.is_empty() {
                let kinds: Vec<String> =
                    other_kinds.iter().map(|kind| format!("`{kind}`")).collect();
                let this = kind.map(|kind| kind.as_str()).unwrap_or_default();
                Diagnostic::new(
                    Rule::UnknownField,
                    entry.key.span,
                    format!("`{name}` applies to {}, not `{this}`", join_or(&kinds)),
                )
                .with_label(format!("not a field of `{this}`"))
                .with_help(format!(
                    "remove `{name}`, or change `type` to the kind that has it"
                ))
            } else if let Some(section) = section {
                Diagnostic::new(
                    Rule::UnknownField,
                    entry.key.span,
                    format!(
                        "`{name}` is not a field of {owner}; it belongs under `{}`",
                        section.key()
                    ),
                )
                .with_label("misplaced field")
                .with_help(format!("move `{name}` into the `{}` map", section.key()))
            } else {
                let mut diagnostic = Diagnostic::new(
                    Rule::UnknownField,
                    entry.key.span,
                    format!("unknown field `{name}` in {owner}"),
                )
                .with_label("unknown field");
                diagnostic = match suggestions.first() {
                    Some(_) => {
                        let list: Vec<String> =
                            suggestions.iter().map(|s| format!("`{s}`")).collect();
                        diagnostic.with_help(format!("did you mean {}?", join_or(&list)))
                    }
                    None => {
                        // Written in place: a document can have an unknown field in every entry.
                        let names: usize = docs.iter().map(|info| info.name.len() + 4).sum();
                        let mut help = String::with_capacity(19 + owner.len() + names);
                        help.extend(["the fields of ", &owner, " are "]);
                        for (index, info) in docs.iter().enumerate() {
                            if index > 0 {
                                help.push_str(", ");
                            }
                            help.extend(["`", info.name.as_str(), "`"]);
                        }
                        diagnostic.with_help(help)
                    }
                };
                diagnostic
            };
            if let Some(at) = self
                .stand_ins
                .iter()
                .position(|(span, _)| *span == entry.key.span)
            {
                diagnostic = diagnostic.with_stand_in(self.stand_ins.swap_remove(at).1);
            }
            if other_kinds.is_empty()
                && section.is_none()
                && let Some(best) = suggestions.first()
                && let Some(span) = name_span(entry.key.span, name)
                && !fields.written(best)
                && !proposed.contains(best)
            {
                proposed.push(best);
                diagnostic = diagnostic.with_correction(
                    format!("Rename `{name}` to `{best}`"),
                    span,
                    name,
                    best,
                );
            }
            self.report(diagnostic);
        }
    }

    // ----- entries -----

    /// Whether `name: value`, written among the entries, is a field of the entry above it whose
    /// indentation was lost (`root: items` at the level of `apps:`); reports it so when it is.
    fn misplaced_field(
        &mut self,
        previous: &Source,
        name: &Spanned<EcoString>,
        value: &Node,
    ) -> bool {
        let Some(kind) = previous.kind.as_ref().map(|kind| kind.value) else {
            return false;
        };
        if matches!(value.value, Value::Map(_) | Value::Invalid)
            || fields::field(kind, &name.value).is_none()
        {
            return false;
        }
        let (field, entry) = (&name.value, &previous.name.value);
        self.report(
            Diagnostic::new(
                Rule::InvalidValue,
                name.span,
                format!("`{field}` is indented as a sibling of `{entry}`: did you mean it under `{entry}`?"),
            )
            .with_label(format!("a field of `{entry}` (a `{}` entry), written where entries go", kind.as_str()))
            .with_help(format!(
                "indent `{field}:` as far as the other fields of `{entry}`, so it belongs to that entry"
            )),
        );
        true
    }

    /// Decodes one named entry of `data.sources`.
    pub(crate) fn source(&mut self, name: Spanned<EcoString>, node: Node) -> Source {
        let span = node.span;
        let (kind, body, keys) = self.entry(node, name.span, Owner::Source(&name.value), false);
        Source {
            name,
            span,
            kind,
            body,
            keys,
        }
    }

    fn stage(&mut self, name: Path<'_>, node: Node) -> Option<Stage> {
        let span = node.span;
        let (kind, body, keys) = self.entry(node, span, Owner::Stage(name), true);
        Some(Stage {
            span,
            kind,
            body,
            keys,
        })
    }

    fn entry(
        &mut self,
        node: Node,
        owner_span: Span,
        owner: Owner<'_>,
        stage: bool,
    ) -> (Option<Spanned<Kind>>, Body, Box<[Key]>) {
        let Node {
            value: Value::Map(map),
            ..
        } = node
        else {
            if matches!(node.value, Value::Invalid) {
                return (None, Body::Unknown, Box::default());
            }
            self.report(
                Diagnostic::new(
                    Rule::InvalidValue,
                    node.span,
                    format!(
                        "{owner} must be a map with a `type`, found {}",
                        node.value.type_name()
                    ),
                )
                .with_label("expected a map"),
            );
            return (None, Body::Unknown, Box::default());
        };
        let mut fields = Fields::new(map, owner_span);
        fields.stage = stage;
        let Some(type_entry) = fields.take("type") else {
            let kinds: Vec<String> = Kind::names().iter().map(|n| format!("`{n}`")).collect();
            self.report(
                Diagnostic::new(
                    Rule::MissingField,
                    owner_span,
                    format!("{owner} has no `type`"),
                )
                .with_label("`type` is required")
                .with_help(format!("add `type:` with one of {}", kinds.join(", "))),
            );
            return (None, Body::Unknown, fields.into_keys());
        };
        let Value::Str(type_name) = &type_entry.value.value else {
            self.wrong_type(
                Path::Name("type"),
                "a kind name such as `http`",
                &type_entry.value,
            );
            return (None, Body::Unknown, fields.into_keys());
        };
        let Some(kind) = Kind::from_name(&type_name.text) else {
            self.report(unknown_kind(&type_name.text, type_entry.value.span));
            // The fields are checked against the kind the did-you-mean picks, so that every
            // rename `--fix` would make after correcting the kind is reported now.
            if let Some(guess) = guessed_kind(&type_name.text) {
                fields.label = Label::Text(format!(
                    "{owner} (read as `{guess}`, the closest kind to `{}`)",
                    type_name.text
                ));
                self.body(guess, &mut fields);
                self.finish(&fields, Block::Kind(guess), Some(guess));
            }
            return (None, Body::Unknown, fields.into_keys());
        };
        fields.label = Label::Kind(kind, owner);
        let body = self.body(kind, &mut fields);
        self.finish(&fields, Block::Kind(kind), Some(kind));
        (
            Some(Spanned::new(kind, type_entry.value.span)),
            body,
            fields.into_keys(),
        )
    }

    /// Decodes the fields of a `kind` entry (the `type` key is already taken).
    pub(crate) fn body(&mut self, kind: Kind, f: &mut Fields) -> Body {
        let block = Block::Kind(kind);
        match kind {
            Kind::Http => {
                let leaf = self.leaf(f);
                let http = Http {
                    leaf,
                    url: self.field(f, "url", Decoder::text),
                    method: self.field(f, "method", Decoder::method),
                    headers: self.field(f, "headers", |d, n, v| d.named_map(n, v, Decoder::text)),
                    body: self.field(f, "body", Decoder::text),
                    follow: self.field(f, "follow", Decoder::boolean),
                    paginate: self
                        .field(f, "paginate", |d, n, v| {
                            d.section(n, v, Section::Paginate, Decoder::paginate)
                        })
                        .map(Box::new),
                    window: self.window_field(f),
                };
                self.require(f, &http.url, "url", block);
                Body::Http(Box::new(http))
            }
            Kind::Exec => {
                let leaf = self.leaf(f);
                let exec = Exec {
                    leaf,
                    command: self.field(f, "command", |d, n, v| d.list(n, v, Decoder::text)),
                    env: self.field(f, "env", |d, n, v| d.named_map(n, v, Decoder::text)),
                    follow: self.field(f, "follow", Decoder::boolean),
                    window: self.window_field(f),
                };
                self.require(f, &exec.command, "command", block);
                Body::Exec(Box::new(exec))
            }
            Kind::File => {
                let leaf = self.leaf(f);
                let file = File {
                    leaf,
                    path: self.field(f, "path", Decoder::text),
                };
                self.require(f, &file.path, "path", block);
                Body::File(Box::new(file))
            }
            Kind::Websocket => {
                let leaf = self.leaf(f);
                let websocket = Websocket {
                    leaf,
                    url: self.field(f, "url", Decoder::text),
                    headers: self.field(f, "headers", |d, n, v| d.named_map(n, v, Decoder::text)),
                    initial_messages: self
                        .field(f, "initial_messages", |d, n, v| d.list(n, v, Decoder::text)),
                    follow: self.field(f, "follow", Decoder::boolean),
                };
                self.require(f, &websocket.url, "url", block);
                Body::Websocket(Box::new(websocket))
            }
            Kind::Static => {
                let leaf = self.leaf(f);
                let data = f.take("data").map(|taken| Field {
                    key_span: taken.key_span,
                    value_span: taken.value.span,
                    value: AnyValue(taken.value),
                });
                self.require(f, &data, "data", block);
                Body::Static(Box::new(Static { leaf, data }))
            }
            Kind::Merge => {
                let leaf = self.leaf(f);
                Body::Merge(Box::new(Merge {
                    leaf,
                    merge: self.merge_fields(f),
                }))
            }
            Kind::Passthrough => {
                let common = self.common(f);
                let from = self.field(f, "from", Decoder::string);
                self.require(f, &from, "from", block);
                Body::Passthrough(Box::new(Passthrough { common, from }))
            }
            Kind::Filter => {
                let common = self.common(f);
                let from = self.field(f, "from", Decoder::string);
                let condition = self.field(f, "where", Decoder::text);
                self.require(f, &from, "from", block);
                self.require(f, &condition, "where", block);
                Body::Filter(Box::new(Filter {
                    common,
                    from,
                    condition,
                }))
            }
            Kind::Project => {
                let common = self.common(f);
                let from = self.field(f, "from", Decoder::string);
                let keep = self.field(f, "keep", |d, n, v| d.named_map(n, v, Decoder::text));
                self.require(f, &from, "from", block);
                self.require(f, &keep, "keep", block);
                Body::Project(Box::new(Project { common, from, keep }))
            }
            Kind::Derive => {
                let common = self.common(f);
                let from = self.field(f, "from", Decoder::string);
                let compute = self.field(f, "compute", |d, n, v| d.named_map(n, v, Decoder::text));
                self.require(f, &from, "from", block);
                self.require(f, &compute, "compute", block);
                Body::Derive(Box::new(Derive {
                    common,
                    from,
                    compute,
                }))
            }
            Kind::Sort => {
                let common = self.common(f);
                let from = self.field(f, "from", Decoder::string);
                let by = self.field(f, "by", Decoder::text);
                let order = self.field(f, "order", Decoder::enumeration);
                self.require(f, &from, "from", block);
                self.require(f, &by, "by", block);
                Body::Sort(Box::new(Sort {
                    common,
                    from,
                    by,
                    order,
                }))
            }
            Kind::Union => {
                let common = self.common(f);
                Body::Union(Box::new(Union {
                    common,
                    merge: self.merge_fields(f),
                }))
            }
            Kind::Compose => {
                let common = self.common(f);
                let parts = self.field(f, "parts", |d, n, v| d.named_map(n, v, Decoder::string));
                let on_error = self.field(f, "on_error", Decoder::enumeration);
                self.require(f, &parts, "parts", block);
                Body::Compose(Box::new(Compose {
                    common,
                    parts,
                    on_error,
                }))
            }
            Kind::Join => {
                let common = self.common(f);
                let driver = self.field(f, "driver", |d, n, v| {
                    d.section(n, v, Section::JoinDriver, Decoder::join_driver)
                });
                let lookups = self.field(f, "lookups", |d, n, v| {
                    d.named_map(n, v, |d, n, v| {
                        d.section(n, v, Section::JoinLookup, Decoder::join_lookup)
                    })
                });
                let emit = self.field(f, "emit", Decoder::enumeration);
                let on_error = self.field(f, "on_error", Decoder::enumeration);
                self.require(f, &driver, "driver", block);
                self.require(f, &lookups, "lookups", block);
                Body::Join(Box::new(Join {
                    common,
                    driver,
                    lookups,
                    emit,
                    on_error,
                }))
            }
            Kind::Cache => {
                let common = self.common(f);
                let from = self.field(f, "from", Decoder::string);
                let ttl = self.field(f, "ttl", Decoder::duration);
                self.require(f, &from, "from", block);
                self.require(f, &ttl, "ttl", block);
                Body::Cache(Box::new(CacheOperator { common, from, ttl }))
            }
        }
    }

    // The fields most entries leave out are boxed in the model (see `LeafFields`).
    fn common(&mut self, f: &mut Fields) -> Common {
        Common {
            parameters: self
                .field(f, "parameters", |d, n, v| {
                    d.named_map(n, v, |d, n, v| {
                        d.section(n, v, Section::Parameter, Decoder::parameter)
                    })
                })
                .map(Box::new),
            pipe: self
                .field(f, "pipe", |d, n, v| d.list(n, v, Decoder::stage))
                .map(Box::new),
        }
    }

    fn leaf(&mut self, f: &mut Fields) -> LeafFields {
        LeafFields {
            common: self.common(f),
            root: self.field(f, "root", Decoder::string).map(Box::new),
            format: self.field(f, "format", Decoder::enumeration).map(Box::new),
            refresh: self.field(f, "refresh", Decoder::duration).map(Box::new),
            timeout: self.field(f, "timeout", Decoder::duration).map(Box::new),
            cache: self
                .field(f, "cache", |d, n, v| {
                    d.section(n, v, Section::Cache, Decoder::cache_spec)
                })
                .map(Box::new),
        }
    }

    fn window_field(&mut self, f: &mut Fields) -> Option<Box<Field<Window>>> {
        self.field(f, "window", |d, n, v| {
            d.section(n, v, Section::Window, Decoder::window)
        })
        .map(Box::new)
    }

    fn merge_fields(&mut self, f: &mut Fields) -> MergeFields {
        MergeFields {
            sources: self.field(f, "sources", |d, n, v| d.list(n, v, Decoder::string)),
            tag_field: self.field(f, "tag_field", Decoder::string),
            children: self.field(f, "children", |d, n, v| {
                d.list(n, v, |d, n, v| {
                    d.section(n, v, Section::MergeChild, Decoder::merge_child)
                })
            }),
            meta_key: self.field(f, "meta_key", Decoder::string),
            on_error: self.field(f, "on_error", Decoder::enumeration),
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
fn join_or(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// The kind an unknown `type` most likely meant: the did-you-mean's first pick.
fn guessed_kind(written: &str) -> Option<Kind> {
    did_you_mean(written, Kind::names().iter().copied())
        .first()
        .and_then(|best| Kind::from_name(best))
}

fn unknown_kind(written: &str, span: Span) -> Diagnostic {
    let names = Kind::names();
    let mut diagnostic = Diagnostic::new(
        Rule::UnknownKind,
        span,
        format!("unknown source kind `{written}`"),
    )
    .with_label("not a leaf or operator kind");
    match did_you_mean(written, names.iter().copied()).first() {
        Some(best) => {
            diagnostic = diagnostic.with_help(format!("did you mean `{best}`?"));
            if let Some(edit) = name_span(span, written) {
                diagnostic = diagnostic.with_correction(
                    format!("Replace `{written}` with `{best}`"),
                    edit,
                    written,
                    best,
                );
            }
        }
        None => {
            let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            diagnostic = diagnostic.with_help(format!("use one of {}", list.join(", ")));
        }
    }
    diagnostic
}
