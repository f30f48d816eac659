//! The check of the dashboard's maps against its vocabulary ([`crate::vocabulary`]): every key of
//! `tui`, `app` and `actions` is one its map accepts for its kind (`unknown-field`, with a
//! did-you-mean), every value has its field's type and form (`invalid-value`,
//! `invalid-duration`), and what one map must hold it holds (`missing-field`) without two fields
//! that exclude each other (`conflicting-fields`). Rules that read other maps or `data.sources`
//! are the checker's.

use sources_diagnostics::{Diagnostic, Rule, Severity, did_you_mean};
use sources_syntax::{Entry, Map, Node, Span, Value};

use super::values::{read_bool, read_int};
use super::{Decoder, Path, as_map, get, join_or, name_span};
use crate::ColorRule;
use crate::duration::parse_duration;
use crate::go_regexp::{self, PatternError};
use crate::vocabulary::{self, Block, Field, Ty};

/// How deep the dashboard's maps are walked (layouts, trees and inspector fields nest): a
/// hostile document cannot exhaust the stack.
const DEPTH: usize = 64;

/// The pairs of fields of one map that exclude each other, by block.
fn exclusive(block: Block) -> &'static [(&'static str, &'static str)] {
    match block {
        Block::Tui => &[("screen", "screens")],
        Block::Component => &[
            ("children", "group_by"),
            ("fields", "auto"),
            ("type", "kind"),
        ],
        Block::Prompt | Block::Input => &[("required", "default"), ("mask", "options")],
        Block::EnvVar => &[("required", "default")],
        Block::StackItem => &[("flex", "fixed")],
        Block::Binding => &[("action", "name")],
        _ => &[],
    }
}

/// The kind of a map whose fields depend on it: a component's `type` (or `kind`), an action's
/// `type` (`push` when `push` is written, else `exec`).
fn kind_of(block: Block, map: &Map) -> Option<String> {
    let written = |key| get(map, key).and_then(|entry| entry.value.as_str());
    match block {
        Block::Component => written("type")
            .or_else(|| written("kind"))
            .filter(|kind| vocabulary::COMPONENT_KINDS.contains(kind))
            .map(str::to_owned),
        Block::Action | Block::Binding => {
            if let Some(kind) = written("type") {
                return vocabulary::ACTION_KINDS
                    .contains(&kind)
                    .then(|| kind.to_owned());
            }
            if block == Block::Binding && get(map, "action").is_some() {
                return None;
            }
            Some(
                if get(map, "push").is_some() {
                    "push"
                } else {
                    "exec"
                }
                .to_owned(),
            )
        }
        _ => None,
    }
}

impl Decoder {
    /// Checks the dashboard's side of a document: `tui`, `app` and the top-level `actions`.
    pub(super) fn check_dashboard(
        &mut self,
        tui: Option<&Entry>,
        app: Option<&Entry>,
        actions: Option<&Entry>,
    ) {
        for (entry, ty) in [
            (tui, Ty::Map(Block::Tui)),
            (app, Ty::Map(Block::App)),
            (actions, Ty::Named(Block::Action)),
        ] {
            if let Some(entry) = entry {
                let path = Path::Name(&entry.key.name);
                self.check_value(&entry.value, ty, path, entry.key.span, 0);
            }
        }
    }

