//! Facts about the workspace as a whole: ARCHITECTURE.md describes exactly the workspace's crates,
//! and no circle runs between the modules of a crate.
//!
//! For every module of every workspace crate, its child modules must not read each other in a
//! circle (`a` uses `b`, `b` uses `a`, through any number
//! of steps). A module's reads are the `crate::`, `super::` and `self::` paths of its file (test
//! modules left out), each counted against the deepest module it names; a read from inside a
//! child's subtree counts for that child. Reads between a module and its own ancestors or
//! descendants are the normal shape of a module tree and are not circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path below the crate root (`["render", "sarif"]`).
type ModulePath = Vec<String>;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The directories of the workspace's members (`members` of the root `Cargo.toml`, with `dir/*`
/// expanded to the directories below `dir` that hold a `Cargo.toml`).
fn members() -> Vec<PathBuf> {
    let root = workspace();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let line = manifest
        .lines()
        .find(|line| line.trim_start().starts_with("members"))
        .expect("a `members = [...]` line");
    let mut found = Vec::new();
    for member in line.split('"').skip(1).step_by(2) {
        match member.strip_suffix("/*") {
            Some(dir) => {
                let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
                    .expect("members directory")
                    .map(|entry| entry.expect("entry").path())
                    .filter(|path| path.join("Cargo.toml").is_file())
                    .collect();
                dirs.sort();
                found.extend(dirs);
            }
            None => found.push(root.join(member)),
        }
    }
    found
}

/// The module a source file is (`src/render/mod.rs` and `src/render.rs` are `render`), `None` for
/// a crate root or a test module.
fn module_of(src: &Path, file: &Path) -> Option<ModulePath> {
    let relative = file.strip_prefix(src).ok()?.with_extension("");
    let mut path: ModulePath = relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    let root = path.len() == 1 && (path[0] == "lib" || path[0] == "main");
    let test = path.iter().any(|part| part == "tests");
    (!path.is_empty() && !root && !test).then_some(path)
}

/// The text a module's reads are taken from: without its inline test module and its comments.
fn code_of(text: &str) -> String {
    let end = text
        .match_indices("#[cfg(test)]")
        .find(|(at, attribute)| {
            text[at + attribute.len()..]
                .trim_start()
                .starts_with("mod ")
        })
        .map_or(text.len(), |(at, _)| at);
    text[..end]
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tokens of a `use` tree or path: identifiers, `::`, `{`, `}`, `,`, `*`; anything else ends
/// it.
fn tokens(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        // A raw identifier (`r#try`) names the module `try`.
        if let Some(raw) = rest
            .strip_prefix("r#")
            .filter(|raw| raw.starts_with(|c: char| c.is_alphabetic() || c == '_'))
        {
            rest = raw;
        }
        let len = if rest.starts_with("::") {
            2
        } else if rest.starts_with(['{', '}', ',', '*']) {
            1
        } else {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
        };
        if len == 0 {
            return found;
        }
        found.push(&rest[..len]);
        rest = &rest[len..];
    }
}

/// The paths of the tree starting at `tokens[at]` (`a::{b, c::d}` is `a::b` and `a::c::d`), and
/// the position after it.
fn tree(tokens: &[&str], mut at: usize) -> (Vec<ModulePath>, usize) {
    match tokens.get(at) {
        Some(&"{") => {
            at += 1;
            let mut paths = Vec::new();
            while let Some(&token) = tokens.get(at) {
                match token {
                    "}" => return (paths, at + 1),
                    "," => at += 1,
                    _ => {
                        let (more, next) = tree(tokens, at);
                        paths.extend(more);
                        at = next.max(at + 1);
                    }
                }
            }
            (paths, at)
        }
        Some(name) if name.starts_with(|c: char| c.is_alphabetic() || c == '_') => {
            if tokens.get(at + 1) == Some(&"::") {
                let (rest, next) = tree(tokens, at + 2);
                let paths = rest
                    .into_iter()
                    .map(|mut path| {
                        path.insert(0, (*name).to_owned());
                        path
                    })
                    .collect();
                (paths, next)
            } else {
                (vec![vec![(*name).to_owned()]], at + 1)
            }
        }
        _ => (vec![Vec::new()], at + 1),
    }
}

/// Every path a module's code reads through `crate::`, `super::` or `self::`, made absolute.
fn reads(module: &ModulePath, code: &str) -> Vec<ModulePath> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("::") {
        let before = &code[..at];
        let word_start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |index| index + 1);
        let word = &before[word_start..];
        let prefixed = before[..word_start].ends_with(['$', ':']);
        if prefixed || !matches!(word, "crate" | "super" | "self") {
            continue;
        }
        let mut base = if word == "crate" {
            Vec::new()
        } else {
            module.clone()
        };
        let mut rest = &code[at + 2..];
        if word == "super" {
            base.pop();
        }
        while let Some(after) = rest.trim_start().strip_prefix("super::") {
            base.pop();
            rest = after;
        }
        let (paths, _) = tree(&tokens(rest), 0);
        for path in paths {
            let mut absolute = base.clone();
            absolute.extend(path);
            found.push(absolute);
        }
    }
    found
}

