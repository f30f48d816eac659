//! Where the cursor stands, read from the text's layout: the keys of the enclosing maps and whether
//! the cursor is on a key or in a value. Half-typed text (`  ur`, `from: `) does not parse, so
//! completion cannot rely on the tree; block YAML's indentation and TOML's table headers still say
//! where the cursor is.

use sources_config::fields::Section;
use sources_syntax::{LineIndex, PositionEncoding, Span, Syntax};

/// What the cursor is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// A key (possibly half-typed, possibly empty): its text and span.
    Key {
        /// The key's text up to its end (or what is typed so far).
        word: String,
        /// Where it is written.
        span: Span,
    },
    /// The value of `key` (or an item of its list): the word under the cursor and its span.
    Value {
        /// The key the value belongs to.
        key: String,
        /// The value's word around the cursor.
        word: String,
        /// Where that word is written.
        span: Span,
    },
}

/// The cursor's place in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Context {
    /// The keys of the maps enclosing the cursor, outermost first (list items add no key).
    pub(crate) path: Vec<String>,
    /// Key or value.
    pub(crate) slot: Slot,
    /// The other keys written in the same map as the cursor's line.
    pub(crate) siblings: Vec<String>,
}

/// The part of the document a path leads into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The fields of the entry named here.
    Entry(String),
    /// A nested section of the entry named here.
    Section(String, Section),
    /// The values of the entry's `parts` map (compose).
    Parts(String),
    /// A stage of the entry's `pipe`.
    Stage(String),
    /// A component of `tui.components`.
    Component,
    /// Anything else.
    Other,
}

impl Context {
    /// What the path leads into.
    pub(crate) fn scope(&self) -> Scope {
        let path: Vec<&str> = self.path.iter().map(String::as_str).collect();
        match path.as_slice() {
            ["data", "sources", name] => Scope::Entry((*name).to_owned()),
            ["data", "sources", name, rest @ ..] => {
                let name = (*name).to_owned();
                let section = match rest {
                    ["window"] => Section::Window,
                    ["window", "growing"] => Section::Growing,
                    ["paginate"] => Section::Paginate,
                    ["cache"] => Section::Cache,
                    ["parameters", _] => Section::Parameter,
                    ["children"] => Section::MergeChild,
                    ["driver"] => Section::JoinDriver,
                    ["lookups", _] => Section::JoinLookup,
                    ["parts"] => return Scope::Parts(name),
                    ["pipe"] => return Scope::Stage(name),
                    _ => return Scope::Other,
                };
                Scope::Section(name, section)
            }
            ["tui", "components"] | ["tui", "components", _] => Scope::Component,
            _ => Scope::Other,
        }
    }
}

/// Characters that end a word (a key, a name, an enumeration value).
fn is_separator(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            ',' | '[' | ']' | '{' | '}' | ':' | '"' | '\'' | '#' | '='
        )
}

/// The word around `cursor` in `line` (byte offsets within the line).
fn word_at(line: &str, cursor: usize) -> (usize, usize) {
    let start = line[..cursor]
        .char_indices()
        .rev()
        .find(|(_, c)| is_separator(*c))
        .map_or(0, |(index, c)| index + c.len_utf8());
    let end = line[cursor..]
        .find(is_separator)
        .map_or(line.len(), |index| cursor + index);
    (start, end)
}

/// One line of block YAML: the column of its key (after any `- ` markers), the key, whether a
/// value follows the colon on the same line, and the column of its first `-` marker.
struct YamlLine<'a> {
    key_column: usize,
    dash_column: Option<usize>,
    key: Option<&'a str>,
    /// Byte offset (within the line) just after the key's colon.
    colon_end: Option<usize>,
    inline_value: bool,
}

fn strip_quotes(key: &str) -> &str {
    let key = key.trim();
    for quote in ['"', '\''] {
        if let Some(inner) = key
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner;
        }
    }
    key
}

