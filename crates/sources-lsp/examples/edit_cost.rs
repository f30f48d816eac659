//! The editor's analysis of one edit, alone, for counting its instructions under callgrind
//! (`scripts/bench-edit-instructions` runs it): reads FILE, analyses it once as the language server
//! does when it opens a document, then makes EDITS one-character edits, each analysed as the server
//! analyses an edited version (the kept tree updated, then `analyze_edited` with the memo the
//! previous version's analysis kept). Each edit flips
//! the fourth letter of the first `from: apps_0` (`apps_0` <-> `appz_0`), as
//! `scripts/bench-lsp-latency` does; with `insert`, it inserts a letter there and the next edit
//! deletes it (`apps_0` <-> `appzs_0`), so the text's length changes and every entry after it moves. The analysis is handed the demo backend's published shapes,
//! as the server hands them (no samples). Run with 0 and with N edits: the difference over N is
//! the cost of one edit. Allocates with mimalloc, as `sources` does.
//!
//! Usage: `edit_cost FILE EDITS [insert]` prints the number of diagnostics of the last version.

use std::process::ExitCode;
use std::sync::Arc;

use sources_check::{Bounded, Memo, analyze_edited};
use sources_syntax::{Syntax, Tree};

/// The allocator of the `sources` binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What the language server keeps of a document's diagnostics (its default limit, plus one).
const LIMIT: usize = 1001;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, edits, insert) = match args.as_slice() {
        [path, edits] => (path, edits, false),
        [path, edits, mode] if mode == "insert" => (path, edits, true),
        _ => {
            eprintln!("usage: edit_cost FILE EDITS [insert]");
            return ExitCode::from(2);
        }
    };
    let (Ok(text), Ok(edits)) = (std::fs::read_to_string(path), edits.parse::<usize>()) else {
        eprintln!("edit_cost: cannot read {path}, or EDITS is not a number");
        return ExitCode::from(2);
    };
    let Some(at) = text.find("from: apps_0") else {
        eprintln!("edit_cost: {path} has no `from: apps_0` to edit");
        return ExitCode::from(2);
    };
    let flip = at + "from: app".len();
    let bounded = || Bounded {
        limit: LIMIT,
        keep: Box::new(|_| true),
    };
    let inputs = sources_inputs::for_config(None, Default::default());
    let mut text = Arc::new(text);
    let mut tree = Tree::new(&text, Syntax::Yaml);
    // As the server's analysis of a document's version after an edit: the edits that follow reuse
    // what it kept.
    let mut memo = Memo::default();
    let mut analysis = analyze_edited(&text, &tree, &mut memo, Some(bounded()), &inputs);
    for edit in 0..edits {
        let mut next = text.as_ref().clone();
        match (insert, edit % 2 == 0) {
            (false, even) => next.replace_range(flip..flip + 1, if even { "z" } else { "s" }),
            (true, true) => next.insert(flip, 'z'),
            (true, false) => {
                next.remove(flip);
            }
        }
        let next = Arc::new(next);
        tree.update(&text, &next);
        let replaced = std::mem::replace(
            &mut analysis,
            analyze_edited(&next, &tree, &mut memo, Some(bounded()), &inputs),
        );
        drop(replaced);
        text = next;
    }
    println!("{}", analysis.diagnostics.len());
    ExitCode::SUCCESS
}
