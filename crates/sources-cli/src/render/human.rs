//! `human`: source snippets through miette, with every label, the help line and the rule code.
//!
//! miette is used here and nowhere else: the core `Diagnostic` stays plain data.

use std::fmt;
use std::io::{self, Write};

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode, SourceSpan,
};
use sources_diagnostics::{Applicability, Diagnostic, Severity, Span};

use super::RenderOptions;
use crate::report::{FileReport, Summary};

/// Writes every diagnostic as a miette report, then a one-line summary.
pub fn render(
    reports: &[FileReport],
    options: &RenderOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(options.width)
        .with_links(false);
    for report in reports {
        let source = NamedSource::new(&report.path, IndexedSource::new(report.text()));
        for diagnostic in &report.diagnostics {
            let adapter = Report {
                diagnostic,
                text: report.text(),
                source: &source,
            };
            let mut rendered = String::new();
            handler
                .render_report(&mut rendered, &adapter)
                .map_err(|_| io::Error::other("miette could not render a diagnostic"))?;
            writeln!(out, "{rendered}")?;
        }
    }
    if options.quiet {
        return Ok(());
    }
    writeln!(out, "{}", Summary::of(reports).line())
}

/// A file's text with its line starts, so that miette reads each snippet from the lines around it
/// instead of scanning the text from the start for every diagnostic (which is quadratic in a file
/// with thousands of diagnostics).
struct IndexedSource {
    text: String,
    /// Byte offset of every line start, counting line breaks as miette does (`\n`, `\r\n`, `\r`).
    line_starts: Vec<usize>,
}

impl IndexedSource {
    fn new(text: &str) -> IndexedSource {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        for (index, &byte) in bytes.iter().enumerate() {
            let crlf = byte == b'\r' && bytes.get(index + 1) == Some(&b'\n');
            if byte == b'\n' || (byte == b'\r' && !crlf) {
                line_starts.push(index + 1);
            }
        }
        IndexedSource {
            text: text.to_owned(),
            line_starts,
        }
    }
}

impl miette::SourceCode for IndexedSource {
    /// miette's own reading, over the text from just above the context lines, with
    /// the result moved back to whole-file offsets and line numbers.
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let line = self
            .line_starts
            .partition_point(|&start| start <= span.offset())
            .saturating_sub(1);
        // One line more than the context: miette reads a span at the very start of its input
        // differently from the same span further in.
        let first = line.saturating_sub(context_lines_before + 1);
        let window_start = self.line_starts[first];
        let window = &self.text.as_bytes()[window_start..];
        let shifted = SourceSpan::new((span.offset() - window_start).into(), span.len());
        let contents = <[u8] as SourceCode>::read_span(
            window,
            &shifted,
            context_lines_before,
            context_lines_after,
        )?;
        Ok(Box::new(miette::MietteSpanContents::new(
            contents.data(),
            SourceSpan::new(
                (contents.span().offset() + window_start).into(),
                contents.span().len(),
            ),
            contents.line() + first,
            contents.column(),
            contents.line_count() + first,
        )))
    }
}

/// One diagnostic seen through miette's `Diagnostic` trait.
struct Report<'a> {
    diagnostic: &'a Diagnostic,
    text: &'a str,
    source: &'a NamedSource<IndexedSource>,
}

impl Report<'_> {
    /// `span` as miette wants it: clamped to the text, the start moved back and the end moved on
    /// to character boundaries (a diagnostic about invalid UTF-8 points at bytes that the lossy
    /// text shows as one replacement character).
    fn source_span(&self, span: Span) -> SourceSpan {
        let len = self.text.len();
        let mut start = span.start().min(len);
        while !self.text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = span.end().clamp(start, len);
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        SourceSpan::new(start.into(), end - start)
    }
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.diagnostic, f)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(format!(
            "{}[{}]",
            self.diagnostic.severity.as_str(),
            self.diagnostic.rule.code()
        )))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let help = self.diagnostic.help.as_deref();
        let fixes = self
            .diagnostic
            .fixes
            .iter()
            .map(|fix| match fix.applicability {
                Applicability::Safe => format!("fix (applied by --fix): {}", fix.title),
                Applicability::Unsafe => {
                    format!("suggestion (not applied by --fix): {}", fix.title)
                }
            });
        let lines: Vec<String> = help.map(str::to_owned).into_iter().chain(fixes).collect();
        (!lines.is_empty()).then(|| Box::new(lines.join("\n")) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary_text = Some(self.diagnostic.label.clone()).filter(|label| !label.is_empty());
        let primary = LabeledSpan::new_primary_with_span(
            primary_text,
            self.source_span(self.diagnostic.span),
        );
        let secondary = self.diagnostic.labels.iter().map(|label| {
            LabeledSpan::new_with_span(Some(label.message.clone()), self.source_span(label.span))
        });
        Some(Box::new(std::iter::once(primary).chain(secondary)))
    }
}

