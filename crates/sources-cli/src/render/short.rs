//! `short`: one line per diagnostic, `path:line:col: severity[code]: message`, as compilers print,
//! then the summary line the human format ends with.

use std::io::{self, Write};

use super::RenderOptions;
use crate::report::{FileReport, Summary};

/// Writes one line per diagnostic, then the summary line unless `--quiet`.
pub fn render(
    reports: &[FileReport],
    options: &RenderOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
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
    if options.quiet {
        return Ok(());
    }
    writeln!(out, "{}", Summary::of(reports).line())
}

#[cfg(test)]
mod tests {
    use crate::render::{RenderOptions, fixtures};

    fn options(quiet: bool) -> RenderOptions {
        RenderOptions {
            color: false,
            width: 100,
            quiet,
        }
    }

    #[test]
    fn one_line_per_diagnostic_with_scalar_columns_then_the_summary() {
        let mut out = Vec::new();
        let reports = [fixtures::report(), fixtures::warning_report()];
        super::render(&reports, &options(false), &mut out).expect("render");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(
            text,
            "conf/app, 1.yaml:5:7: error[unknown-field]: unknown field `urll` on an http source\n\
             conf/app, 1.yaml:6:16: error[invalid-duration]: `5 minutes` is not a duration\n\
             conf/app, 1.yaml:9:13: error[unknown-source]: no source named `ap😀s`\n\
             b.yaml:5:13: warning[undeclared-param-reference]: `${params.id}` refers to an undeclared parameter: it stays literal\n\
             3 errors, 1 warning in 2 of 2 files; 1 fixable with --fix\n"
        );
    }

    #[test]
    fn quiet_leaves_out_the_summary() {
        let mut out = Vec::new();
        super::render(&[fixtures::warning_report()], &options(true), &mut out).expect("render");
        let text = String::from_utf8(out).expect("utf-8");
        assert!(text.ends_with("it stays literal\n"), "{text}");
        assert_eq!(text.lines().count(), 1, "{text}");
    }
}
