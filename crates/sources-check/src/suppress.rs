//! Suppression comments: `# sources: ignore[CODE, …]` silences those rules' diagnostics that start
//! on the line it ends (or, on a line of its own, on the next line); `# sources: ignore-file[CODE]`
//! silences them in the whole file. The same comments work in YAML and TOML.
//!
//! A suppression that silences nothing, names an unknown rule or is malformed is reported as
//! `unused-suppression`, with a safe fix that removes it, or that renames a misspelt code to the
//! code it resembles (keeping the rest of the comment). This module also writes suppressions
//! ([`suppression_edit`]) for the editor's code action and `sources lint --add-suppressions`.

use std::cell::{Cell, OnceCell};

use sources_diagnostics::{Diagnostic, Edit, Rule, Span, did_you_mean};
use sources_syntax::{Node, Syntax, Value};

/// What a suppression covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    /// Diagnostics starting on this 0-based line.
    Line(usize),
    /// The whole file.
    File,
}

/// One rule code written in a suppression.
#[derive(Debug)]
struct Code {
    /// The text as written.
    name: String,
    /// Where it is written.
    span: Span,
    /// The rule, when the code names one.
    rule: Option<Rule>,
    /// Whether it silenced a diagnostic.
    used: Cell<bool>,
}

/// One suppression comment.
#[derive(Debug)]
struct Suppression {
    scope: Scope,
    codes: Vec<Code>,
    /// The bytes removing the comment removes: its own line, or the comment and the blanks before it.
    removal: Span,
}

/// A `# sources:` comment that is not a well-formed suppression.
#[derive(Debug)]
struct Malformed {
    span: Span,
    removal: Span,
}

/// Where the comments of a document are: every `#` outside a string or key starts one.
struct Comments<'a> {
    text: &'a str,
    root: Option<&'a Node>,
    /// Spans of strings and keys, sorted by start: collected on first use, which only a line with
    /// a `# sources:` in it needs.
    strings: OnceCell<Vec<Span>>,
}

impl<'a> Comments<'a> {
    fn new(text: &'a str, root: Option<&'a Node>) -> Comments<'a> {
        Comments {
            text,
            root,
            strings: OnceCell::new(),
        }
    }

    /// Whether `offset` lies strictly inside a string or key (they never overlap).
    fn in_string(&self, offset: usize) -> bool {
        let strings = self.strings.get_or_init(|| string_spans(self.root));
        let after = strings.partition_point(|span| span.start() < offset);
        after > 0 && offset < strings[after - 1].end()
    }

    /// The comment of each line that has one and a `# sources:` in it (the only comments
    /// suppressions are read from): (0-based line number, start of the line, offset of the
    /// comment's `#`, end of the line before its line break).
    fn each(&self) -> impl Iterator<Item = (usize, usize, usize, usize)> + '_ {
        let text = self.text;
        // From `#` to `#` rather than line by line: most lines have none. `number` is the line
        // number of `counted`, the start of the last line looked at.
        let (mut search, mut counted, mut number) = (0, 0, 0);
        std::iter::from_fn(move || {
            loop {
                let hash = search + memchr::memchr(b'#', text.as_bytes().get(search..)?)?;
                let start = text[..hash].rfind('\n').map_or(0, |at| at + 1);
                let line_end = text[hash..].find('\n').map_or(text.len(), |at| hash + at);
                number += text.as_bytes()[counted..start]
                    .iter()
                    .filter(|&&byte| byte == b'\n')
                    .count();
                counted = start;
                search = line_end + 1;
                let end = start + text[start..line_end].trim_end_matches('\r').len();
                // The comment starts at this `#` or a later one, so without a `# sources:` from
                // here on the line holds no suppression.
                if sources_part(text, hash, end).is_none() {
                    continue;
                }
                let line = &text[start..line_end];
                let mut at = hash - start;
                loop {
                    let boundary = at == 0 || line[..at].ends_with([' ', '\t']);
                    if boundary && !self.in_string(start + at) {
                        return Some((number, start, start + at, end));
                    }
                    match line[at + 1..].find('#') {
                        Some(next) => at += 1 + next,
                        None => break,
                    }
                }
            }
        })
    }
}

