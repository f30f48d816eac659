//! Markdown laid out for a terminal: what `sources explain` shows on one. Paragraphs and list
//! items are wrapped to the width, tables are laid out by comfy-table, and YAML and TOML code
//! blocks are highlighted (keys, strings and comments in their own colours). Without colour the
//! layout stays and inline code keeps its backticks.

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// How the text is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// The terminal's width in columns.
    pub width: usize,
    /// Whether to colour it with ANSI escapes.
    pub color: bool,
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const ITALIC: &str = "\x1b[3m";
const UNDERLINE: &str = "\x1b[4m";
const DIM: &str = "\x1b[2m";
const KEY: &str = "\x1b[34m";
const STRING: &str = "\x1b[32m";
const CODE: &str = "\x1b[36m";
/// How far a code block is indented.
const CODE_INDENT: &str = "    ";

/// `markdown` laid out for a terminal of `look`.
pub fn render(markdown: &str, look: Look) -> String {
    let mut writer = Writer {
        look,
        out: String::new(),
        inline: String::new(),
        styles: Vec::new(),
        lists: Vec::new(),
        marker: None,
        quote: 0,
        code: None,
        table: None,
        link: None,
    };
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        writer.event(event);
    }
    writer.flush();
    let mut out = writer.out;
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// A code block being read: its language and text.
struct Code {
    language: String,
    text: String,
}

/// A table being read: its rows of cells (the header first) and the cell being read.
#[derive(Default)]
struct Table {
    rows: Vec<Vec<String>>,
    cell: String,
}

struct Writer {
    look: Look,
    out: String,
    /// The text of the paragraph, heading or list item being read, styled.
    inline: String,
    /// The inline styles open around `inline`'s end.
    styles: Vec<&'static str>,
    /// The open lists, innermost last: the next number of an ordered one.
    lists: Vec<Option<u64>>,
    /// The marker (`•`, `2.`) the next line written starts with: an item's first line.
    marker: Option<String>,
    quote: usize,
    code: Option<Code>,
    table: Option<Table>,
    /// The destination of the link being read.
    link: Option<String>,
}