fn yaml_line(line: &str) -> YamlLine<'_> {
    let mut column = line.len() - line.trim_start().len();
    let mut dash_column = None;
    while line[column..].starts_with("- ") || &line[column..] == "-" {
        dash_column.get_or_insert(column);
        column += 1;
        column += line[column..].len() - line[column..].trim_start().len();
    }
    let content = &line[column..];
    let mut quote = None;
    let mut colon = None;
    for (index, c) in content.char_indices() {
        match (quote, c) {
            (Some(open), c) if c == open => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if index == 0 => quote = Some(c),
            (None, '#') if index == 0 || content[..index].ends_with(' ') => break,
            (None, ':') => {
                let next = content[index + 1..].chars().next();
                if next.is_none_or(char::is_whitespace) {
                    colon = Some(index);
                    break;
                }
            }
            (None, '[' | '{') if index == 0 => break,
            _ => {}
        }
    }
    let key = colon.map(|colon| strip_quotes(&content[..colon]));
    let colon_end = colon.map(|colon| column + colon + 1);
    let inline_value = colon_end.is_some_and(|end| {
        let rest = line[end..].trim();
        !rest.is_empty() && !rest.starts_with('#')
    });
    YamlLine {
        key_column: column,
        dash_column,
        key,
        colon_end,
        inline_value,
    }
}

/// The list keys whose `- item` lines are values (names, argv, messages), not maps.
const SCALAR_LIST_KEYS: &[&str] = &["sources", "command", "initial_messages", "options"];

fn yaml_context(lines: &[&str], line: usize, cursor: usize, line_start: usize) -> Context {
    let text = lines[line];
    let current = yaml_line(text);
    let mut threshold = if text.trim().is_empty() {
        cursor
    } else {
        current.dash_column.unwrap_or(current.key_column)
    };
    let mut path = Vec::new();
    for above in lines[..line].iter().rev() {
        if threshold == 0 {
            break;
        }
        let trimmed = above.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let parsed = yaml_line(above);
        if parsed.key_column < threshold
            && let Some(key) = parsed.key.filter(|_| !parsed.inline_value)
        {
            path.push(key.to_owned());
            threshold = parsed.dash_column.unwrap_or(parsed.key_column);
            continue;
        }
        if let Some(dash) = parsed.dash_column.filter(|dash| *dash < threshold) {
            threshold = dash;
        }
    }
    path.reverse();
    let own_column = if text.trim().is_empty() {
        cursor
    } else {
        current.key_column
    };
    let siblings = yaml_siblings(lines, line, own_column);
    let (start, end) = word_at(text, cursor);
    let span = Span::new(line_start + start, line_start + end);
    let word = text[start..end].to_owned();
    let slot = match current.colon_end {
        Some(colon_end) if cursor >= colon_end => Slot::Value {
            key: current.key.unwrap_or_default().to_owned(),
            word,
            span,
        },
        _ => match (current.dash_column, path.last()) {
            (Some(_), Some(parent)) if SCALAR_LIST_KEYS.contains(&parent.as_str()) => {
                let key = path.pop().unwrap_or_default();
                Slot::Value { key, word, span }
            }
            _ => Slot::Key { word, span },
        },
    };
    Context {
        path,
        slot,
        siblings,
    }
}

/// The keys at `column` in the block around `line` (stopping at lines indented less, and at the
/// start of another list item).
fn yaml_siblings(lines: &[&str], line: usize, column: usize) -> Vec<String> {
    let mut siblings = Vec::new();
    let mut visit = |text: &str| -> bool {
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return true;
        }
        let parsed = yaml_line(text);
        if parsed.dash_column.unwrap_or(parsed.key_column) < column {
            if parsed.key_column == column
                && let Some(key) = parsed.key
            {
                siblings.push(key.to_owned());
            }
            return false;
        }
        if parsed.key_column == column
            && let Some(key) = parsed.key
        {
            siblings.push(key.to_owned());
        }
        true
    };
    for above in lines[..line].iter().rev() {
        if !visit(above) {
            break;
        }
    }
    for below in lines.iter().skip(line + 1) {
        let parsed = yaml_line(below);
        if parsed.dash_column.is_some_and(|dash| dash < column) {
            break;
        }
        if !visit(below) {
            break;
        }
    }
    siblings
}

/// Splits a dotted TOML key (`data.sources."my app"`) into its parts, each with the byte range of
/// its bare text (inside any quotes) within `dotted`.
fn toml_key_spans(dotted: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut keys = Vec::new();
    let mut current = String::new();
    let mut range: Option<std::ops::Range<usize>> = None;
    let mut quote = None;
    for (index, c) in dotted.char_indices() {
        let end = index + c.len_utf8();
        match (quote, c) {
            (Some(open), c) if c == open => quote = None,
            (None, '"' | '\'') => {
                quote = Some(c);
                range = Some(end..end);
            }
            (None, '.') => keys.push((
                std::mem::take(&mut current),
                range.take().unwrap_or(index..index),
            )),
            (None, c) if c.is_whitespace() => {}
            (_, c) => {
                current.push(c);
                let start = range.as_ref().map_or(index, |range| range.start);
                range = Some(start..end);
            }
        }
    }
    let last = range.unwrap_or(dotted.len()..dotted.len());
    keys.push((current, last));
    keys
}

