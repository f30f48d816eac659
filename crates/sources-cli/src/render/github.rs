//! `github`: GitHub Actions workflow commands, one annotation per diagnostic.
//!
//! `::error file=F,line=L,col=C,endLine=L,endColumn=C,title=T::MESSAGE`, with GitHub's escaping:
//! `%`, `\r` and `\n` in the message; those and `:` and `,` in property values.

use std::io::{self, Write};

use sources_diagnostics::Severity;

use crate::report::FileReport;

/// Escapes workflow-command data (the message).
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow-command property value (file, title).
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Writes one workflow command per diagnostic; the help line follows the message on its own line.
pub fn render(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    for report in reports {
        for diagnostic in &report.diagnostics {
            let (start, end) = report.line_cols(diagnostic.span);
            let command = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let title = format!("sources {}", diagnostic.rule.code());
            let message = match &diagnostic.help {
                Some(help) => format!("{}\nhelp: {help}", diagnostic.message),
                None => diagnostic.message.clone(),
            };
            writeln!(
                out,
                "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                escape_property(&report.path),
                start.line,
                start.column,
                end.line,
                end.column,
                escape_property(&title),
                escape_data(&message)
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::fixtures;

    #[test]
    fn data_and_properties_are_escaped() {
        assert_eq!(escape_data("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
        assert_eq!(escape_property("50% a:b,c\r\nd"), "50%25 a%3Ab%2Cc%0D%0Ad");
    }

    #[test]
    fn one_command_per_diagnostic() {
        let mut out = Vec::new();
        render(&[fixtures::report(), fixtures::warning_report()], &mut out).expect("render");
        let text = String::from_utf8(out).expect("utf-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[0],
            "::error file=conf/app%2C 1.yaml,line=5,col=7,endLine=5,endColumn=11,\
             title=sources unknown-field::unknown field `urll` on an http source%0Ahelp: did you mean `url`?"
        );
        assert_eq!(
            lines[3],
            "::warning file=b.yaml,line=5,col=13,endLine=5,endColumn=25,\
             title=sources undeclared-param-reference::`${params.id}` refers to an undeclared parameter: it stays literal"
        );
    }
}
