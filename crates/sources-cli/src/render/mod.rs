//! The output formats of `sources lint`, one module each. Every renderer takes the reports sorted
//! by path (each report's diagnostics sorted by position) and writes them as they come.

pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod sarif;
pub mod short;

use std::io::{self, Write};

use sources_diagnostics::Rule;

use crate::report::FileReport;
use crate::terminal::Stream;

/// An output format of `sources lint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Source snippets with every label, the help line and the rule code (miette).
    Human,
    /// One line per diagnostic: `path:line:col: severity[code]: message`.
    Short,
    /// A versioned JSON document (`"version": 1`).
    Json,
    /// GitHub Actions workflow commands (`::error file=…,line=…::message`).
    Github,
    /// SARIF 2.1.0, with rule metadata from the registry.
    Sarif,
    /// GitLab Code Quality JSON (`description`, `check_name`, `fingerprint`, `severity`, `location`).
    Gitlab,
    /// JUnit XML: one test case per file and rule.
    Junit,
}

impl Format {
    /// `human` for a terminal, `short` otherwise.
    pub fn for_terminal(to_terminal: bool) -> Format {
        if to_terminal {
            Format::Human
        } else {
            Format::Short
        }
    }
}

/// How the human format looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Colour, as [`crate::terminal`] decides.
    pub color: bool,
    /// Line width for wrapping.
    pub width: usize,
    /// The diagnostics and nothing else: no summary line (`--quiet`).
    pub quiet: bool,
}

impl RenderOptions {
    /// The options for text written to `stream`: coloured as [`crate::terminal`] decides, as
    /// wide as the terminal (at least 40 columns; 100 when not known).
    pub fn for_stream(stream: Stream) -> RenderOptions {
        RenderOptions {
            color: stream.color(),
            width: stream
                .width()
                .filter(|&columns| columns >= 40)
                .unwrap_or(100),
            quiet: false,
        }
    }
}

/// `--statistics`: one line per rule that reported, the most frequent first: the count, the code
/// and the rule's summary.
pub fn statistics(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    let mut counts: Vec<(Rule, usize)> = Vec::new();
    for diagnostic in reports.iter().flat_map(|report| &report.diagnostics) {
        match counts.iter_mut().find(|(rule, _)| *rule == diagnostic.rule) {
            Some((_, count)) => *count += 1,
            None => counts.push((diagnostic.rule, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.code().cmp(b.0.code())));
    let width = counts
        .iter()
        .map(|(rule, _)| rule.code().len())
        .max()
        .unwrap_or(0);
    for (rule, count) in counts {
        writeln!(
            out,
            "{count:>5}  {:<width$}  {}",
            rule.code(),
            rule.summary()
        )?;
    }
    Ok(())
}

/// Writes `reports` in `format`.
pub fn render(
    format: Format,
    reports: &[FileReport],
    options: &RenderOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Human => human::render(reports, options, out),
        Format::Short => short::render(reports, options, out),
        Format::Json => json::render(reports, out),
        Format::Github => github::render(reports, out),
        Format::Sarif => sarif::render(reports, out),
        Format::Gitlab => gitlab::render(reports, out),
        Format::Junit => junit::render(reports, out),
    }
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! Hand-made reports for the renderers' tests.

    use sources_diagnostics::{Diagnostic, Rule, Span};
    use sources_syntax::LineIndex;

    use crate::report::FileReport;

    /// Compares a renderer's output with `src/render/expected/NAME`, or writes it there under
    /// `UPDATE_EXPECT=1` (the workspace's one re-blessing convention).
    pub fn assert_expected(name: &str, rendered: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/render/expected")
            .join(name);
        sources_testkit::assert_file(
            &path,
            rendered,
            "UPDATE_EXPECT=1 cargo test -p sources-cli --lib render",
        );
    }

    /// The text of the sample configuration.
    pub const TEXT: &str = "data:\n  sources:\n    apps:\n      type: http\n      urll: \"https://ex.com/é\"\n      refresh: 5 minutes\n    logs:\n      type: passthrough\n      from: ap😀s\n";

    fn span_of(needle: &str) -> Span {
        let start = TEXT.find(needle).expect("needle in sample");
        Span::new(start, start + needle.len())
    }

    /// A report with an error carrying a fix, a warning and an error with a secondary label.
    pub fn report() -> FileReport {
        let diagnostics = vec![
            Diagnostic::new(
                Rule::UnknownField,
                span_of("urll"),
                "unknown field `urll` on an http source",
            )
            .with_label("not a field of http")
            .with_help("did you mean `url`?")
            .with_replacement("Rename `urll` to `url`", span_of("urll"), "url"),
            Diagnostic::new(
                Rule::InvalidDuration,
                span_of("5 minutes"),
                "`5 minutes` is not a duration",
            )
            .with_help("write a Go-style duration such as `5m`"),
            Diagnostic::new(
                Rule::UnknownSource,
                span_of("ap😀s"),
                "no source named `ap😀s`",
            )
            .with_label("referenced here")
            .with_secondary(span_of("apps"), "a source with a similar name"),
        ];
        FileReport {
            path: "conf/app, 1.yaml".into(),
            line_index: LineIndex::new(TEXT),
            diagnostics,
            has_sources: true,
        }
    }

    /// A warning-only report.
    pub fn warning_report() -> FileReport {
        let text = "data:\n  sources:\n    a:\n      type: http\n      url: \"${params.id}\"\n";
        let start = text.find("${params.id}").expect("token");
        let diagnostics = vec![Diagnostic::new(
            Rule::UndeclaredParamReference,
            Span::new(start, start + 12),
            "`${params.id}` refers to an undeclared parameter: it stays literal",
        )];
        FileReport {
            path: "b.yaml".into(),
            line_index: LineIndex::new(text),
            diagnostics,
            has_sources: true,
        }
    }
}
