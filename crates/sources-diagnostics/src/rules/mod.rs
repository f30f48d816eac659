//! The rule registry: every rule declared once, with its code, severity, summary and explanation,
//! in the module of what it checks (each a macro that appends its rules and hands them on); this
//! module gathers them into [`Rule`].
//!
//! `sources explain`, `sources rules`, SARIF rule metadata, LSP code descriptions and the README's
//! rules table are all generated from these declarations.

use crate::Severity;

#[macro_use]
mod document;
#[macro_use]
mod names;
#[macro_use]
mod params;
#[macro_use]
mod windows;
#[macro_use]
mod data;
#[macro_use]
mod templates;
#[macro_use]
mod upkeep;
#[macro_use]
mod joins;

macro_rules! declare_rules {
    (; $(
        $(#[doc = $doc:literal])*
        $variant:ident => $code:literal, $severity:ident, $summary:literal;
    )*) => {
        /// A rule: one kind of problem the checker reports, with a stable kebab-case code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule {
            $(
                #[doc = $summary]
                $variant,
            )*
        }

        impl Rule {
            /// Every rule, in declaration order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The stable code users write and tools match (`unknown-field`).
            pub const fn code(self) -> &'static str {
                match self { $(Rule::$variant => $code),* }
            }

            /// The severity the rule reports at.
            pub const fn default_severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$severity),* }
            }

            /// One line: what the rule finds.
            pub const fn summary(self) -> &'static str {
                match self { $(Rule::$variant => $summary),* }
            }

            /// The long explanation in Markdown: what it finds, why, a failing example, the fix.
            pub const fn explanation(self) -> &'static str {
                match self { $(Rule::$variant => concat!($($doc, "\n"),*)),* }
            }
        }
    };
}

impl Rule {
    /// The rule with this code.
    pub fn from_code(code: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|rule| rule.code() == code)
    }

    /// The explanation as plain Markdown: without the space each doc comment line keeps after
    /// `///`, trimmed (what `sources explain`, the rules page and LSP hovers show).
    pub fn explanation_markdown(self) -> String {
        let lines: Vec<&str> = self
            .explanation()
            .lines()
            .map(|line| line.strip_prefix(' ').unwrap_or(line))
            .collect();
        lines
            .join(
                "
",
            )
            .trim()
            .to_owned()
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

document_rules! { names_rules, params_rules, windows_rules, data_rules, templates_rules, upkeep_rules, joins_rules, declare_rules; }

#[cfg(test)]
mod tests {
    use super::Rule;

    #[test]
    fn codes_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for rule in Rule::ALL {
            assert!(seen.insert(rule.code()), "duplicate code {}", rule.code());
            assert!(
                rule.code()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-')
            );
            assert_eq!(Rule::from_code(rule.code()), Some(*rule));
        }
        assert_eq!(Rule::from_code("no-such-rule"), None);
    }
}