/// Splits a dotted TOML key into its parts.
fn toml_keys(dotted: &str) -> Vec<String> {
    toml_key_spans(dotted)
        .into_iter()
        .map(|(key, _)| key)
        .collect()
}

/// The parts of a TOML table header line (`[a.b]`, `[[a.b]]`) with their byte ranges in the line,
/// if the line is one.
fn toml_header_spans(line: &str) -> Option<Vec<(String, std::ops::Range<usize>)>> {
    let trimmed = line.trim_start();
    let header = trimmed.strip_prefix('[')?.trim_start_matches('[');
    let offset = line.len() - header.len();
    let end = header.find(']')?;
    let keys = toml_key_spans(&header[..end]);
    Some(
        keys.into_iter()
            .map(|(key, range)| (key, range.start + offset..range.end + offset))
            .collect(),
    )
}

/// The keys of a TOML table header line, if the line is one.
fn toml_header(line: &str) -> Option<Vec<String>> {
    toml_header_spans(line).map(|keys| keys.into_iter().map(|(key, _)| key).collect())
}

/// Where a name of the map at `parent` is written in the TOML table headers below it: an entry of
/// `data.sources`, a component of `tui.components` or a screen of `tui.screens` (a table
/// `[data.sources.NAME]` and its sub-tables `[data.sources.NAME.window]` each repeat it).
pub(crate) fn toml_headers_naming(text: &str, parent: [&str; 2], name: &str) -> Vec<Span> {
    let mut found = Vec::new();
    let mut line_start = 0;
    for line in text.split('\n') {
        if let Some(keys) = toml_header_spans(line)
            && let [(first, _), (second, _), (named, range), ..] = keys.as_slice()
            && [first.as_str(), second.as_str()] == parent
            && named == name
        {
            found.push(Span::new(line_start + range.start, line_start + range.end));
        }
        line_start += line.len() + 1;
    }
    found
}

fn toml_context(lines: &[&str], line: usize, cursor: usize, line_start: usize) -> Context {
    let mut path = Vec::new();
    let mut table_start = 0;
    for (index, above) in lines[..line].iter().enumerate().rev() {
        if let Some(header) = toml_header(above) {
            path = header;
            table_start = index + 1;
            break;
        }
    }
    let table_end = lines
        .iter()
        .enumerate()
        .skip(line + 1)
        .find(|(_, below)| toml_header(below).is_some())
        .map_or(lines.len(), |(index, _)| index);
    let siblings: Vec<String> = (table_start..table_end)
        .filter(|index| *index != line)
        .filter_map(|index| {
            let (key, _) = lines[index].split_once('=')?;
            toml_keys(key.trim()).into_iter().next()
        })
        .collect();
    let text = lines[line];
    let (start, end) = word_at(text, cursor);
    let span = Span::new(line_start + start, line_start + end);
    let word = text[start..end].to_owned();
    let slot = match text.find('=') {
        Some(equals) if cursor > equals => {
            let mut keys = toml_keys(text[..equals].trim());
            let key = keys.pop().unwrap_or_default();
            path.extend(keys);
            Slot::Value { key, word, span }
        }
        _ => match text[start..cursor].rfind('.') {
            Some(dot) => {
                path.extend(toml_keys(&text[start..start + dot]));
                let start = start + dot + 1;
                let span = Span::new(line_start + start, line_start + end);
                Slot::Key {
                    word: text[start..end].to_owned(),
                    span,
                }
            }
            None => Slot::Key { word, span },
        },
    };
    Context {
        path,
        slot,
        siblings,
    }
}

