//! The baselines `scripts/bench-lint-vs-parse` compares `sources lint` against: read one YAML file
//! and load it with saphyr's span-keeping loader (`MarkedYaml`), or only run saphyr-parser's event
//! stream over it (every event with its span, nothing built: the floor any YAML reader built on
//! saphyr-parser stands on), or only read it into our own tree (`sources_syntax::parse`: the fast
//! reader where it takes the text, the floor of `sources lint` itself). Nothing else. Like
//! `sources`, it allocates with mimalloc, so both sides of the comparison have the same allocator.
//!
//! Usage: `saphyr_load [--events | --tree] FILE` prints the number of documents loaded (or of
//! events, or of the tree's root entries).

use std::process::ExitCode;

use saphyr::{LoadableYamlNode, MarkedYaml};

/// The allocator of the `sources` binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut args: Vec<_> = std::env::args_os().skip(1).collect();
    let mode = match args.first().and_then(|arg| arg.to_str()) {
        Some(flag @ ("--events" | "--tree")) => {
            let flag = flag.to_owned();
            args.remove(0);
            flag
        }
        _ => String::new(),
    };
    let events_only = mode == "--events";
    let [path] = args.as_slice() else {
        eprintln!("usage: saphyr_load [--events | --tree] FILE");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("{}: {error}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    if mode == "--tree" {
        let parse = sources_syntax::parse(&text, sources_syntax::Syntax::Yaml);
        if let Some(error) = parse.errors.first() {
            eprintln!("{}: {}", path.to_string_lossy(), error.message);
            return ExitCode::FAILURE;
        }
        let entries = parse
            .root
            .as_ref()
            .and_then(|root| root.as_map())
            .map_or(0, |map| map.len());
        println!("{entries} root entries");
        return ExitCode::SUCCESS;
    }
    if events_only {
        let mut parser = saphyr_parser::Parser::new_from_str(&text);
        let mut events = 0_usize;
        while let Some(next) = parser.next_event() {
            match next {
                Ok((event, span)) => {
                    std::hint::black_box((&event, &span));
                    events += 1;
                }
                Err(error) => {
                    eprintln!("{}: {error}", path.to_string_lossy());
                    return ExitCode::FAILURE;
                }
            }
        }
        println!("{events} event(s)");
        return ExitCode::SUCCESS;
    }
    match MarkedYaml::load_from_str(&text) {
        Ok(documents) => {
            println!("{} document(s)", documents.len());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{}: {error}", path.to_string_lossy());
            ExitCode::FAILURE
        }
    }
}