impl Writer {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => self.text(&text),
            Event::Code(code) => {
                if self.look.color {
                    self.styled(CODE, &code);
                } else {
                    self.text(&format!("`{code}`"));
                }
            }
            Event::SoftBreak => self.text(" "),
            Event::HardBreak => self.inline.push('\n'),
            Event::Rule => {
                self.block();
                self.out.push_str(&"─".repeat(self.look.width.min(40)));
                self.out.push('\n');
            }
            Event::Html(html) | Event::InlineHtml(html) => self.text(&html),
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph | Tag::Heading { .. } => {
                if self.marker.is_none() {
                    self.block();
                }
                if matches!(tag, Tag::Heading { .. }) {
                    self.open(BOLD);
                    self.open(UNDERLINE);
                }
            }
            Tag::BlockQuote(_) => {
                self.block();
                self.quote += 1;
            }
            Tag::CodeBlock(kind) => {
                self.block();
                let language = match kind {
                    CodeBlockKind::Fenced(info) => {
                        info.split_whitespace().next().unwrap_or("").to_owned()
                    }
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some(Code {
                    language,
                    text: String::new(),
                });
            }
            Tag::List(first) => {
                self.flush();
                if self.lists.is_empty() {
                    self.block();
                }
                self.lists.push(first);
            }
            Tag::Item => {
                self.flush();
                let marker = match self.lists.last_mut() {
                    Some(Some(number)) => {
                        *number += 1;
                        format!("{}. ", *number - 1)
                    }
                    _ => "• ".to_owned(),
                };
                self.marker = Some(marker);
            }
            Tag::Table(_) => {
                self.block();
                self.table = Some(Table::default());
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(table) = &mut self.table {
                    table.rows.push(Vec::new());
                }
            }
            Tag::Emphasis => self.open(ITALIC),
            Tag::Strong => self.open(BOLD),
            Tag::Link { dest_url, .. } => self.link = Some(dest_url.to_string()),
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::Item => self.flush(),
            TagEnd::Heading(_) => {
                self.close();
                self.close();
                self.flush();
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
            }
            TagEnd::CodeBlock => {
                if let Some(code) = self.code.take() {
                    self.code_block(&code);
                }
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
            }
            TagEnd::Table => {
                if let Some(table) = self.table.take() {
                    self.table(table);
                }
            }
            TagEnd::TableCell => {
                if let Some(table) = &mut self.table {
                    let cell = std::mem::take(&mut table.cell);
                    if let Some(row) = table.rows.last_mut() {
                        row.push(cell);
                    }
                }
            }
            TagEnd::Emphasis | TagEnd::Strong => self.close(),
            TagEnd::Link => {
                if let Some(destination) = self.link.take() {
                    if !destination.starts_with('#') && !self.inline.ends_with(&destination) {
                        self.styled(DIM, &format!(" ({destination})"));
                    }
                }
            }
            _ => {}
        }
    }

    /// Plain text: into the code block, the table cell or the inline text being read.
    fn text(&mut self, text: &str) {
        if let Some(code) = &mut self.code {
            code.text.push_str(text);
        } else if let Some(table) = &mut self.table {
            table.cell.push_str(text);
        } else {
            self.inline.push_str(text);
        }
    }

    /// `text` in `style` (only with colour; a table cell stays plain, as comfy-table measures it).
    fn styled(&mut self, style: &'static str, text: &str) {
        if !self.look.color || self.table.is_some() || self.code.is_some() {
            self.text(text);
            return;
        }
        self.open(style);
        self.text(text);
        self.close();
    }

    fn open(&mut self, style: &'static str) {
        self.styles.push(style);
        if self.look.color && self.table.is_none() {
            self.inline.push_str(style);
        }
    }

    /// Ends the innermost style: resets, then opens the outer ones again.
    fn close(&mut self) {
        self.styles.pop();
        if self.look.color && self.table.is_none() {
            self.inline.push_str(RESET);
            for style in &self.styles {
                self.inline.push_str(style);
            }
        }
    }

    /// Starts a block: a blank line after whatever came before.
    fn block(&mut self) {
        self.flush();
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    /// How far the lists and quotes indent a block's lines.
    fn indent(&self) -> String {
        format!(
            "{}{}",
            "│ ".repeat(self.quote),
            "  ".repeat(self.lists.len())
        )
    }

    /// Writes the inline text read so far, wrapped to the width under the current indent (its
    /// first line after the item's marker, if any).
    fn flush(&mut self) {
        let text = std::mem::take(&mut self.inline);
        if text.trim().is_empty() {
            return;
        }
        let quote = "│ ".repeat(self.quote);
        let (first, subsequent) = match self.marker.take() {
            Some(marker) => {
                let outer = format!("{quote}{}", "  ".repeat(self.lists.len().saturating_sub(1)));
                let hang = " ".repeat(textwrap::core::display_width(&marker));
                (format!("{outer}{marker}"), format!("{outer}{hang}"))
            }
            None => (self.indent(), self.indent()),
        };
        let options = textwrap::Options::new(self.look.width.max(20))
            .initial_indent(&first)
            .subsequent_indent(&subsequent);
        for line in textwrap::wrap(text.trim(), options) {
            self.out.push_str(line.trim_end());
            self.out.push('\n');
        }
    }

    fn code_block(&mut self, code: &Code) {
        let indent = format!("{}{CODE_INDENT}", self.indent());
        for line in code.text.lines() {
            self.out.push_str(&indent);
            if self.look.color {
                self.out.push_str(&highlight(line, &code.language));
            } else {
                self.out.push_str(line);
            }
            self.out.push('\n');
        }
    }

    fn table(&mut self, table: Table) {
        let mut rows = table.rows.into_iter();
        let mut laid_out = comfy_table::Table::new();
        laid_out
            .load_preset(comfy_table::presets::UTF8_FULL_CONDENSED)
            .set_content_arrangement(comfy_table::ContentArrangement::Dynamic)
            .set_width(u16::try_from(self.look.width).unwrap_or(u16::MAX));
        if let Some(header) = rows.next() {
            laid_out.set_header(header);
        }
        for row in rows {
            laid_out.add_row(row);
        }
        let indent = self.indent();
        for line in laid_out.lines() {
            self.out.push_str(&indent);
            self.out.push_str(line.trim_end());
            self.out.push('\n');
        }
    }
}