/// The cursor's context at byte `offset` of the indexed text.
pub(crate) fn at(index: &LineIndex, syntax: Syntax, offset: usize) -> Context {
    let text = index.text();
    let offset = offset.min(text.len());
    let (line, _) = index.position(offset, PositionEncoding::Utf8);
    let line_start = index.offset(line, 0, PositionEncoding::Utf8).unwrap_or(0);
    let lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    let line = (line as usize).min(lines.len().saturating_sub(1));
    let cursor = (offset - line_start).min(lines[line].len());
    let cursor = (0..=cursor)
        .rev()
        .find(|index| lines[line].is_char_boundary(*index))
        .unwrap_or(0);
    match syntax {
        Syntax::Yaml => yaml_context(&lines, line, cursor, line_start),
        Syntax::Toml => toml_context(&lines, line, cursor, line_start),
    }
}

/// The `${…}` token around `offset` on its line, if the cursor is inside one: the token's text
/// from `${` up to the cursor, and the file offset of its `$`. An unclosed token counts (it is
/// being typed).
pub(crate) fn template_before(text: &str, offset: usize) -> Option<(&str, usize)> {
    let offset = (0..=offset.min(text.len()))
        .rev()
        .find(|index| text.is_char_boundary(*index))?;
    let line_start = text[..offset].rfind('\n').map_or(0, |newline| newline + 1);
    let before = &text[line_start..offset];
    let open = before.rfind("${")?;
    if before[open..].contains('}') {
        return None;
    }
    Some((&before[open..], line_start + open))
}