/// The `#` inside the comment `text[hash..end]` that starts `# sources:`, and what follows
/// `sources:` (a `# sources:` part may follow another comment on the same line).
fn sources_part(text: &str, hash: usize, end: usize) -> Option<(usize, &str)> {
    let comment = &text[hash..end];
    comment.match_indices('#').find_map(|(at, _)| {
        let rest = comment[at + 1..].trim_start().strip_prefix("sources:")?;
        Some((hash + at, rest))
    })
}

/// Spans of every string value and key of the tree, sorted by start (iteratively: the tree may be
/// deep).
fn string_spans(root: Option<&Node>) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut stack: Vec<&Node> = root.into_iter().collect();
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Str(_) => spans.push(node.span),
            Value::Seq(items) => stack.extend(items),
            Value::Map(map) => {
                for entry in map.iter() {
                    spans.push(entry.key.span);
                    stack.push(&entry.value);
                }
            }
            _ => {}
        }
    }
    spans.sort_by_key(|span| (span.start(), span.end()));
    spans
}

/// The suppression comments of a document, read before the tree is given up for decoding.
#[derive(Debug, Default)]
pub(crate) struct Found {
    suppressions: Vec<Suppression>,
    malformed: Vec<Malformed>,
    /// The offset at which each line starts (only when there are suppressions).
    line_starts: Vec<usize>,
}

/// Every suppression and malformed `# sources:` comment of the document.
pub(crate) fn find(text: &str, root: Option<&Node>) -> Found {
    let (suppressions, malformed) = collect(text, root);
    let line_starts = if suppressions.is_empty() {
        Vec::new()
    } else {
        std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect()
    };
    Found {
        suppressions,
        malformed,
        line_starts,
    }
}

/// Every suppression and malformed `# sources:` comment of the document.
fn collect(text: &str, root: Option<&Node>) -> (Vec<Suppression>, Vec<Malformed>) {
    let comments = Comments::new(text, root);
    let mut suppressions = Vec::new();
    let mut malformed = Vec::new();
    for (line_number, line_start, first_hash, line_end) in comments.each() {
        let Some((hash, rest)) = sources_part(text, first_hash, line_end) else {
            continue;
        };
        let before = &text[line_start..hash];
        let own_line = before.trim().is_empty();
        let removal = if own_line {
            let end = text[line_end..]
                .find('\n')
                .map_or(text.len(), |at| line_end + at + 1);
            Span::new(line_start, end)
        } else {
            let blanks = before.len() - before.trim_end_matches([' ', '\t']).len();
            Span::new(hash - blanks, line_end)
        };
        match parse(rest, line_end - rest.len()) {
            Some((file, codes)) => {
                let scope = if file {
                    Scope::File
                } else if own_line {
                    Scope::Line(line_number + 1)
                } else {
                    Scope::Line(line_number)
                };
                suppressions.push(Suppression {
                    scope,
                    codes,
                    removal,
                });
            }
            None => malformed.push(Malformed {
                span: Span::new(hash, line_end),
                removal,
            }),
        }
    }
    (suppressions, malformed)
}

/// The offset of the start of the line holding `offset`.
fn line_offset(text: &str, offset: usize) -> usize {
    text[..offset].rfind('\n').map_or(0, |at| at + 1)
}

/// Reads ` ignore[a, b]` or ` ignore-file[a]` (what follows `sources:`, which may go on with a
/// reason), starting at byte `at` of the file: whether it is file-wide, and the codes. `None` when it
/// is anything else.
fn parse(rest: &str, at: usize) -> Option<(bool, Vec<Code>)> {
    let trimmed = rest.trim_start();
    let offset = at + (rest.len() - trimmed.len());
    let (file, after) = if let Some(after) = trimmed.strip_prefix("ignore-file[") {
        (true, after)
    } else {
        (false, trimmed.strip_prefix("ignore[")?)
    };
    let list_at = offset + (trimmed.len() - after.len());
    let close = after.find(']')?;
    let mut codes = Vec::new();
    let mut position = 0;
    for piece in after[..close].split(',') {
        let name = piece.trim();
        let start = list_at + position + (piece.len() - piece.trim_start().len());
        position += piece.len() + 1;
        if name.is_empty() {
            continue;
        }
        codes.push(Code {
            name: name.to_owned(),
            span: Span::new(start, start + name.len()),
            rule: Rule::from_code(name),
            used: Cell::new(false),
        });
    }
    (!codes.is_empty()).then_some((file, codes))
}