/// One line of a YAML or TOML code block with its keys, strings and comments coloured; a line of
/// another language is left as it is.
pub fn highlight(line: &str, language: &str) -> String {
    let toml = match language {
        "yaml" | "yml" => false,
        "toml" => true,
        _ => return line.to_owned(),
    };
    let mut out = String::with_capacity(line.len() * 2);
    let mut rest = line;
    let key = key_span(line, toml);
    if let Some((start, end)) = key {
        out.push_str(&line[..start]);
        out.push_str(KEY);
        out.push_str(&line[start..end]);
        out.push_str(RESET);
        rest = &line[end..];
    }
    let mut chars = rest.char_indices();
    let mut at_word_start = key.is_none();
    let mut flow = 0usize;
    while let Some((index, c)) = chars.next() {
        match c {
            // A key of a YAML flow mapping: `{type: http, url: …}`.
            _ if !toml && flow > 0 && at_word_start && c.is_alphanumeric() => {
                let end = key_span(&rest[index..], false).map_or(0, |(_, end)| index + end);
                if end > index {
                    out.push_str(KEY);
                    out.push_str(&rest[index..end]);
                    out.push_str(RESET);
                    while chars.clone().next().is_some_and(|(next, _)| next < end) {
                        chars.next();
                    }
                } else {
                    out.push(c);
                }
                at_word_start = false;
            }
            '#' if at_word_start => {
                out.push_str(DIM);
                out.push_str(&rest[index..]);
                out.push_str(RESET);
                return out;
            }
            '"' | '\'' => {
                let mut end = rest.len();
                let mut escaped = false;
                for (next, d) in chars.by_ref() {
                    if d == c && !escaped {
                        end = next + d.len_utf8();
                        break;
                    }
                    escaped = c == '"' && d == '\\' && !escaped;
                }
                out.push_str(STRING);
                out.push_str(&rest[index..end]);
                out.push_str(RESET);
                at_word_start = false;
            }
            _ => {
                out.push(c);
                match c {
                    '{' => flow += 1,
                    '}' => flow = flow.saturating_sub(1),
                    _ => {}
                }
                at_word_start = c.is_whitespace() || matches!(c, '{' | '[' | ',');
            }
        }
    }
    out
}

