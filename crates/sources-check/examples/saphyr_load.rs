//! The baselines `scripts/bench-lint-vs-parse` compares `sources lint` against: read one YAML file
//! and load it with saphyr's span-keeping loader (`MarkedYaml`), or only run saphyr-parser's event
//! stream over it (every event with its span, nothing built: the floor any YAML reader built on
//! saphyr-parser stands on). Nothing else. Like `sources`, it allocates with mimalloc, so both
//! sides of the comparison have the same allocator.
//!
//! Usage: `saphyr_load [--events] FILE` prints the number of documents loaded (or of events).

use std::process::ExitCode;

use saphyr::{LoadableYamlNode, MarkedYaml};

/// The allocator of the `sources` binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut args: Vec<_> = std::env::args_os().skip(1).collect();
    let events_only = args.first().is_some_and(|arg| arg == "--events");
    if events_only {
        args.remove(0);
    }
    let [path] = args.as_slice() else {
        eprintln!("usage: saphyr_load [--events] FILE");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("{}: {error}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
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