impl Found {
    /// The code of the first suppression that silences `diagnostic`, if one does; each
    /// suppression that does is marked used.
    pub(crate) fn silences(&self, diagnostic: &Diagnostic) -> Option<Span> {
        if self.suppressions.is_empty() || diagnostic.rule == Rule::UnusedSuppression {
            return None;
        }
        let line = self
            .line_starts
            .partition_point(|&start| start <= diagnostic.span.start())
            - 1;
        let mut silenced = None;
        for suppression in &self.suppressions {
            if suppression.scope != Scope::File && suppression.scope != Scope::Line(line) {
                continue;
            }
            for code in &suppression.codes {
                if code.rule == Some(diagnostic.rule) {
                    code.used.set(true);
                    silenced = silenced.or(Some(code.span));
                }
            }
        }
        silenced
    }

    /// The `unused-suppression` diagnostics, once every other diagnostic went through
    /// [`Found::silences`]: each suppression that silenced nothing (only when `report_unused`:
    /// after a syntax error, rules that did not run would make every suppression look unused),
    /// and each malformed `# sources:` comment.
    pub(crate) fn unused(&self, report_unused: bool) -> Vec<Diagnostic> {
        let mut diagnostics = Vec::new();
        if report_unused {
            for suppression in &self.suppressions {
                let all_bad = suppression.codes.iter().all(|code| !code.used.get());
                for (position, code) in suppression.codes.iter().enumerate() {
                    if code.used.get() {
                        continue;
                    }
                    let removal = if all_bad {
                        suppression.removal
                    } else {
                        code_removal(&suppression.codes, position)
                    };
                    let listed = &suppression.codes;
                    diagnostics.push(unused(code, listed, suppression.scope, removal));
                }
            }
        }
        for comment in &self.malformed {
            diagnostics.push(
                Diagnostic::new(
                    Rule::UnusedSuppression,
                    comment.span,
                    "this `# sources:` comment is not a suppression, so it silences nothing",
                )
                .with_label("not `ignore[…]` or `ignore-file[…]`")
                .with_help(
                    "write `# sources: ignore[RULE-CODE]` for a line or `# sources: ignore-file[RULE-CODE]` for the file",
                )
                .with_replacement("Remove the comment", comment.removal, ""),
            );
        }
        diagnostics
    }
}

/// The `unused-suppression` diagnostic for one code of the suppression listing `listed`. A
/// misspelt code is renamed to the code it resembles (the rest of the comment, its reason
/// included, is kept) unless the suppression lists that code already; any other unused code is
/// removed.
fn unused(code: &Code, listed: &[Code], scope: Scope, removal: Span) -> Diagnostic {
    let diagnostic = match code.rule {
        None => {
            let diagnostic = Diagnostic::new(
                Rule::UnusedSuppression,
                code.span,
                format!(
                    "`{}` is not a rule code, so this suppression silences nothing",
                    code.name
                ),
            )
            .with_label("unknown rule");
            match did_you_mean(&code.name, Rule::ALL.iter().map(|rule| rule.code())).first() {
                Some(suggestion) if !listed.iter().any(|other| other.name == *suggestion) => {
                    return diagnostic
                        .with_help(format!("did you mean `{suggestion}`?"))
                        .with_correction(
                            format!("Rename `{}` to `{suggestion}`", code.name),
                            code.span,
                            &code.name,
                            suggestion,
                        );
                }
                Some(suggestion) => diagnostic.with_help(format!(
                    "did you mean `{suggestion}`? This suppression names it already"
                )),
                None => diagnostic.with_help("`sources rules` lists every rule code"),
            }
        }
        Some(rule) => {
            let where_ = match scope {
                Scope::File => "in this file".to_owned(),
                Scope::Line(line) => format!("on line {}", line + 1),
            };
            Diagnostic::new(
                Rule::UnusedSuppression,
                code.span,
                format!("no `{rule}` diagnostic {where_}: this suppression silences nothing"),
            )
            .with_label("unused")
            .with_help("remove it: a stale suppression would hide the next finding here")
        }
    };
    diagnostic.with_replacement(
        format!("Remove `{}` from the suppression", code.name),
        removal,
        "",
    )
}