/// Where the key of a `key: value` (YAML, after any `- `) or `key = value` (TOML) line starts and
/// ends, or a TOML `[table]` header; `None` when the line does not start with one.
fn key_span(line: &str, toml: bool) -> Option<(usize, usize)> {
    let trimmed = line.trim_start();
    let start = line.len() - trimmed.len();
    if toml {
        if trimmed.starts_with('[') {
            return Some((start, line.trim_end().len()));
        }
        let equals = trimmed.find('=')?;
        let key = trimmed[..equals].trim_end();
        let plain = key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '"' | ' '));
        return (!key.is_empty() && plain).then_some((start, start + key.len()));
    }
    let body = trimmed.strip_prefix("- ").unwrap_or(trimmed);
    let offset = line.len() - body.len();
    if body.starts_with(['#', '"', '\'', '{', '[']) {
        return None;
    }
    let colon = body.find(':')?;
    let after = &body[colon + 1..];
    let plain = body[..colon]
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '<' | '$' | ' '));
    (plain && colon > 0 && (after.is_empty() || after.starts_with(' ')))
        .then_some((offset, offset + colon))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(markdown: &str, width: usize) -> String {
        render(
            markdown,
            Look {
                width,
                color: false,
            },
        )
    }

    #[test]
    fn paragraphs_wrap_to_the_width_and_keep_their_code() {
        let text = plain(
            "A field that `refresh` names, which goes on and on past the end of the line.\n\nNext.",
            30,
        );
        assert_eq!(
            text,
            "A field that `refresh` names,\nwhich goes on and on past the\nend of the line.\n\nNext.\n"
        );
    }

    #[test]
    fn list_items_hang_under_their_marker() {
        let text = plain(
            "- one item that is long enough to wrap\n- two\n  1. nested\n  2. again\n",
            24,
        );
        assert_eq!(
            text,
            "• one item that is long\n  enough to wrap\n• two\n  1. nested\n  2. again\n"
        );
    }

    #[test]
    fn tables_are_laid_out_and_code_blocks_indented() {
        let text = plain(
            "| a | b |\n|---|---|\n| `x` | y |\n\n```yaml lint=clean\nkey: \"v\"\n```\n",
            40,
        );
        assert!(text.starts_with("┌"), "{text}");
        assert!(text.contains("│ `x` ┆ y │"), "{text}");
        assert!(text.ends_with("\n\n    key: \"v\"\n"), "{text}");
        assert!(!text.contains("lint="), "{text}");
    }

    #[test]
    fn colour_styles_inline_code_and_highlights_yaml() {
        let text = render(
            "**Why:** `a`\n\n```yaml\nurl: \"x\" # c\n- name: y\n```\n",
            Look {
                width: 40,
                color: true,
            },
        );
        assert!(
            text.starts_with(&format!("{BOLD}Why:{RESET} {CODE}a{RESET}\n")),
            "{text:?}"
        );
        assert!(
            text.contains(&format!(
                "    {KEY}url{RESET}: {STRING}\"x\"{RESET} {DIM}# c{RESET}\n"
            )),
            "{text:?}"
        );
        assert!(
            text.contains(&format!("    - {KEY}name{RESET}: y\n")),
            "{text:?}"
        );
    }

    #[test]
    fn the_documents_render_at_any_width_with_prose_within_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for document in ["README.md", "docs/reference.md", "docs/rules.md"] {
            let text = std::fs::read_to_string(root.join(document)).expect("the document");
            for width in [20, 47, 80, 133] {
                for color in [false, true] {
                    let shown = render(&text, Look { width, color });
                    assert!(shown.ends_with('\n'), "{document}");
                    if !color {
                        // Prose is wrapped; only code lines, long words and tables may be wider.
                        let wide = shown.lines().filter(|line| {
                            line.chars().count() > width
                                && !line.starts_with(' ')
                                && line.contains(' ')
                                && !line.contains(['│', '┆', '─', '┌', '└', '╞', '├'])
                        });
                        assert_eq!(wide.count(), 0, "{document} at {width}");
                    }
                }
            }
        }
    }

    #[test]
    fn toml_keys_headers_and_comments_are_coloured() {
        assert_eq!(highlight("[rules]", "toml"), format!("{KEY}[rules]{RESET}"));
        assert_eq!(
            highlight("a-b = \"off\"  # why", "toml"),
            format!("{KEY}a-b{RESET} = {STRING}\"off\"{RESET}  {DIM}# why{RESET}")
        );
        assert_eq!(highlight("url: x", "sh"), "url: x");
        assert_eq!(
            highlight("url: a#b", "yaml"),
            format!("{KEY}url{RESET}: a#b")
        );
        assert_eq!(
            highlight("a: {type: http, on: {id: x}}", "yaml"),
            format!(
                "{KEY}a{RESET}: {{{KEY}type{RESET}: http, {KEY}on{RESET}: {{{KEY}id{RESET}: x}}}}"
            )
        );
    }
}
