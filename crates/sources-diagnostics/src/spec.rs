//! Where each rule comes from: the section of `spec/data-sources.md` (or `DESIGN.md`) that states
//! the constraint a rule enforces, for the rules table and `sources explain`.

use crate::Rule;

impl Rule {
    /// The specification passage the rule enforces ("Errors 7", "window table: `sorts`"), in
    /// `spec/data-sources.md` unless it names `DESIGN.md`.
    pub const fn spec_reference(self) -> &'static str {
        match self {
            Rule::Syntax => "DESIGN.md: the config file is YAML or TOML",
            Rule::UnknownField => "Resources and their fields: the field tables of each kind",
            Rule::MissingField => "field tables: `required` fields; DESIGN.md operator table",
            Rule::InvalidValue => {
                "Errors 1, 2; field tables (enumerations); http and websocket `url`, `headers`, `command`, `timeout`, `root`; Parameters `type`, `default`"
            }
            Rule::UnknownKind => "What the service does 1; DESIGN.md operator kinds",
            Rule::InvalidDuration => "Errors 1; `refresh`, `timeout`, `cache.ttl`, `follow_every`",
            Rule::ConflictingFields => {
                "Errors 2, 3, 4, 6; `not with` in the field tables (follow, paginate, window, refresh, growing, required/default)"
            }
            Rule::UnknownSource => {
                "merge `sources`/`children`; growing `source`; DESIGN.md operators and bindings"
            }
            Rule::UnknownComponent => {
                "DESIGN.md bindings: an `on_cursor` binding names a component the file defines"
            }
            Rule::ReferenceCycle => "DESIGN.md operators (entries name their inputs)",
            Rule::ReferenceDepth => {
                "DESIGN.md operators (entries name their inputs); ARCHITECTURE.md: one chain-depth limit"
            }
            Rule::UndeclaredParam => {
                "Errors 3; Parameters (a supplied name the source does not declare)"
            }
            Rule::UnboundParam => {
                "What the service does 3 (a required parameter runs only when a caller binds it)"
            }
            Rule::UndeclaredParamReference => {
                "Parameters: a `${params.X}` with no declared parameter stays literal"
            }
            Rule::WindowKind => "Errors 4; window: supported on `http` and `exec`",
            Rule::WindowFormat => {
                "Errors 4; http `paginate`/`window` and exec `window`: `json` only"
            }
            Rule::WindowBinding => {
                "Errors 5, 6; Anchored windows 10; growing (event-log sources only)"
            }
            Rule::WindowOperatorInput => "Errors 5 (an operator consuming a windowed source)",
            Rule::WindowMissingParam => {
                "Errors 7; window `offset_param`, `limit_param` (required on `http`)"
            }
            Rule::WindowNoFilterChannel => "Errors 7 (neither `search_param` nor `filters`)",
            Rule::WindowSortWithoutSortParam => {
                "Errors 7; window `sorts`, `sort_desc_prefix` (needs `sort_param`)"
            }
            Rule::WindowHttpOnlyField => "Errors 8; window table (`http` only fields)",
            Rule::WindowMissingToken => "Errors 8, 10; Exec window tokens",
            Rule::WindowUnreferencedFilter => "Errors 8 (a `filters` entry that is not referenced)",
            Rule::WindowTokenInProgram => "Errors 8 (a window token in `command[0]`)",
            Rule::WindowNegative => "Errors 9; paginate `max_pages` (no unlimited value)",
            Rule::AnchoredNeedsOlderNewer => "Errors 10; window `older`, `newer`",
            Rule::AnchoredField => {
                "Errors 10; Anchored windows 9; window `anchor`, `older`, `newer` (with `cursor`)"
            }
            Rule::GrowingBinding => "Errors 6 (`growing` on anything but an event log)",
            Rule::GrowingInvalid => {
                "Errors 6; growing table; window `follow_every` (needs `growing`)"
            }
            Rule::Expression => "growing `while`; DESIGN.md operators (CEL expressions)",
            Rule::WindowTokenMisplaced => "Exec window tokens; Anchored windows 2–5",
            Rule::InvalidTemplate => {
                "Parameters (`${params.NAME}`); Exec window tokens; DESIGN.md templates"
            }
            Rule::UnknownNamespace => {
                "Parameters (an undeclared token stays literal); DESIGN.md templates"
            }
            Rule::IneffectiveField => {
                "leaf `timeout` (ignored with `follow: true`); cache (streamed events pass through)"
            }
            Rule::UnusedSuppression => {
                "sources lint: suppression comments (not in the specification)"
            }
            Rule::JoinLookup => "DESIGN.md operators: join (a lookup is a leaf with parameters)",
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Rule;

    #[test]
    fn every_rule_names_its_source() {
        for rule in Rule::ALL {
            assert!(!rule.spec_reference().is_empty(), "{}", rule.code());
        }
    }
}
