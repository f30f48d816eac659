//! Which parameters an entry takes from whoever runs it (a binding of the dashboard, a join, or
//! `--param`): the one rule that lint's `unbound-param`, `sources list` and `sources try` follow.
//!
//! An entry that declares `parameters` takes exactly those. An operator (and a `merge`) that
//! declares none passes what it is given through to the entries it reads (`from`, `sources`,
//! `children`, `parts`, `driver.from`), so it takes what they take, transitively. A join's
//! lookups are bound by their `on` maps and a growing condition by its window, so neither passes
//! anything through. An operator's own parameters serve only its own expressions: they are never
//! forwarded to its inputs.

use std::collections::HashSet;

use crate::config::{Config, ReferenceField};
use crate::enums::ParamType;
use crate::model::{Body, Parameter, Source};
use crate::spanned::{Field, Named};

/// A parameter an entry takes, and the entry that declares it.
#[derive(Clone, Copy, Debug)]
pub struct AcceptedParam<'a> {
    /// The entry that declares it: the entry itself, or one it passes parameters through to.
    pub entry: &'a Source,
    /// The declaration.
    pub param: &'a Named<Parameter>,
}

impl AcceptedParam<'_> {
    /// The parameter's name.
    pub fn name(&self) -> &str {
        &self.param.name.value
    }

    /// Whether a caller must supply it: `required` and no `default`.
    pub fn is_required(&self) -> bool {
        let declaration = &self.param.value.value;
        declaration.required.as_ref().is_some_and(|r| r.value) && declaration.default.is_none()
    }
}

/// Whether `source` passes the parameters it is given through to its inputs: an operator or a
/// `merge` that declares no parameters of its own.
pub fn passes_through(source: &Source) -> bool {
    forwards_when_bare(source) && declares_none(source)
}

/// Whether `source` is of a kind that passes the parameters it is given through when it declares
/// none of its own: an operator or a `merge`, not a leaf that fetches.
pub fn forwards_when_bare(source: &Source) -> bool {
    !matches!(
        source.body,
        Body::Http(_)
            | Body::Exec(_)
            | Body::File(_)
            | Body::Websocket(_)
            | Body::Static(_)
            | Body::Unknown
    )
}

/// Whether `source` declares no parameters (no `parameters`, or an empty map).
fn declares_none(source: &Source) -> bool {
    source
        .body
        .common()
        .and_then(|common| common.parameters.as_ref())
        .is_none_or(|parameters| parameters.value.iter().next().is_none())
}

/// Whether a reference in `field` receives the parameters its reader passes through.
pub fn forwards_through(field: ReferenceField) -> bool {
    !matches!(field, ReferenceField::Lookup | ReferenceField::Growing)
}

/// One declared parameter, as the evaluator and `sources list` need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDecl {
    /// The parameter's name.
    pub name: String,
    /// Its type.
    pub kind: ParamType,
    /// Whether a caller must supply it.
    pub required: bool,
    /// The value used when no caller supplies one.
    pub default: Option<String>,
}

impl ParamDecl {
    /// Whether a caller must give it a value: required, with no default to fall back on.
    pub fn must_be_given(&self) -> bool {
        self.required && self.default.is_none()
    }
}

/// The names of the parameters `source` takes ([`accepted_params`]) that a caller must give.
pub fn must_be_given(config: &Config, source: &Source) -> Vec<String> {
    accepted_params(config, source)
        .into_iter()
        .filter(ParamDecl::must_be_given)
        .map(|param| param.name)
        .collect()
}

/// The declared parameters of an entry.
pub fn declared_params(source: &Source) -> Vec<ParamDecl> {
    source
        .body
        .common()
        .and_then(|common| common.parameters.as_ref())
        .map(|parameters| parameters.value.iter().map(decl).collect())
        .unwrap_or_default()
}

/// The parameters an entry takes from its caller, by the one rule of
/// this module: its own declarations, or, for an operator that declares none,
/// those of the entries it reads (it passes them through).
pub fn accepted_params(config: &Config, source: &Source) -> Vec<ParamDecl> {
    if !passes_through(source) {
        return declared_params(source);
    }
    config
        .accepted_params(&source.name.value)
        .into_iter()
        .map(|accepted| decl(accepted.param))
        .collect()
}

fn decl(param: &Named<Parameter>) -> ParamDecl {
    let declaration = &param.value.value;
    ParamDecl {
        name: param.name.value.clone(),
        kind: declaration
            .kind
            .as_ref()
            .map_or(ParamType::String, |kind| kind.value),
        required: declaration
            .required
            .as_ref()
            .is_some_and(|required: &Field<bool>| required.value),
        default: declaration
            .default
            .as_ref()
            .map(|default| default.value.clone()),
    }
}

impl Config {
    /// The parameters the entry `name` takes, each name once, in the order they are met (its own
    /// declarations, or its inputs' in the order it reads them); a name two inputs declare is
    /// given by the one that requires it.
    pub fn accepted_params(&self, name: &str) -> Vec<AcceptedParam<'_>> {
        let mut out: Vec<AcceptedParam<'_>> = Vec::new();
        for accepted in self.accepted_declarations(name) {
            // Two inputs may declare one name: the value reaches both, so the name is needed if
            // either needs it.
            match out.iter_mut().find(|seen| seen.name() == accepted.name()) {
                Some(seen) if accepted.is_required() && !seen.is_required() => *seen = accepted,
                Some(_) => {}
                None => out.push(accepted),
            }
        }
        out
    }

    /// Every declaration a value given to the entry `name` reaches, in the order they are met: a
    /// name two of its inputs declare is there twice, once for each.
    pub fn accepted_declarations(&self, name: &str) -> Vec<AcceptedParam<'_>> {
        let mut out: Vec<AcceptedParam<'_>> = Vec::new();
        let mut visited: HashSet<&str> = HashSet::new();
        if let Some(source) = self.get(name) {
            self.collect_accepted(source, &mut visited, &mut out);
        }
        out
    }

    /// Walks `source` and what it passes parameters through to, depth first in reference order,
    /// on an explicit stack (a chain may be as long as the document).
    fn collect_accepted<'a>(
        &'a self,
        source: &'a Source,
        visited: &mut HashSet<&'a str>,
        out: &mut Vec<AcceptedParam<'a>>,
    ) {
        let mut stack = vec![source];
        while let Some(source) = stack.pop() {
            // A cycle is its own error (`reference-cycle`); each entry is walked once.
            if !visited.insert(source.name.value.as_str()) {
                continue;
            }
            if !passes_through(source) {
                let declared = source
                    .body
                    .common()
                    .and_then(|common| common.parameters.as_ref());
                out.extend(
                    declared
                        .iter()
                        .flat_map(|parameters| parameters.value.iter())
                        .map(|param| AcceptedParam {
                            entry: source,
                            param,
                        }),
                );
                continue;
            }
            let inputs: Vec<&Source> = source
                .references()
                .into_iter()
                .filter(|reference| forwards_through(reference.field))
                .filter_map(|reference| self.get(&reference.name.value))
                .collect();
            stack.extend(inputs.into_iter().rev());
        }
    }
}
