//! `docs/rules.md` is where every diagnostic's code description points
//! (`RULES_DOCS_URL#code`): one section per rule, generated from the rule declarations.
//! `UPDATE_EXPECT=1 cargo test -p sources-lsp --test rules_page` regenerates it.

use std::path::Path;

use sources_diagnostics::Rule;
use sources_lsp::{RULES_DOCS_URL, rule_docs_url};

fn render() -> String {
    let mut page = String::from(
        "# Rules\n\n\
         Every diagnostic of `sources lint` and `sources lsp` carries one of these codes. Editors link\n\
         each diagnostic to its section here; `sources explain CODE` prints the same text.\n\
         This page is generated from the rule declarations in\n\
         `crates/sources-diagnostics/src/rules/` (`UPDATE_EXPECT=1 cargo test -p sources-lsp --test rules_page`).\n",
    );
    for rule in Rule::ALL {
        page.push_str(&format!(
            "\n## {}\n\n*{}* — {}\n\n{}\n",
            rule.code(),
            rule.default_severity().as_str(),
            rule.summary(),
            rule.explanation_markdown()
        ));
    }
    page
}

#[test]
fn the_rules_page_is_generated_from_the_declarations() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules.md");
    sources_testkit::assert_file(
        &path,
        &render(),
        "UPDATE_EXPECT=1 cargo test -p sources-lsp --test rules_page",
    );
}

#[test]
fn every_rule_links_to_its_own_section() {
    let page = render();
    for rule in Rule::ALL {
        let url = rule_docs_url(*rule);
        let anchor = url
            .strip_prefix(RULES_DOCS_URL)
            .and_then(|rest| rest.strip_prefix('#'));
        assert_eq!(anchor, Some(rule.code()));
        assert!(
            page.contains(&format!("\n## {}\n", rule.code())),
            "a section for {}",
            rule.code()
        );
    }
}
