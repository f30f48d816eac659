//! `sources rules`: every rule of the registry with its code, default severity and summary.

use std::io::{self, Write};

use sources_diagnostics::Rule;

use crate::Outcome;

/// How `sources rules` prints the list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ListFormat {
    /// Aligned columns.
    #[default]
    Text,
    /// A Markdown table (the README's rules table is this output).
    Markdown,
}

/// Arguments of `sources rules`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: ListFormat,
}

/// Runs `sources rules`.
pub fn run(args: &Args, out: &mut dyn Write) -> io::Result<Outcome> {
    match args.format {
        ListFormat::Text => write_text(out)?,
        ListFormat::Markdown => write!(out, "{}", markdown())?,
    }
    Ok(Outcome::Success)
}

fn write_text(out: &mut dyn Write) -> io::Result<()> {
    let width = Rule::ALL
        .iter()
        .map(|rule| rule.code().len())
        .max()
        .unwrap_or(0);
    for rule in Rule::ALL {
        let severity = rule.default_severity().as_str();
        writeln!(
            out,
            "{:width$}  {severity:7}  {}",
            rule.code(),
            rule.summary()
        )?;
    }
    Ok(())
}

/// The rules as a Markdown table: code, default severity, summary and the sections of
/// `docs/reference.md` that state what each one enforces.
pub fn markdown() -> String {
    let mut table = String::from("| code | severity | summary | reference |\n|---|---|---|---|\n");
    for rule in Rule::ALL {
        table.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            rule.code(),
            rule.default_severity().as_str(),
            rule.summary().replace('|', "\\|"),
            rule.spec_reference().replace('|', "\\|")
        ));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_lists_every_rule_once_aligned() {
        let mut out = Vec::new();
        run(
            &Args {
                format: ListFormat::Text,
            },
            &mut out,
        )
        .expect("write");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(text.lines().count(), Rule::ALL.len());
        let syntax = text.lines().next().expect("first line");
        assert!(syntax.starts_with("syntax  "), "{syntax}");
        assert!(
            syntax.ends_with("error    The YAML or TOML does not parse."),
            "{syntax}"
        );
    }

    #[test]
    fn markdown_is_a_table_row_per_rule() {
        let table = markdown();
        assert_eq!(table.lines().count(), Rule::ALL.len() + 2);
        assert!(table.contains("| `undeclared-param-reference` | warning | "));
    }
}