/// The whole `${…}` token containing `offset`, if any: its text and file span.
pub(crate) fn template_around(text: &str, offset: usize) -> Option<(&str, Span)> {
    let (_, start) = template_before(text, offset)?;
    let line_end = text[start..]
        .find('\n')
        .map_or(text.len(), |newline| start + newline);
    let close = text[start..line_end].find('}')?;
    let end = start + close + 1;
    Some((&text[start..end], Span::new(start, end)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(fixture: &str, syntax: Syntax) -> Context {
        let offset = fixture.find("$0").expect("a $0 cursor");
        let text = fixture.replacen("$0", "", 1);
        at(&LineIndex::new(&text), syntax, offset)
    }

    fn key(word: &str) -> Slot {
        Slot::Key {
            word: word.to_owned(),
            span: Span::default(),
        }
    }

    fn without_span(slot: Slot) -> Slot {
        match slot {
            Slot::Key { word, .. } => Slot::Key {
                word,
                span: Span::default(),
            },
            Slot::Value { key, word, .. } => Slot::Value {
                key,
                word,
                span: Span::default(),
            },
        }
    }

    #[test]
    fn yaml_keys_values_and_list_items() {
        let yaml = "data:\n  sources:\n    apps:\n      type: http\n      ur$0\n";
        let found = context(yaml, Syntax::Yaml);
        assert_eq!(found.path, ["data", "sources", "apps"]);
        assert_eq!(without_span(found.slot.clone()), key("ur"));
        assert_eq!(found.scope(), Scope::Entry("apps".into()));

        let yaml =
            "data:\n  sources:\n    apps:\n      window:\n        page_size: 10\n        $0\n";
        let found = context(yaml, Syntax::Yaml);
        assert_eq!(
            found.scope(),
            Scope::Section("apps".into(), Section::Window)
        );
        assert_eq!(found.siblings, ["page_size"]);

        let yaml = "data:\n  sources:\n    top:\n      type: passthrough\n      from: ap$0ps\n";
        let found = context(yaml, Syntax::Yaml);
        let Slot::Value { key, word, span } = found.slot else {
            panic!("a value slot")
        };
        assert_eq!((key.as_str(), word.as_str()), ("from", "apps"));
        assert_eq!(&yaml.replacen("$0", "", 1)[span.range()], "apps");

        let yaml = "data:\n  sources:\n    all:\n      type: merge\n      sources:\n        - a\n        - $0\n";
        let found = context(yaml, Syntax::Yaml);
        assert_eq!(found.path, ["data", "sources", "all"]);
        assert!(matches!(found.slot, Slot::Value { ref key, .. } if key == "sources"));

        let yaml = "tui:\n  components:\n    - kind: table\n      source: $0\n";
        let found = context(yaml, Syntax::Yaml);
        assert_eq!(found.scope(), Scope::Component);

        let yaml = "data:\n  sources:\n    j:\n      type: join\n      lookups:\n        detail:\n          $0\n";
        assert_eq!(
            context(yaml, Syntax::Yaml).scope(),
            Scope::Section("j".into(), Section::JoinLookup)
        );
    }

    #[test]
    fn toml_headers_and_dotted_keys() {
        let toml = "[data.sources.apps]\ntype = \"http\"\nur$0\n[data.sources.b]\nurl = 1\n";
        let found = context(toml, Syntax::Toml);
        assert_eq!(found.path, ["data", "sources", "apps"]);
        assert_eq!(found.siblings, ["type"]);
        assert_eq!(without_span(found.slot.clone()), key("ur"));
        let toml = "[data.sources.apps.window]\nanchor = \"ne$0\"\n";
        let found = context(toml, Syntax::Toml);
        assert_eq!(
            found.scope(),
            Scope::Section("apps".into(), Section::Window)
        );
        assert!(matches!(found.slot, Slot::Value { ref key, .. } if key == "anchor"));
        let headers =
            "[data.sources.apps]\n[[ data.sources.\"apps\".pipe ]]\n[data.sources.other]\n";
        let spans = toml_headers_naming(headers, ["data", "sources"], "apps");
        let names: Vec<&str> = spans.iter().map(|span| &headers[span.range()]).collect();
        assert_eq!(names, ["apps", "apps"]);
        assert_eq!(
            spans[1].start(),
            headers.find("\"apps\"").expect("quoted") + 1
        );
        let toml = "[data.sources.apps]\nwindow.page$0\n";
        assert_eq!(
            context(toml, Syntax::Toml).scope(),
            Scope::Section("apps".into(), Section::Window)
        );
    }

    #[test]
    fn template_tokens_around_the_cursor() {
        let text = "url: https://x/${params.re\nnext: ${window.offset}\n";
        let (token, start) =
            template_before(text, text.find("re\n").expect("re") + 2).expect("open token");
        assert_eq!((token, start), ("${params.re", text.find("${").expect("$")));
        let inside = text.find("offset").expect("offset");
        let (token, span) = template_around(text, inside).expect("a token");
        assert_eq!(token, "${window.offset}");
        assert_eq!(&text[span.range()], "${window.offset}");
        assert!(template_around(text, text.find("next").expect("next")).is_none());
    }

    /// The layout reader and the parser agree on well-formed documents: at every key the model
    /// records for an entry, in every configuration of `testdata/valid`, the reader finds the same
    /// entry and the same key.
    #[test]
    fn the_layout_reader_agrees_with_the_parser_on_valid_configurations() {
        let valid = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/valid");
        let mut cases = Vec::new();
        for entry in std::fs::read_dir(&valid).expect("testdata/valid is readable") {
            let path = entry.expect("a directory entry").path();
            let syntax = match path.extension().and_then(|extension| extension.to_str()) {
                Some("yaml" | "yml") => Syntax::Yaml,
                Some("toml") => Syntax::Toml,
                _ => continue,
            };
            let text = std::fs::read_to_string(&path).expect("a configuration");
            cases.push((text, syntax));
        }
        assert!(!cases.is_empty(), "no configuration in testdata/valid");
        let mut checked = 0;
        for (text, syntax) in &cases {
            let (text, syntax) = (text.as_str(), *syntax);
            let analysis = sources_check::analyze(text, syntax);
            let index = LineIndex::new(text);
            for entry in &analysis.config.entries {
                for key in &entry.keys {
                    // A TOML table header (`[data.sources.x.paginate]`) names a key too; the
                    // reader treats a header as a header, not a key to complete.
                    let line_start = text[..key.span.start()].rfind('\n').map_or(0, |n| n + 1);
                    // A key a YAML merge (`<<: *defaults`) brings in is written at its anchor,
                    // which comes before the entry: it is another map's key there.
                    if text[line_start..].starts_with('[')
                        || key.span.start() < entry.name.span.start()
                    {
                        continue;
                    }
                    let found = at(&index, syntax, key.span.start() + 1);
                    assert_eq!(
                        found.scope(),
                        Scope::Entry(entry.name.value.to_string()),
                        "{syntax:?} `{}` at `{}`",
                        entry.name.value,
                        key.name
                    );
                    match found.slot {
                        Slot::Key { word, .. } => assert!(
                            key.name.starts_with(&word) && !word.is_empty(),
                            "{syntax:?} `{}`: the reader reads `{word}` at `{}`",
                            entry.name.value,
                            key.name
                        ),
                        other => panic!("{syntax:?} at `{}`: {other:?}", key.name),
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 50, "only {checked} keys compared");
    }
}
