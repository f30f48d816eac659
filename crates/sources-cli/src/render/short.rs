//! `short`: one line per diagnostic, `path:line:col: severity[code]: message`, as compilers print.

use std::io::{self, Write};

use crate::report::FileReport;

/// Writes one line per diagnostic (nothing for a clean run).
pub fn render(reports: &[FileReport], out: &mut dyn Write) -> io::Result<()> {
    for report in reports {
        for diagnostic in &report.diagnostics {
            let start = report.line_index.line_col(diagnostic.span.start());
            writeln!(
                out,
                "{}:{}:{}: {}[{}]: {}",
                report.path,
                start.line,
                start.column,
                diagnostic.severity.as_str(),
                diagnostic.rule.code(),
                diagnostic.message
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::render::fixtures;

    #[test]
    fn one_line_per_diagnostic_with_scalar_columns() {
        let mut out = Vec::new();
        super::render(&[fixtures::report(), fixtures::warning_report()], &mut out).expect("render");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(
            text,
            "conf/app, 1.yaml:5:7: error[unknown-field]: unknown field `urll` on an http source\n\
             conf/app, 1.yaml:6:16: error[invalid-duration]: `5 minutes` is not a duration\n\
             conf/app, 1.yaml:9:13: error[unknown-source]: no source named `ap😀s`\n\
             b.yaml:5:13: warning[undeclared-param-reference]: `${params.id}` refers to an undeclared parameter: it stays literal\n"
        );
    }
}