/// The bytes that remove code `position` from its list, with the comma that separates it from a
/// neighbour.
fn code_removal(codes: &[Code], position: usize) -> Span {
    let code = &codes[position];
    match (codes.get(position + 1), position.checked_sub(1)) {
        (Some(next), _) => Span::new(code.span.start(), next.span.start()),
        (None, Some(previous)) => Span::new(codes[previous].span.end(), code.span.end()),
        (None, None) => code.span,
    }
}

/// The edit that suppresses `rule` for a diagnostic starting at `offset`: the code is added to a
/// suppression already ending that line, or a new `# sources: ignore[rule]` comment is appended to
/// the line. `None` when the line ends inside a string (a block scalar or multi-line string), where
/// a comment would become part of the value, or when the text does not parse.
pub fn suppression_edit(text: &str, syntax: Syntax, offset: usize, rule: Rule) -> Option<Edit> {
    let parsed = sources_syntax::parse(text, syntax);
    if !parsed.errors.is_empty() {
        return None;
    }
    let root = parsed.root.as_ref();
    let offset = offset.min(text.len());
    let line_start = line_offset(text, offset);
    let line_end = text[line_start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |at| line_start + at);
    let comments = Comments::new(text, root);
    if line_end > line_start && comments.in_string(line_end) {
        return None;
    }
    let own_comment = comments
        .each()
        .find(|&(_, start, _, _)| start == line_start)
        .and_then(|(_, _, first_hash, _)| {
            let (hash, rest) = sources_part(text, first_hash, line_end)?;
            Some((hash, parse(rest, line_end - rest.len())?))
        });
    let trailing =
        own_comment.filter(|(hash, (file, _))| !file && !text[line_start..*hash].trim().is_empty());
    if let Some((_, (_, codes))) = trailing {
        if codes.iter().any(|code| code.rule == Some(rule)) {
            return None;
        }
        let last = codes.last()?;
        return Some(Edit {
            span: Span::empty(last.span.end()),
            replacement: format!(", {rule}"),
        });
    }
    if text[line_start..line_end].trim().is_empty() {
        return None;
    }
    Some(Edit {
        span: Span::empty(line_end),
        replacement: format!("  # sources: ignore[{rule}]"),
    })
}

/// What [`add_suppressions`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Baseline {
    /// The document with the new suppressions.
    pub text: String,
    /// How many rule codes were added.
    pub added: usize,
    /// Diagnostics that could not be suppressed with a comment (syntax errors, findings on a line
    /// that ends inside a multi-line string). Unused suppressions are not counted: `--fix` removes
    /// them.
    pub left: usize,
}

