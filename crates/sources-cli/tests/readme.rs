//! The README's rules table is the output of `sources rules --format markdown`: this test fails
//! when they differ, and `UPDATE_EXPECT=1 cargo test -p sources-cli --test readme` rewrites it.

use std::fs;
use std::path::Path;

const START: &str = "<!-- rules:start -->\n";
const END: &str = "<!-- rules:end -->";

#[test]
fn the_readme_rules_table_is_generated_from_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = fs::read_to_string(&path).expect("README.md at the repository root");
    let start = readme
        .find(START)
        .expect("README.md has a `<!-- rules:start -->` line")
        + START.len();
    let end = readme[start..]
        .find(END)
        .expect("README.md has a `<!-- rules:end -->` marker")
        + start;
    let table = sources_cli::rules::markdown();
    if readme[start..end] == table {
        return;
    }
    let updated = format!("{}{table}{}", &readme[..start], &readme[end..]);
    if sources_testkit::blessing() {
        fs::write(&path, updated).expect("write README.md");
        return;
    }
    panic!(
        "README.md's rules table differs from `sources rules --format markdown`:\n\
         --- README.md\n{}\n--- generated\n{table}\n\
         Regenerate it with: UPDATE_EXPECT=1 cargo test -p sources-cli --test readme",
        &readme[start..end]
    );
}
