//! Parameter binding: the caller's value, else the default, else an error when required, else
//! empty; undeclared names are refused and values are checked against the declared type.

use std::collections::BTreeMap;

use sources_config::accepted::{ParamDecl, accepted_params};
use sources_config::enums::{Enumeration, ParamType};
use sources_config::param_value::{expression_value, parse_param_value};
use sources_config::{Config, Source};
use sources_expr::Language;

/// Checks `value` against a parameter type (through the one parser in `sources_config`); the
/// message says what is expected.
pub fn check(kind: ParamType, value: &str) -> Result<(), String> {
    parse_param_value(kind, value)
        .map(drop)
        .map_err(|error| error.to_string())
}

/// The bound values as `language` sees them under `params`. Under CEL an `int` is a number, a
/// `bool` a boolean, a `string` or `duration` the text; an optional parameter nobody supplied
/// (empty) is `null` unless it is a `string`. Under expr-lang every value is its text, as the
/// dashboard passes it. Values were checked against their types when bound. Only the entry's own
/// `declared` parameters are there: what an operator passes through is not its own.
pub fn typed(
    language: Language,
    declared: &[ParamDecl],
    bound: &BTreeMap<String, String>,
) -> BTreeMap<String, serde_json::Value> {
    bound
        .iter()
        .filter_map(|(name, text)| {
            let kind = declared.iter().find(|decl| &decl.name == name)?.kind;
            let value = language.param_value(expression_value(kind, text), text);
            Some((name.clone(), value))
        })
        .collect()
}

/// The parameters of one entry, bound by [`bind_entry`]: every declared name with its value.
/// [`crate::engine::Engine::evaluate`] takes this, so the entry a front end names is bound once,
/// by the front end (which reports a binding error its own way), and the engine binds only the
/// entries it reads on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    entry: String,
    values: BTreeMap<String, String>,
}

impl Bound {
    /// The entry these parameters are bound for.
    pub fn entry(&self) -> &str {
        &self.entry
    }

    /// Every declared name with its value (empty when neither supplied nor defaulted).
    pub fn values(&self) -> &BTreeMap<String, String> {
        &self.values
    }
}

/// Binds the caller's values for `source` (see [`bind`]) against the parameters it takes
/// ([`accepted_params`]). A required parameter the caller gives an empty value is refused as a
/// missing one is: the entry would run with a hole in its request.
pub fn bind_entry(
    config: &Config,
    source: &Source,
    supplied: &BTreeMap<String, String>,
) -> Result<Bound, String> {
    let declared = accepted_params(config, source);
    if let Some(decl) = declared
        .iter()
        .find(|decl| decl.required && supplied.get(&decl.name).is_some_and(String::is_empty))
    {
        return Err(format!(
            "parameter `{}` is required and `--param {}=` gives it no value: pass it with `--param {}=VALUE`",
            decl.name, decl.name, decl.name
        ));
    }
    Ok(Bound {
        entry: source.name.value.to_string(),
        values: bind(&declared, supplied)?,
    })
}