/// Suppresses every current finding of `text` on its line (`sources lint --add-suppressions`),
/// one comment per line listing every rule found there, so that a repository can adopt the linter
/// and fix its findings over time.
pub fn add_suppressions(text: &str, syntax: Syntax) -> Baseline {
    let analysis = crate::analyze(text, syntax);
    let mut by_line: Vec<(usize, Vec<Rule>, usize)> = Vec::new();
    let mut left = 0;
    for diagnostic in &analysis.diagnostics {
        if diagnostic.rule == Rule::UnusedSuppression {
            continue;
        }
        if diagnostic.rule == Rule::Syntax {
            left += 1;
            continue;
        }
        let line = analysis.line_index.line_col(diagnostic.span.start()).line as usize;
        match by_line.iter_mut().find(|(at, _, _)| *at == line) {
            Some((_, rules, _)) if rules.contains(&diagnostic.rule) => {}
            Some((_, rules, _)) => rules.push(diagnostic.rule),
            None => by_line.push((line, vec![diagnostic.rule], diagnostic.span.start())),
        }
    }
    let mut edits = Vec::new();
    let mut added = 0;
    for (_, rules, offset) in by_line {
        let Some(mut edit) = suppression_edit(text, syntax, offset, rules[0]) else {
            left += rules.len();
            continue;
        };
        let more: String = rules[1..].iter().map(|rule| format!(", {rule}")).collect();
        match edit.replacement.strip_suffix(']') {
            Some(open) => edit.replacement = format!("{open}{more}]"),
            None => edit.replacement.push_str(&more),
        }
        added += rules.len();
        edits.push(edit);
    }
    edits.sort_by_key(|edit| std::cmp::Reverse(edit.span.start()));
    let mut baselined = text.to_owned();
    for edit in edits {
        baselined.replace_range(edit.span.range(), &edit.replacement);
    }
    Baseline {
        text: baselined,
        added,
        left,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(text: &str, needle: &str, rule: Rule) -> Option<String> {
        let offset = text.find(needle).expect("needle");
        let edit = suppression_edit(text, Syntax::Yaml, offset, rule)?;
        let mut fixed = text.to_owned();
        fixed.replace_range(edit.span.range(), &edit.replacement);
        Some(fixed)
    }

    #[test]
    fn comments_are_found_with_their_line_past_hashes_in_strings_and_crlf() {
        let text = "a: x#sources:no  # note # sources: ignore[syntax]\n\
                    b: 1 #no\r\n\
                    \n\
                    # sources: ignore-file[unknown-field]\n\
                    c: '# sources: ignore[syntax]'\n\
                    d: 2 # sources: ignore[syntax]";
        let parsed = sources_syntax::parse(text, Syntax::Yaml);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let comments = Comments::new(text, parsed.root.as_ref());
        let found: Vec<(usize, &str, &str)> = comments
            .each()
            .map(|(number, start, hash, end)| (number, &text[start..hash], &text[hash..end]))
            .collect();
        assert_eq!(
            found,
            [
                (0, "a: x#sources:no  ", "# note # sources: ignore[syntax]"),
                (3, "", "# sources: ignore-file[unknown-field]"),
                (5, "d: 2 ", "# sources: ignore[syntax]"),
            ]
        );
    }

    #[test]
    fn a_suppression_is_appended_to_the_line_or_to_its_suppression() {
        let text = "a:\n  b: 1\n  c: 2  # sources: ignore[syntax]\n";
        assert_eq!(
            edit(text, "b:", Rule::UnknownField).as_deref(),
            Some(
                "a:\n  b: 1  # sources: ignore[unknown-field]\n  c: 2  # sources: ignore[syntax]\n"
            )
        );
        assert_eq!(
            edit(text, "c:", Rule::UnknownField).as_deref(),
            Some("a:\n  b: 1\n  c: 2  # sources: ignore[syntax, unknown-field]\n")
        );
        assert_eq!(edit(text, "c:", Rule::Syntax), None, "already suppressed");
    }

    #[test]
    fn no_suppression_inside_a_block_scalar() {
        let text = "a: |\n  one\n  two\nb: 1\n";
        assert_eq!(edit(text, "one", Rule::InvalidValue), None);
        assert!(edit(text, "b:", Rule::InvalidValue).is_some());
    }

    #[test]
    fn a_hash_inside_a_string_is_not_a_comment() {
        let text = "a: \"x # sources: ignore[syntax]\"\n";
        let parse = sources_syntax::parse(text, Syntax::Yaml);
        let (suppressions, malformed) = collect(text, parse.root.as_ref());
        assert!(suppressions.is_empty() && malformed.is_empty());
    }

    #[test]
    fn a_baseline_suppresses_every_finding_and_then_lints_clean() {
        let text = "data:\n  sources:\n    apps:\n      type: http\n      url: https://x.invalid/${params.id}\n      urll: 1  # sources: ignore[window-kind]\n      refersh: 5 minutes\n";
        let baseline = add_suppressions(text, Syntax::Yaml);
        assert_eq!(baseline.left, 0);
        assert!(
            baseline
                .text
                .contains("urll: 1  # sources: ignore[window-kind, unknown-field]\n"),
            "{}",
            baseline.text
        );
        let after = crate::analyze(&baseline.text, Syntax::Yaml).diagnostics;
        let codes: Vec<&str> = after.iter().map(|d| d.rule.code()).collect();
        assert_eq!(codes, ["unused-suppression"], "{}", baseline.text);
    }
}
