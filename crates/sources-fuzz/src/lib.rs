//! A fuzz harness that runs on stable Rust: configurations from `testdata/` mutated byte by byte and
//! by structure (keys, values, kinds, templates, CEL, durations, anchors and aliases, multibyte
//! text), each checked against the properties every front end relies on.
//!
//! Every input is a pure function of the run's seed and its index, so a failure is reproduced with
//! `--seed S --show INDEX`. The properties: no panic; every input terminates; every span is in range
//! and on a character boundary; the JSON output parses and carries every diagnostic; `--fix` never
//! raises the error count, never breaks a file that parsed, and settles (a second run changes
//! nothing); the language server (the real `sources lsp` process) publishes what `lint` reports.
//!
//! With `--grammar`, whole configurations are generated from the format's JSON Schema instead
//! (`grammar`, with values from the adversarial `dictionary`), and each is also checked against
//! the agreement of lint and `try` (`agreement`): lint reports no error, so `try` runs it past every
//! check it makes before I/O.

pub mod agreement;
pub mod corpus;
pub mod dictionary;
pub mod emit;
pub mod grammar;
pub mod lsp;
pub mod mutate;
pub mod properties;
pub mod references;