/// The strongly connected components of more than one node (Tarjan's algorithm).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(state: &mut State<'a>, node: &'a str) {
        let index = state.index.len();
        state.index.insert(node, index);
        state.low.insert(node, index);
        state.stack.push(node);
        for next in state.graph.get(node).into_iter().flatten() {
            if !state.index.contains_key(next.as_str()) {
                visit(state, next);
                let low = state.low[next.as_str()].min(state.low[node]);
                state.low.insert(node, low);
            } else if state.stack.contains(&next.as_str()) {
                let low = state.index[next.as_str()].min(state.low[node]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let at = state
                .stack
                .iter()
                .rposition(|on| *on == node)
                .expect("on the stack");
            let mut component: Vec<String> = state.stack.drain(at..).map(str::to_owned).collect();
            if component.len() > 1 {
                component.sort();
                state.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found
}

/// The circles between sibling modules of the crate in `dir`: (parent module, its children in a
/// circle).
fn crate_circles(dir: &Path) -> Vec<(String, Vec<String>)> {
    let src = dir.join("src");
    let mut modules: BTreeMap<ModulePath, String> = BTreeMap::new();
    for file in sources_testkit::files_under(&src) {
        if file.extension().is_some_and(|extension| extension == "rs")
            && let Some(module) = module_of(&src, &file)
        {
            let text = std::fs::read_to_string(&file).expect("source file");
            modules.insert(module, code_of(&text));
        }
    }
    let mut edges: BTreeSet<(ModulePath, ModulePath)> = BTreeSet::new();
    for (module, code) in &modules {
        for read in reads(module, code) {
            let target = (1..=read.len())
                .rev()
                .map(|len| &read[..len])
                .find(|prefix| modules.contains_key(*prefix));
            if let Some(target) = target
                && target != module.as_slice()
            {
                edges.insert((module.clone(), target.to_vec()));
            }
        }
    }
    let parents: BTreeSet<&[String]> = modules
        .keys()
        .map(|module| &module[..module.len() - 1])
        .collect();
    let mut found = Vec::new();
    for parent in parents {
        let depth = parent.len();
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in &edges {
            let inside = |path: &ModulePath| path.len() > depth && path.starts_with(parent);
            if inside(from) && inside(to) && from[depth] != to[depth] {
                graph
                    .entry(from[depth].clone())
                    .or_default()
                    .insert(to[depth].clone());
            }
        }
        for circle in circles(&graph) {
            found.push((parent.join("::"), circle));
        }
    }
    found
}

#[test]
fn no_module_reads_its_siblings_in_a_circle() {
    let mut circles_found = Vec::new();
    for dir in members() {
        let name = dir
            .file_name()
            .expect("member directory")
            .to_string_lossy()
            .into_owned();
        for (parent, circle) in crate_circles(&dir) {
            let parent = if parent.is_empty() {
                "the crate root".to_owned()
            } else {
                format!("`{parent}`")
            };
            circles_found.push(format!(
                "{name}: modules of {parent} read each other in a circle: {}",
                circle.join(", ")
            ));
        }
    }
    assert!(
        circles_found.is_empty(),
        "move what both sides need below them:\n{}",
        circles_found.join("\n")
    );
}

#[test]
fn reads_are_resolved_through_groups_and_relative_paths() {
    let module: ModulePath = vec!["render".into(), "sarif".into()];
    let code = "use crate::{explain::{self, text}, lint::color};\nuse super::super::terminal::Stream;\nlet x = self::inner::f(); let y = $crate::no::thing;\nuse crate::r#try::{self, Args};";
    let found: Vec<String> = reads(&module, code)
        .into_iter()
        .map(|path| path.join("::"))
        .collect();
    assert_eq!(
        found,
        [
            "explain::self",
            "explain::text",
            "lint::color",
            "terminal::Stream",
            "render::sarif::inner::f",
            "try::self",
            "try::Args"
        ]
    );
}

#[test]
fn a_circle_through_a_child_module_is_found() {
    let dir = tempfile_dir();
    let files = [
        ("Cargo.toml", ""),
        ("src/lib.rs", "mod explain;\nmod lint;\nmod render;\n"),
        ("src/explain.rs", "use crate::lint::color;\n"),
        ("src/lint.rs", "use crate::render;\n"),
        ("src/render/mod.rs", "mod sarif;\n"),
        (
            "src/render/sarif.rs",
            "fn f() { crate::explain::text(); }\n#[cfg(test)]\nmod tests { use crate::lint; }\n",
        ),
        ("src/graph.rs", "use crate::render;\n"),
    ];
    sources_testkit::write_tree(&dir, files);
    assert_eq!(
        crate_circles(&dir),
        [(
            String::new(),
            vec!["explain".into(), "lint".into(), "render".into()]
        )]
    );
    std::fs::remove_dir_all(&dir).expect("remove the test tree");
}

/// A fresh directory under the target's temporary directory.
fn tempfile_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("module-cycles-{}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("remove an old test tree");
    }
    dir
}

/// The crate directories ARCHITECTURE.md's code map describes: its `### DIR` headings (DIR in
/// backquotes).
fn described_crates() -> Vec<String> {
    let text =
        std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut found: Vec<String> = text
        .lines()
        .filter_map(|line| line.strip_prefix("### `")?.strip_suffix('`'))
        .map(|dir| dir.trim_end_matches('/').to_owned())
        .collect();
    found.sort();
    found
}

#[test]
fn architecture_md_describes_every_workspace_crate_and_no_other() {
    let root = workspace().canonicalize().expect("the workspace");
    let mut members: Vec<String> = members()
        .iter()
        .map(|dir| {
            let dir = dir.canonicalize().expect("a member directory");
            let relative = dir
                .strip_prefix(&root)
                .expect("a member inside the workspace");
            relative.to_string_lossy().replace('\\', "/")
        })
        .collect();
    members.sort();
    assert_eq!(
        described_crates(),
        members,
        "ARCHITECTURE.md's code map has one `### DIR` heading (DIR in backquotes) per workspace member (Cargo.toml's \
         `members`): add a section for a new crate, remove the section of one that is gone"
    );
}