#[cfg(test)]
mod tests {
    use sources_diagnostics::Rule;

    use super::*;
    use crate::render::fixtures;

    fn rendered(reports: &[FileReport]) -> String {
        let mut out = Vec::new();
        render(
            reports,
            &RenderOptions {
                color: false,
                width: 100,
                quiet: false,
            },
            &mut out,
        )
        .expect("render");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn snippets_with_every_label_help_and_code() {
        fixtures::assert_expected(
            "human-snippets.txt",
            &rendered(&[fixtures::report(), fixtures::warning_report()]),
        );
    }

    #[test]
    fn multi_line_spans_end_of_file_and_fix_without_help() {
        let text =
            "[data.sources.apps]\ntype = \"static\"\ndata = [\n  1,\n  2,\n]\nrefresh = \"5s\"";
        let data = text.find("[\n").expect("list");
        let end = text.rfind("]\n").expect("end") + 1;
        let refresh = text.find("refresh").expect("refresh");
        let diagnostics = vec![
            Diagnostic::new(
                Rule::InvalidValue,
                Span::new(data, end),
                "`data` spans lines",
            )
            .with_label("this list"),
            Diagnostic::new(
                Rule::IneffectiveField,
                Span::new(refresh, text.len()),
                "`refresh` does nothing here",
            )
            .with_replacement("Remove `refresh`", Span::new(refresh, text.len()), ""),
            Diagnostic::new(
                Rule::Syntax,
                Span::empty(text.len()),
                "unexpected end of file",
            ),
        ];
        let report = FileReport {
            path: "edge.toml".into(),
            line_index: sources_syntax::LineIndex::new(text),
            diagnostics,
            has_sources: true,
        };
        fixtures::assert_expected("human-edges.txt", &rendered(&[report]));
    }

    #[test]
    fn the_indexed_source_reads_what_miette_reads_from_the_whole_text() {
        let texts = [
            "a: 1\nb: [x,\n  y]\r\nc: é😀\rd: 4\n\ne",
            "",
            "\n\n",
            "one line",
        ];
        for text in texts {
            let indexed = IndexedSource::new(text);
            for start in (0..=text.len()).filter(|&at| text.is_char_boundary(at)) {
                for len in [0, 1, 4, 9] {
                    let len = len.min(text.len() - start);
                    let span = SourceSpan::new(start.into(), len);
                    for (before, after) in [(0, 0), (1, 1), (2, 3)] {
                        let expected = text.read_span(&span, before, after);
                        let actual = indexed.read_span(&span, before, after);
                        match (expected, actual) {
                            (Ok(expected), Ok(actual)) => assert_eq!(
                                (
                                    expected.data(),
                                    expected.span(),
                                    expected.line(),
                                    expected.column(),
                                    expected.line_count()
                                ),
                                (
                                    actual.data(),
                                    actual.span(),
                                    actual.line(),
                                    actual.column(),
                                    actual.line_count()
                                ),
                                "{text:?} at {start}+{len}, context {before}/{after}"
                            ),
                            (expected, actual) => assert_eq!(
                                expected.is_ok(),
                                actual.is_ok(),
                                "{text:?} at {start}+{len}"
                            ),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_clean_run_says_so() {
        let mut clean = fixtures::report();
        clean.diagnostics.clear();
        assert_eq!(rendered(&[clean]), "no problems found in 1 file\n");
        assert_eq!(
            rendered(&[]),
            "no configuration file with a `data.sources` block found\n"
        );
    }

    #[test]
    fn spans_inside_a_character_widen_to_cover_it() {
        let report = fixtures::report();
        let diagnostic = &report.diagnostics[2];
        let source = NamedSource::new("x", IndexedSource::new(report.text()));
        let adapter = Report {
            diagnostic,
            text: report.text(),
            source: &source,
        };
        let emoji = report.text().find('😀').expect("emoji");
        let span = adapter.source_span(Span::new(emoji + 1, emoji + 3));
        assert_eq!((span.offset(), span.len()), (emoji, '😀'.len_utf8()));
        let past_end = adapter.source_span(Span::new(10_000, 10_001));
        assert_eq!(
            (past_end.offset(), past_end.len()),
            (report.text().len(), 0)
        );
    }
}
