//! `sources_diagnostics::Diagnostic` to LSP diagnostics: code, severity, code description and
//! related information for secondary labels.

use sources_diagnostics::{Diagnostic, Rule, Severity};
use tower_lsp_server::ls_types::{
    self as lsp, CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Uri,
};

use crate::document::Analyzed;
use crate::position::Positions;

/// Where the rules page lives; a rule's explanation is at this address followed by its code
/// (the page's heading anchors are the rule codes).
pub const RULES_DOCS_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/rules.md");

/// The address of one rule's explanation: [`RULES_DOCS_URL`]`#code`.
pub fn rule_docs_url(rule: Rule) -> String {
    format!("{RULES_DOCS_URL}#{}", rule.code())
}

/// The `source` every diagnostic carries.
pub(crate) const SOURCE: &str = "sources";

/// What the server publishes for an analysed document: exactly what `sources lint` reports for
/// it (the reason when its text was refused before analysis), or nothing for a document that is
/// not a configuration of this format, at the severities of the levels it was analysed with
/// (dropping a rule turned off). Past `limit` diagnostics, one summary diagnostic at the first one
/// left out says how many were: the analysis kept `limit + 1` and counted the rest.
pub(crate) fn published(
    analyzed: &Analyzed,
    uri: &Uri,
    positions: Positions<'_>,
    limit: usize,
) -> Vec<lsp::Diagnostic> {
    let analysis = &analyzed.analysis;
    if !analyzed.refused && !analysis.is_configuration() {
        return Vec::new();
    }
    let mut kept = analysis.diagnostics.iter().filter_map(|diagnostic| {
        let severity = analyzed
            .levels
            .severity(diagnostic.rule, diagnostic.severity)?;
        let mut converted = to_lsp(diagnostic, uri, positions);
        converted.severity = Some(severity);
        Some(converted)
    });
    let mut published: Vec<lsp::Diagnostic> = kept.by_ref().take(limit).collect();
    if let Some(first_left_out) = kept.next() {
        let left_out = 1 + kept.count() + analysis.omitted;
        published.push(lsp::Diagnostic {
            range: first_left_out.range,
            severity: Some(DiagnosticSeverity::INFORMATION),
            source: Some(SOURCE.to_owned()),
            message: format!(
                "{left_out} more problems from here on are not shown: the editor shows the \
                 first {limit}; run `sources lint` on this file to see them all"
            ),
            ..lsp::Diagnostic::default()
        });
    }
    published
}

/// Converts one diagnostic of the document at `uri`.
pub(crate) fn to_lsp(
    diagnostic: &Diagnostic,
    uri: &Uri,
    positions: Positions<'_>,
) -> lsp::Diagnostic {
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let related_information: Vec<DiagnosticRelatedInformation> = diagnostic
        .labels
        .iter()
        .map(|label| DiagnosticRelatedInformation {
            location: Location {
                uri: uri.clone(),
                range: positions.range(label.span),
            },
            message: label.message.clone(),
        })
        .collect();
    lsp::Diagnostic {
        range: positions.range(diagnostic.span),
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(diagnostic.rule.code().to_owned())),
        code_description: rule_docs_url(diagnostic.rule)
            .parse()
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_owned()),
        message,
        related_information: (!related_information.is_empty()).then_some(related_information),
        tags: None,
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sources_diagnostics::Span;
    use sources_syntax::{LineIndex, PositionEncoding};

    #[test]
    fn converts_code_severity_help_description_and_labels() {
        let text = "a: 1\nbb: 2\n";
        let index = LineIndex::new(text);
        let uri: Uri = "file:///c.yaml".parse().expect("a valid URI");
        let diagnostic = Diagnostic::new(Rule::UnknownSource, Span::new(8, 9), "no entry `x`")
            .with_help("declare it")
            .with_secondary(Span::new(0, 1), "referenced here");
        let converted = to_lsp(
            &diagnostic,
            &uri,
            Positions::new(&index, PositionEncoding::Utf16),
        );
        assert_eq!(
            converted.range,
            lsp::Range::new(lsp::Position::new(1, 3), lsp::Position::new(1, 4))
        );
        assert_eq!(converted.severity, Some(DiagnosticSeverity::ERROR));
        assert_eq!(
            converted.code,
            Some(NumberOrString::String("unknown-source".into()))
        );
        assert_eq!(converted.message, "no entry `x`\nhelp: declare it");
        let href = converted.code_description.expect("a code description").href;
        assert!(
            href.as_str().ends_with("/docs/rules.md#unknown-source"),
            "{}",
            href.as_str()
        );
        let related = converted.related_information.expect("related information");
        assert_eq!(related[0].message, "referenced here");
        assert_eq!(related[0].location.range.start, lsp::Position::new(0, 0));
    }
}