/// Binds parameters for one entry. The result holds every declared name (empty when neither
/// supplied nor defaulted), so an undeclared `${params.X}` stays literal.
pub fn bind(
    declared: &[ParamDecl],
    supplied: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, String> {
    for name in supplied.keys() {
        if !declared.iter().any(|decl| &decl.name == name) {
            let names: Vec<&str> = declared.iter().map(|decl| decl.name.as_str()).collect();
            let hint = match sources_diagnostics::did_you_mean(name, names.iter().copied()).first()
            {
                Some(best) => format!("; did you mean `{best}`?"),
                None if names.is_empty() => "; it declares no parameters".to_owned(),
                None => format!("; it declares {}", list(&names)),
            };
            return Err(format!(
                "parameter `{name}` is not declared by this source{hint}"
            ));
        }
    }
    let mut bound = BTreeMap::new();
    for decl in declared {
        let value = match (supplied.get(&decl.name), &decl.default) {
            (Some(value), _) => value.clone(),
            (None, Some(default)) => default.clone(),
            (None, None) if decl.required => {
                return Err(format!(
                    "parameter `{}` is required: pass it with `--param {}=VALUE`",
                    decl.name, decl.name
                ));
            }
            (None, None) => String::new(),
        };
        let supplied_or_default = supplied.contains_key(&decl.name) || decl.default.is_some();
        if supplied_or_default {
            check(decl.kind, &value).map_err(|expected| {
                format!(
                    "parameter `{}` is declared `{}` but got `{value}`: {expected}",
                    decl.name,
                    decl.kind.as_str()
                )
            })?;
        }
        bound.insert(decl.name.clone(), value);
    }
    Ok(bound)
}

fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A parameter value that works in the demo world, and what it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The value to pass.
    pub value: String,
    /// What it is (`a running job`, ``app `payments-api` ``), when the row says.
    pub what: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(name: &str, kind: ParamType, required: bool, default: Option<&str>) -> ParamDecl {
        ParamDecl {
            name: name.into(),
            kind,
            required,
            default: default.map(Into::into),
        }
    }

    fn supplied(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn caller_then_default_then_required_then_empty() {
        let declared = [
            decl("id", ParamType::String, true, None),
            decl("limit", ParamType::Int, false, Some("50")),
            decl("q", ParamType::String, false, None),
        ];
        let bound = bind(&declared, &supplied(&[("id", "app-0003")])).expect("bound");
        assert_eq!(bound["id"], "app-0003");
        assert_eq!(bound["limit"], "50");
        assert_eq!(bound["q"], "");
        let bound = bind(&declared, &supplied(&[("id", "x"), ("limit", "7")])).expect("bound");
        assert_eq!(bound["limit"], "7");
        let missing = bind(&declared, &BTreeMap::new()).expect_err("required");
        assert_eq!(
            missing,
            "parameter `id` is required: pass it with `--param id=VALUE`"
        );
    }

    #[test]
    fn undeclared_names_are_refused_with_a_suggestion() {
        let declared = [decl("app_id", ParamType::String, false, None)];
        assert_eq!(
            bind(&declared, &supplied(&[("app_ib", "x")])).expect_err("undeclared"),
            "parameter `app_ib` is not declared by this source; did you mean `app_id`?"
        );
        assert_eq!(
            bind(&[], &supplied(&[("x", "1")])).expect_err("undeclared"),
            "parameter `x` is not declared by this source; it declares no parameters"
        );
    }

    #[test]
    fn values_are_checked_against_the_declared_type() {
        let declared = [
            decl("n", ParamType::Int, false, None),
            decl("b", ParamType::Bool, false, None),
            decl("d", ParamType::Duration, false, Some("1m30s")),
        ];
        assert!(bind(&declared, &supplied(&[("n", "-3"), ("b", "true")])).is_ok());
        assert_eq!(
            bind(&declared, &supplied(&[("n", "ten")])).expect_err("int"),
            "parameter `n` is declared `int` but got `ten`: expected an integer such as `42`"
        );
        assert!(
            bind(&declared, &supplied(&[("b", "yes")]))
                .expect_err("bool")
                .contains("expected `true` or `false`")
        );
        assert!(
            bind(&declared, &supplied(&[("d", "5")]))
                .expect_err("duration")
                .contains("declared `duration` but got `5`")
        );
        assert!(bind(&declared, &supplied(&[("d", "250ms")])).is_ok());
    }

    #[test]
    fn typed_values_reach_cel_with_their_declared_type() {
        let declared = [
            decl("min", ParamType::Int, false, None),
            decl("on", ParamType::Bool, false, None),
            decl("q", ParamType::String, false, None),
            decl("every", ParamType::Duration, false, None),
        ];
        let typed = typed(
            Language::Cel,
            &declared,
            &supplied(&[("min", " 5"), ("on", "true"), ("q", ""), ("every", "")]),
        );
        assert_eq!(typed["min"], serde_json::json!(5));
        assert_eq!(typed["on"], serde_json::json!(true));
        assert_eq!(typed["q"], serde_json::json!(""));
        assert_eq!(typed["every"], serde_json::Value::Null);
    }

    #[test]
    fn values_reach_expr_as_their_text_whatever_their_type() {
        let declared = [
            decl("min", ParamType::Int, false, None),
            decl("on", ParamType::Bool, false, None),
        ];
        let typed = typed(
            Language::Expr,
            &declared,
            &supplied(&[("min", "5"), ("on", "true")]),
        );
        assert_eq!(typed["min"], serde_json::json!("5"));
        assert_eq!(typed["on"], serde_json::json!("true"));
    }
}
