//! The baseline `scripts/bench-lint-vs-parse` compares `sources lint` against: read one YAML file
//! and load it with saphyr's span-keeping loader (`MarkedYaml`), nothing else.
//!
//! Usage: `saphyr_load FILE` prints the number of documents loaded.

use saphyr::{LoadableYamlNode, MarkedYaml};

fn main() -> std::process::ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: saphyr_load FILE");
        return std::process::ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("{}: {error}", path.to_string_lossy());
            return std::process::ExitCode::from(2);
        }
    };
    match MarkedYaml::load_from_str(&text) {
        Ok(documents) => {
            println!("{} document(s)", documents.len());
            std::process::ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{}: {error}", path.to_string_lossy());
            std::process::ExitCode::FAILURE
        }
    }
}