    fn check_value(&mut self, node: &Node, ty: Ty, path: Path<'_>, owner: Span, depth: usize) {
        if depth > DEPTH || matches!(node.value, Value::Invalid) {
            return;
        }
        match (ty, &node.value) {
            (Ty::Str, Value::Str(_))
            | (Ty::Template, Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_))
            | (Ty::Path, Value::Str(_))
            | (Ty::Bool, Value::Bool(_)) => {}
            (Ty::Path, Value::Seq(items)) => {
                for (index, item) in items.iter().enumerate() {
                    self.check_value(
                        item,
                        Ty::Str,
                        Path::Index(&path, index),
                        item.span,
                        depth + 1,
                    );
                }
            }
            (Ty::Bool, Value::Str(_)) if read_bool(&node.value).is_some() => {
                self.boolean(path, node.clone());
            }
            (Ty::Int(min), Value::Int(_) | Value::Float(_)) if read_int(&node.value).is_some() => {
                if let Some(value) = self.integer(path, node.clone())
                    && value < min
                {
                    let least = match min {
                        -1 => "-1 (no limit) or more".to_owned(),
                        _ => format!("{min} or more"),
                    };
                    self.report(
                        Diagnostic::new(
                            Rule::InvalidValue,
                            node.span,
                            format!("`{path}` must be {least}, found {value}"),
                        )
                        .with_label(format!("must be {least}"))
                        .with_help(format!("write a number that is {least}")),
                    );
                }
            }
            (Ty::Duration, Value::Int(0)) => {}
            (Ty::Duration, Value::Str(text)) => {
                if let Err(error) = parse_duration(&text.text) {
                    self.report(
                        Diagnostic::new(
                            Rule::InvalidDuration,
                            node.span,
                            format!("`{path}`: `{}` is not a duration: {error}", text.text),
                        )
                        .with_label("not a Go duration")
                        .with_help("write a Go duration: a number and a unit (ns, us, ms, s, m, h), e.g. `250ms`, `30s`, `1m30s`"),
                    );
                }
            }
            (Ty::Color, Value::Int(index)) => {
                if !(0..=255).contains(index) {
                    self.color_refused(&path, node.span, &index.to_string());
                }
            }
            (Ty::Color, Value::Str(text)) => self.color_refused(&path, node.span, &text.text),
            (Ty::Glyph, Value::Str(text)) => {
                if text.text.chars().count() != 1 {
                    self.report(
                        Diagnostic::new(
                            Rule::InvalidValue,
                            node.span,
                            format!("`{path}` must be one character, found `{}`", text.text),
                        )
                        .with_label("not one character")
                        .with_help("a glyph is drawn in one cell: write exactly one character"),
                    );
                }
            }
            (Ty::OneOf(allowed), Value::Str(text)) => {
                if !allowed.contains(&text.text.as_str()) {
                    self.report(super::values::invalid_choice(
                        path, &text.text, node.span, allowed,
                    ));
                }
            }
            (Ty::Map(block), Value::Map(map)) => {
                self.check_block(map, block, path, owner, depth, false)
            }
            (Ty::List(block), Value::Seq(items)) => {
                for (index, item) in items.iter().enumerate() {
                    self.check_value(
                        item,
                        Ty::Map(block),
                        Path::Index(&path, index),
                        item.span,
                        depth + 1,
                    );
                }
            }
            (Ty::Named(block), Value::Map(map)) => {
                for entry in &map.entries {
                    self.check_value(
                        &entry.value,
                        Ty::Map(block),
                        Path::Child(&path, &entry.key.name),
                        entry.key.span,
                        depth + 1,
                    );
                }
            }
            (Ty::Named(block), Value::Seq(items)) => {
                for (index, item) in items.iter().enumerate() {
                    let item_path = Path::Index(&path, index);
                    match as_map(item) {
                        Some(map) => {
                            self.check_block(map, block, item_path, item.span, depth + 1, true)
                        }
                        None => {
                            self.check_value(item, Ty::Map(block), item_path, item.span, depth + 1)
                        }
                    }
                }
            }
            (Ty::Templates | Ty::Strings, Value::Seq(items)) => {
                let item_ty = if ty == Ty::Strings {
                    Ty::Str
                } else {
                    Ty::Template
                };
                for (index, item) in items.iter().enumerate() {
                    self.check_value(
                        item,
                        item_ty,
                        Path::Index(&path, index),
                        item.span,
                        depth + 1,
                    );
                }
            }
            (Ty::TemplateMap, Value::Map(map)) => {
                for entry in &map.entries {
                    let key = Path::Child(&path, &entry.key.name);
                    self.check_value(&entry.value, Ty::Template, key, entry.key.span, depth + 1);
                }
            }
            (Ty::Rows, Value::Seq(rows)) => {
                for (index, row) in rows.iter().enumerate() {
                    if !matches!(row.value, Value::Seq(_)) {
                        self.wrong_type(Path::Index(&path, index), "a list of cells", row);
                    }
                }
            }
            _ => self.wrong_type(path, expected(ty), node),
        }
    }

    fn color_refused(&mut self, path: &Path<'_>, span: Span, text: &str) {
        let Some(why) = vocabulary::color_error(text) else {
            return;
        };
        let mut diagnostic = Diagnostic::new(
            Rule::InvalidValue,
            span,
            format!("`{path}`: `{text}` is not a color: {why}"),
        )
        .with_label("not a color");
        if let Some(token) = text.strip_prefix("theme:")
            && let Some(best) =
                did_you_mean(token, vocabulary::THEME_TOKENS.iter().copied()).first()
        {
            diagnostic = diagnostic.with_help(format!("did you mean `theme:{best}`?"));
            if let Some(edit) = name_span(span, text) {
                diagnostic = diagnostic.with_replacement(
                    format!("Replace `{text}` with `theme:{best}`"),
                    edit,
                    format!("theme:{best}"),
                );
            }
        }
        self.report(diagnostic);
    }

    /// Checks one map of `block`: its keys, their values, what it requires and excludes. A
    /// `named_item` is an item of a list standing for a map by name, which names itself with
    /// `name` or `id`.
    fn check_block(
        &mut self,
        map: &Map,
        block: Block,
        path: Path<'_>,
        owner: Span,
        depth: usize,
        named_item: bool,
    ) {
        let kind = kind_of(block, map);
        let kind = kind.as_deref();
        for entry in &map.entries {
            let name = entry.key.name.as_str();
            if named_item && (name == "name" || name == "id") && block.field(name).is_none() {
                self.check_value(
                    &entry.value,
                    Ty::Str,
                    Path::Child(&path, name),
                    entry.key.span,
                    depth + 1,
                );
                continue;
            }
            match block.field(name) {
                Some(field) if field.applies_to(kind) => self.check_value(
                    &entry.value,
                    field.ty,
                    Path::Child(&path, name),
                    entry.key.span,
                    depth + 1,
                ),
                Some(field) => self.other_kind_field(entry, field, kind, &path),
                None => self.unknown_dashboard_field(map, entry, block, kind, &path),
            }
        }
        for (first, second) in exclusive(block) {
            if let (Some(a), Some(b)) = (get(map, first), get(map, second)) {
                self.report(
                    Diagnostic::new(
                        Rule::ConflictingFields,
                        b.key.span,
                        format!(
                            "`{path}` sets both `{first}` and `{second}`, which exclude each other"
                        ),
                    )
                    .with_label(format!("conflicts with `{first}`"))
                    .with_secondary(a.key.span, format!("`{first}` is set here"))
                    .with_help(format!("keep one of `{first}` and `{second}`")),
                );
            }
        }
        self.block_requirements(map, block, kind, &path, owner);
        if block == Block::ColorRule {
            self.color_rule_pattern(map, &path);
        }
    }

    /// A color rule's `~` pattern that Go's `regexp` does not compile. The dashboard loads the
    /// file, compiles the pattern each time it colours a text, and on the error colours nothing:
    /// the rule never matches. `invalid-value`, as a warning. A pattern Go compiles that is only
    /// too large for `sources try` is not reported.
    fn color_rule_pattern(&mut self, map: &Map, path: &Path<'_>) {
        let Some(entry) = get(map, "when") else {
            return;
        };
        let Value::Str(when) = &entry.value.value else {
            return;
        };
        let Some(pattern) = ColorRule::pattern_of(&when.text) else {
            return;
        };
        let Err(PatternError::Invalid(why)) = go_regexp::check(pattern) else {
            return;
        };
        let written = when.text.trim();
        // The `~…` text itself where the value is written as its text (plain or simply quoted),
        // else the whole value.
        let span = name_span(entry.value.span, &when.text).map_or(entry.value.span, |content| {
            let start = content.start() + (when.text.len() - when.text.trim_start().len());
            Span::new(start, start + written.len())
        });
        let path = Path::Child(path, "when");
        let mut diagnostic = Diagnostic::new(
            Rule::InvalidValue,
            span,
            format!("`{path}`: `{written}` is not a pattern Go's regexp compiles ({why}): the rule never matches"),
        )
        .with_label(why)
        .with_help("correct the pattern: Go's regexp syntax, matched ignoring case (escape a character with `\\` to match it as itself: `\\(`, `\\.`), or write the text without `~` to match it exactly");
        diagnostic.severity = Severity::Warning;
        self.report(diagnostic);
    }

    /// `unknown-field` for a field of another kind of the same block.
    fn other_kind_field(
        &mut self,
        entry: &Entry,
        field: &Field,
        kind: Option<&str>,
        path: &Path<'_>,
    ) {
        let kinds: Vec<String> = field.on.iter().map(|kind| format!("`{kind}`")).collect();
        let this = kind.unwrap_or_default();
        self.report(
            Diagnostic::new(
                Rule::UnknownField,
                entry.key.span,
                format!(
                    "`{}` applies to {}, not `{this}` (in `{path}`)",
                    field.name,
                    join_or(&kinds)
                ),
            )
            .with_label(format!("not a field of `{this}`"))
            .with_help(format!(
                "remove `{}`, or change `type` to the kind that has it",
                field.name
            )),
        );
    }

    /// `unknown-field` with a did-you-mean among the fields that apply, and a rename when one
    /// stands out.
    fn unknown_dashboard_field(
        &mut self,
        map: &Map,
        entry: &Entry,
        block: Block,
        kind: Option<&str>,
        path: &Path<'_>,
    ) {
        let name = entry.key.name.as_str();
        let fields = block.fields().iter().filter(|field| field.applies_to(kind));
        let suggestions = did_you_mean(name, fields.clone().map(|field| field.name));
        let mut diagnostic = Diagnostic::new(
            Rule::UnknownField,
            entry.key.span,
            format!("unknown field `{name}` in `{path}`"),
        )
        .with_label("unknown field");
        match suggestions.first() {
            Some(best) => {
                let list: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
                diagnostic = diagnostic.with_help(format!("did you mean {}?", join_or(&list)));
                if get(map, best).is_none()
                    && let Some(span) = name_span(entry.key.span, name)
                {
                    diagnostic = diagnostic.with_replacement(
                        format!("Rename `{name}` to `{best}`"),
                        span,
                        *best,
                    );
                }
            }
            None => {
                let names: Vec<String> = fields.map(|field| format!("`{}`", field.name)).collect();
                diagnostic = diagnostic.with_help(format!(
                    "the fields of {} are {}",
                    block.describe(),
                    names.join(", ")
                ));
            }
        }
        self.report(diagnostic);
    }

    /// `missing-field` for what a map of `block` (of `kind`) must hold.
    fn block_requirements(
        &mut self,
        map: &Map,
        block: Block,
        kind: Option<&str>,
        path: &Path<'_>,
        owner: Span,
    ) {
        let has = |key: &str| get(map, key).is_some();
        let bound = has("source");
        let mut required: Vec<(&str, &str)> = Vec::new();
        match block {
            Block::Tui if has("screens") && !has("screen") => required.push(("initial", "`screens` needs `initial`, the screen the dashboard opens first")),
            Block::Prompt => required.push(("key", "a prompt writes its value to the environment variable `key`")),
            Block::EnvVar => required.push(("name", "a variable is declared by its `name`")),
            Block::Component if !has("type") && !has("kind") => {
                required.push(("type", "a component's `type` is its kind: `list`, `table`, `logview`, `textview`, `tree`, `inspector` or `eventlog`"))
            }
            Block::Component => match kind {
                Some("list") if bound => required.push(("item", "a list bound to a source reads each item's text at the dot-path `item`")),
                Some("table") => {
                    required.push(("columns", "a table shows its `columns`"));
                    if bound && get(map, "markable").and_then(|entry| read_bool(&entry.value.value)) == Some(true) {
                        required.push(("mark_key", "a markable table bound to a source holds its marks by the dot-path `mark_key` (a row's position or a cell changes between fetches)"));
                    }
                }
                Some("tree") if bound => required.push(("label", "a tree bound to a source reads each node's label at the dot-path `label`")),
                Some("tree") if !has("on_cursor") => required.push(("root", "a tree that is not bound to a source draws its static `root`")),
                Some("eventlog") => {
                    required.push(("source", "an event log shows a windowed source"));
                    required.push(("key", "an event log tells its events apart by the dot-path `key`"));
                    required.push(("text", "an event log draws each event as the text at the dot-path `text`"));
                }
                _ => {}
            },
            _ => {}
        }
        if block == Block::Component
            && kind == Some("table")
            && bound
            && let Some(Value::Seq(columns)) = get(map, "columns").map(|entry| &entry.value.value)
        {
            let columns_path = Path::Child(path, "columns");
            for (index, column) in columns.iter().enumerate() {
                if let Some(column_map) = as_map(column)
                    && get(column_map, "value").is_none()
                {
                    self.missing_dashboard_field(
                        column_map,
                        Block::Column,
                        "value",
                        "a column of a table bound to a source reads its cells at the dot-path `value`",
                        &Path::Index(&columns_path, index),
                        column.span,
                    );
                }
            }
        }
        if block == Block::Component
            && kind == Some("table")
            && let Some(mark_key) = get(map, "mark_key")
        {
            self.mark_key(map, mark_key, bound, path);
        }
        if block == Block::Component && has("on_cursor") && !bound && kind != Some("eventlog") {
            required.push(("source", "`on_cursor` fetches the component's source again as the driver's cursor moves, so the component needs a `source`"));
        }
        match block {
            Block::ColorRule => {
                required.push(("color", "a color rule gives its matches a `color`"))
            }
            Block::OnCursor => required.push((
                "source",
                "`on_cursor.source` names the component whose cursor drives this one",
            )),
            Block::TreeNode | Block::InspectorField => {
                required.push(("label", "each node shows a `label`"))
            }
            Block::Screen => {
                required.push(("layout", "a screen places its components with `layout`"))
            }
            Block::Zstack => {
                required.push(("base", "a `zstack` draws `overlay` over `base`"));
                required.push(("overlay", "a `zstack` draws `overlay` over `base`"));
            }
            Block::Action => action_requirements(kind, &mut required),
            Block::Binding if !has("action") && !has("push") => {
                required.push(("action", "a binding fires an action of `actions` by name (`action`), or declares one inline under `name`"));
            }
            _ => {}
        }
        for (field, why) in required {
            if has(field) || (field == "type" && has("kind")) {
                continue;
            }
            // An inline declaration names itself; the registry form names the action.
            if block == Block::Binding && field == "action" && has("name") {
                if let Some(kind) = kind {
                    let mut inline = Vec::new();
                    action_requirements(Some(kind), &mut inline);
                    for (field, why) in inline {
                        if !has(field) {
                            self.missing_dashboard_field(map, block, field, why, path, owner);
                        }
                    }
                }
                continue;
            }
            self.missing_dashboard_field(map, block, field, why, path, owner);
        }
        if block == Block::LayoutNode || block == Block::StackItem {
            self.layout_node(map, path, owner);
        }
    }

    /// A table's `mark_key` is the identity of its marks: it needs `markable: true`, and a source
    /// (a static table's rows are fixed at load, so it keeps marks by position).
    fn mark_key(&mut self, map: &Map, mark_key: &Entry, bound: bool, path: &Path<'_>) {
        let markable = get(map, "markable");
        let diagnostic = if !bound {
            Diagnostic::new(
                Rule::UnknownField,
                mark_key.key.span,
                format!("`mark_key` applies to a table bound to a source, not to the static table `{path}`"),
            )
            .with_label("not a field of a static table")
            .with_help("remove `mark_key`: a static table's rows are fixed when the dashboard loads, so it keeps marks by row position")
        } else {
            match markable {
                Some(entry) if read_bool(&entry.value.value) == Some(true) => return,
                Some(entry) => Diagnostic::new(
                    Rule::ConflictingFields,
                    mark_key.key.span,
                    format!("`{path}` sets `mark_key` on a table that is not `markable`"),
                )
                .with_label("needs `markable: true`")
                .with_secondary(entry.value.span, "`markable` is not `true` here")
                .with_help(
                    "set `markable: true`, or remove `mark_key`: only a markable table keeps marks",
                ),
                None => Diagnostic::new(
                    Rule::MissingField,
                    mark_key.key.span,
                    format!("`{path}` sets `mark_key` but is missing `markable`"),
                )
                .with_label("needs `markable: true`")
                .with_help(
                    "add `markable: true`, or remove `mark_key`: only a markable table keeps marks",
                ),
            }
        };
        self.report(diagnostic);
    }

    fn missing_dashboard_field(
        &mut self,
        map: &Map,
        block: Block,
        field: &str,
        why: &str,
        path: &Path<'_>,
        owner: Span,
    ) {
        // A misspelled key gets its `unknown-field` with the rename: one mistake, one diagnostic.
        let misspelled = map.entries.iter().any(|entry| {
            block.field(&entry.key.name).is_none()
                && did_you_mean(&entry.key.name, [field]).first() == Some(&field)
        });
        if misspelled {
            return;
        }
        self.report(
            Diagnostic::new(
                Rule::MissingField,
                owner,
                format!("`{path}` is missing `{field}`"),
            )
            .with_label(format!("`{field}` is required here"))
            .with_help(format!("add `{field}`: {why}")),
        );
    }

    /// A layout node is exactly one of `vstack`, `hstack`, `zstack` and `component`.
    fn layout_node(&mut self, map: &Map, path: &Path<'_>, owner: Span) {
        let written: Vec<&Entry> = ["vstack", "hstack", "zstack", "component"]
            .iter()
            .filter_map(|key| get(map, key))
            .collect();
        match written.as_slice() {
            [] => self.missing_dashboard_field(
                map,
                Block::StackItem,
                "component",
                "a layout node is one of `vstack`, `hstack`, `zstack` and `component`",
                path,
                owner,
            ),
            [_] => {}
            [first, rest @ ..] => {
                for other in rest {
                    self.report(
                        Diagnostic::new(
                            Rule::ConflictingFields,
                            other.key.span,
                            format!(
                                "`{path}` sets both `{}` and `{}`: a layout node is exactly one of `vstack`, `hstack`, `zstack` and `component`",
                                first.key.name, other.key.name
                            ),
                        )
                        .with_label(format!("conflicts with `{}`", first.key.name))
                        .with_secondary(first.key.span, format!("`{}` is set here", first.key.name))
                        .with_help("split the node: put each in its own item of a `vstack` or `hstack`"),
                    );
                }
            }
        }
    }
}

/// What an action of `kind` must hold.
fn action_requirements(kind: Option<&str>, required: &mut Vec<(&'static str, &'static str)>) {
    match kind {
        Some("exec") => required.push(("run", "an `exec` action runs the command `run`")),
        Some("http") => required.push(("url", "an `http` action sends its request to `url`")),
        Some("push") => required.push(("push", "a `push` action opens the screen `push`")),
        _ => {}
    }
}

/// What a value of `ty` is, in "expected X".
fn expected(ty: Ty) -> &'static str {
    match ty {
        Ty::Str => "a string",
        Ty::Template => "a string",
        Ty::Path => "a dot-path or a list of them",
        Ty::Bool => "`true` or `false`",
        Ty::Int(_) => "an integer",
        Ty::Duration => "a duration such as `400ms`",
        Ty::Color => "a color",
        Ty::Glyph => "one character",
        Ty::OneOf(_) => "a string",
        Ty::Map(_) => "a map",
        Ty::List(_) | Ty::Templates | Ty::Strings | Ty::Rows => "a list",
        Ty::Named(_) => "a map by name",
        Ty::TemplateMap => "a map of templates",
    }
}
