//! The rule registry: every rule declared once, with its code, severity, summary and explanation.
//!
//! `sources explain`, `sources rules`, SARIF rule metadata, LSP code descriptions and the README's
//! rules table are all generated from these declarations.

use crate::Severity;

macro_rules! declare_rules {
    ($(
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
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

declare_rules! {
    Syntax => "syntax", Error, "The YAML or TOML does not parse.";
    UnknownField => "unknown-field", Error, "A field this kind of entry does not have.";
    MissingField => "missing-field", Error, "A required field is absent.";
    InvalidValue => "invalid-value", Error, "A value of the wrong type, or outside its enumeration.";
    UnknownKind => "unknown-kind", Error, "`type` is neither a leaf kind nor an operator kind.";
    InvalidDuration => "invalid-duration", Error, "A duration that does not parse (Go style: `250ms`, `1m30s`, `2h`).";
    ConflictingFields => "conflicting-fields", Error, "Two fields that exclude each other are both set.";
    UnknownSource => "unknown-source", Error, "A reference to an entry that does not exist.";
    ReferenceCycle => "reference-cycle", Error, "Entries that reference each other in a cycle.";
    UndeclaredParam => "undeclared-param", Error, "A supplied parameter the source does not declare.";
    UndeclaredParamReference => "undeclared-param-reference", Warning, "`${params.X}` where `X` is not declared: it stays literal.";
    WindowKind => "window-kind", Error, "`window` on anything but `http` and `exec`.";
    WindowFormat => "window-format", Error, "`window` or `paginate` with a non-`json` format.";
    WindowBinding => "window-binding", Error, "A windowed, anchored or growing source bound by a component that cannot drive it.";
    WindowOperatorInput => "window-operator-input", Error, "An operator or pipe consuming a windowed source.";
    WindowMissingParam => "window-missing-param", Error, "An `http` window without `offset_param` or `limit_param`.";
    WindowNoFilterChannel => "window-no-filter-channel", Error, "A window with no way to send filters to the server.";
    WindowSortWithoutSortParam => "window-sort-without-sort-param", Error, "Sorting configured without `window.sort_param`.";
    WindowHttpOnlyField => "window-http-only-field", Error, "An `http`-only window field on an `exec` window.";
    WindowMissingToken => "window-missing-token", Error, "An `exec` window command that does not reference a required window token.";
    WindowUnreferencedFilter => "window-unreferenced-filter", Error, "An `exec` window filter whose token the command never uses.";
    WindowTokenInProgram => "window-token-in-program", Error, "A window token in `command[0]`, the program itself.";
    WindowNegative => "window-negative", Error, "A negative `page_size`, `prefetch` or `max_pages`.";
    AnchoredNeedsOlderNewer => "anchored-needs-older-newer", Error, "An anchored `http` window without both `older` and `newer`.";
    AnchoredField => "anchored-field", Error, "A field that does not apply to an anchored window, or anchoring fields without `cursor`.";
    GrowingBinding => "growing-binding", Error, "A growing source not bound by an event log.";
    GrowingInvalid => "growing-invalid", Error, "A `growing` declaration that cannot work.";
    Expression => "expression", Error, "A CEL expression that does not compile.";
    WindowTokenMisplaced => "window-token-misplaced", Warning, "A `${window.*}` token where no window resolves it.";
    InvalidTemplate => "invalid-template", Error, "A malformed `${...}` template or an unknown token namespace.";
    IneffectiveField => "ineffective-field", Warning, "A field that has no effect where it stands.";
}

#[cfg(test)]
mod tests {
    use super::Rule;

    #[test]
    fn codes_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for rule in Rule::ALL {
            assert!(seen.insert(rule.code()), "duplicate code {}", rule.code());
            assert!(rule.code().chars().all(|c| c.is_ascii_lowercase() || c == '-'));
            assert_eq!(Rule::from_code(rule.code()), Some(*rule));
        }
        assert_eq!(Rule::from_code("no-such-rule"), None);
    }
}
