//! Every rule's explanation carries a failing YAML example (invariant 5); this test runs each
//! example through the one analysis and checks that it reports that rule, and nothing at any other
//! place, so that `sources explain` never shows an example that fails for an unrelated reason or
//! not at all. (Another rule at the very same key is a second view of the same mistake.) The one
//! rule the analysis does not report, `invalid-settings`, is about a settings file: its example is
//! a ```toml settings file, which must have only such mistakes.

use sources_diagnostics::Rule;
use sources_syntax::Syntax;

/// The first fenced `yaml` block of a rule's explanation (its info string says how it lints:
/// `doc_examples.rs` checks that).
fn example(rule: Rule) -> Option<String> {
    let explanation = sources_cli::explain::explanation(rule);
    let fence = explanation.find("```yaml")?;
    let start = explanation[fence..].find('\n')? + fence + 1;
    let end = explanation[start..].find("```")? + start;
    Some(explanation[start..end].to_owned())
}

#[test]
fn every_example_fails_with_its_own_rule_and_nothing_unrelated() {
    let mut failures = Vec::new();
    for rule in Rule::ALL {
        if *rule == Rule::InvalidSettings {
            failures.extend(settings_example_failure());
            continue;
        }
        let Some(yaml) = example(*rule) else {
            failures.push(format!("{rule}: the explanation has no ```yaml example"));
            continue;
        };
        let diagnostics = sources_check::analyze(&yaml, Syntax::Yaml).diagnostics;
        let own: Vec<_> = diagnostics
            .iter()
            .filter(|d| d.rule == *rule)
            .map(|d| d.span)
            .collect();
        let unrelated = diagnostics
            .iter()
            .any(|d| d.rule != *rule && !own.contains(&d.span));
        if own.is_empty() || unrelated {
            let reported: Vec<String> = diagnostics
                .iter()
                .map(|d| format!("  {}: {}", d.rule, d.message))
                .collect();
            failures.push(format!(
                "{rule}: the example reports\n{}",
                reported.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Why the `invalid-settings` example is not a settings file with mistakes, if it is not.
fn settings_example_failure() -> Option<String> {
    let explanation = sources_cli::explain::explanation(Rule::InvalidSettings);
    let Some(fence) = explanation.find("```toml") else {
        return Some("invalid-settings: the explanation has no ```toml example".to_owned());
    };
    let start = explanation[fence..]
        .find('\n')
        .map_or(fence, |end| fence + end + 1);
    let end = explanation[start..]
        .find("```")
        .map_or(explanation.len(), |end| start + end);
    match sources_check::settings::Settings::parse(&explanation[start..end]) {
        Ok(_) => Some("invalid-settings: the example is a valid settings file".to_owned()),
        Err(errors)
            if errors
                .iter()
                .all(|error| error.diagnostic().rule == Rule::InvalidSettings) =>
        {
            None
        }
        Err(errors) => Some(format!("invalid-settings: the example reports {errors:?}")),
    }
}
