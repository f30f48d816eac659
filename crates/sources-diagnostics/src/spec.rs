//! Where each rule is explained for users: the section of `docs/reference.md` (as a Markdown link
//! from the repository root) that states the constraint a rule enforces, for the README's rules
//! table.

use crate::Rule;

impl Rule {
    /// The reference sections the rule enforces, as Markdown links relative to the repository
    /// root (`[window](docs/reference.md#window): ...`).
    pub const fn spec_reference(self) -> &'static str {
        match self {
            Rule::Syntax => {
                "[the format](docs/reference.md#the-datasources-format): a YAML or TOML file"
            }
            Rule::UnknownField => {
                "the field tables of each kind: [shared fields](docs/reference.md#shared-fields), [leaf kinds](docs/reference.md#leaf-kinds), [operators](docs/reference.md#operators)"
            }
            Rule::MissingField => {
                "`required` in the field tables: [leaf kinds](docs/reference.md#leaf-kinds), [operators](docs/reference.md#operators)"
            }
            Rule::InvalidValue => {
                "field types and enumerations in the field tables; [parameters](docs/reference.md#parameters) `type`, `default`; [the dashboard](docs/reference.md#the-dashboard-tui-app-actions): counts, colors, a color rule's `~` pattern"
            }
            Rule::NoncanonicalValue => {
                "[the format](docs/reference.md#the-datasources-format): booleans and integers as the dashboard decodes them"
            }
            Rule::UnknownKind => {
                "[shared fields](docs/reference.md#shared-fields): leaf and operator kinds"
            }
            Rule::InvalidDuration => {
                "[durations](docs/reference.md#durations): `refresh`, `timeout`, `ttl`, `follow_every`"
            }
            Rule::ConflictingFields => {
                "`not with` in the field tables: [http](docs/reference.md#http) `follow`/`paginate`/`window`, [merge](docs/reference.md#merge) `sources`/`children`, [parameters](docs/reference.md#parameters) `required`/`default`, [growing](docs/reference.md#growing) and `refresh`"
            }
            Rule::UnknownDataField => {
                "[shapes](docs/reference.md#shapes-and-samples): what an entry's data looks like, from `static` data, samples, the demo backend and operators"
            }
            Rule::UnknownFunction => {
                "[expressions](docs/reference.md#expressions): the functions of the expression language"
            }
            Rule::OperandType => {
                "[expressions](docs/reference.md#expressions): operators and the types they take; [shapes](docs/reference.md#shapes-and-samples)"
            }
            Rule::FailingRow => {
                "[lint runs static pipelines](docs/reference.md#lint-runs-static-pipelines): the rows of `static` data through the operators above it, within its bounds"
            }
            Rule::ExpressionLanguage => {
                "[the expression language](docs/reference.md#the-expression-language): `[expressions] language` in `sources-lint.toml`"
            }
            Rule::UnknownSource => {
                "[operators](docs/reference.md#operators) name their inputs; [merge](docs/reference.md#merge) `sources`/`children`; [growing](docs/reference.md#growing) `source`"
            }
            Rule::UnknownComponent => {
                "[bindings](docs/reference.md#components-and-bindings): `on_cursor.source` and an action's `from` name components the file defines"
            }
            Rule::UnknownScreen => {
                "[bindings](docs/reference.md#components-and-bindings): a push names a screen of `tui.screens`"
            }
            Rule::DriverKind => {
                "[bindings](docs/reference.md#components-and-bindings): a driver is a table, list or tree"
            }
            Rule::DriverPlacement => {
                "[bindings](docs/reference.md#components-and-bindings): a driver is on the screen that reads it"
            }
            Rule::BindingFrom => {
                "[bindings](docs/reference.md#components-and-bindings): `from` is required exactly when a binding reads a selection"
            }
            Rule::UnfilledSelection => {
                "[bindings](docs/reference.md#components-and-bindings): `${selection…}` is filled by a binding's `from` and on a pushed screen"
            }
            Rule::UnshownScreen => {
                "[bindings](docs/reference.md#components-and-bindings): a screen is `initial` or opened by a push"
            }
            Rule::UnknownColumn => {
                "[bindings](docs/reference.md#components-and-bindings): `${cursor.Title}` and `${selection.Title}` name a column of the driving table"
            }
            Rule::DuplicatePlacement => {
                "[the dashboard](docs/reference.md#the-dashboard-tui-app-actions): a component is placed at most once per screen"
            }
            Rule::BindingKey => {
                "[the dashboard](docs/reference.md#the-dashboard-tui-app-actions): a binding's `key` is neither reserved nor repeated on its screen"
            }
            Rule::WindowComponentField => {
                "[the dashboard](docs/reference.md#the-dashboard-tui-app-actions): `markable` not over a window, `sort_debounce` only over one"
            }
            Rule::ReferenceCycle => {
                "[operators](docs/reference.md#operators): names may not form a cycle"
            }
            Rule::ReferenceDepth => {
                "[operators](docs/reference.md#operators): a chain of reads is at most 64 entries deep"
            }
            Rule::UndeclaredParam => {
                "[parameters](docs/reference.md#parameters): a supplied name the source does not declare"
            }
            Rule::UnboundParam => {
                "[parameters](docs/reference.md#parameters): a `required` parameter runs only when a caller binds it"
            }
            Rule::UndeclaredParamReference => {
                "[parameters](docs/reference.md#parameters): a `${params.X}` with no declaration stays literal"
            }
            Rule::UnusedParam => {
                "[parameters](docs/reference.md#parameters): a parameter is read as `${params.X}` in a template or `params.X` in an expression"
            }
            Rule::WindowKind => "[window](docs/reference.md#window): on `http` and `exec` only",
            Rule::WindowFormat => {
                "[window](docs/reference.md#window), [paginate](docs/reference.md#paginate): `format: json` only"
            }
            Rule::WindowBinding => {
                "[window](docs/reference.md#window): shown by a table or an event log; [growing](docs/reference.md#growing): an event log only"
            }
            Rule::WindowOperatorInput => {
                "[window](docs/reference.md#window): no operator reads a windowed source"
            }
            Rule::WindowMissingParam => {
                "[window](docs/reference.md#window): `offset_param`, `limit_param` (required on `http`)"
            }
            Rule::WindowNoFilterChannel => {
                "[window](docs/reference.md#window): `search_param` or `filters`"
            }
            Rule::WindowSortWithoutSortParam => {
                "[window](docs/reference.md#window): `sorts`, `sort_desc_prefix` need `sort_param`"
            }
            Rule::WindowHttpOnlyField => {
                "[window](docs/reference.md#window): the `http` only fields"
            }
            Rule::WindowMissingToken => {
                "[window](docs/reference.md#window) tokens of an `exec` command; [anchored windows](docs/reference.md#anchored-windows)"
            }
            Rule::WindowUnreferencedFilter => {
                "[window](docs/reference.md#window): every `filters` entry used by an `exec` command"
            }
            Rule::WindowTokenInProgram => {
                "[window](docs/reference.md#window): no window token in `command[0]`"
            }
            Rule::WindowNegative => {
                "[window](docs/reference.md#window) `page_size`, `prefetch`; [paginate](docs/reference.md#paginate) `max_pages`"
            }
            Rule::AnchoredNeedsOlderNewer => {
                "[anchored windows](docs/reference.md#anchored-windows): `http` needs `older` and `newer`"
            }
            Rule::AnchoredField => {
                "[anchored windows](docs/reference.md#anchored-windows): no offset, total or sort fields; `anchor`, `older`, `newer` need `cursor`"
            }
            Rule::GrowingBinding => "[growing](docs/reference.md#growing): an event log only",
            Rule::GrowingInvalid => {
                "[growing](docs/reference.md#growing): `source`, `while`, not with `refresh`; `follow_every` needs `growing`"
            }
            Rule::Expression => "[expressions](docs/reference.md#expressions)",
            Rule::WindowTokenMisplaced => {
                "[templates](docs/reference.md#templates): where the `window` namespace applies; [anchored windows](docs/reference.md#anchored-windows)"
            }
            Rule::InvalidTemplate => "[templates](docs/reference.md#templates)",
            Rule::TemplateInExpression => {
                "[expressions](docs/reference.md#expressions): an expression reads `params.NAME`; [templates](docs/reference.md#templates) are substituted only in templated fields"
            }
            Rule::ForeignPlaceholder => {
                "[templates](docs/reference.md#templates): only `${NAMESPACE.NAME}` is substituted"
            }
            Rule::UnknownNamespace => {
                "[templates](docs/reference.md#templates): the `params`, `env`, `window` and `selection` namespaces"
            }
            Rule::UrlTemplateUnencoded => {
                "[templates](docs/reference.md#templates): a `url` value is percent-encoded for its path, query or fragment"
            }
            Rule::IneffectiveField => {
                "[shared fields](docs/reference.md#shared-fields) `timeout` (ignored with `follow: true`); [cache](docs/reference.md#cache) (streamed events pass through)"
            }
            Rule::UnusedSuppression => "[suppression comments](#suppressing-a-finding) (README)",
            Rule::InvalidSettings => "[settings](#settings-sources-linttoml) (README)",
            Rule::JoinLookup => {
                "[join](docs/reference.md#join): a lookup is a leaf with parameters"
            }
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
