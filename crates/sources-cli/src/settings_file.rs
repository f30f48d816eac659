//! Presenting `sources-lint.toml`: `--show-settings` and the file's JSON Schema. Finding, reading
//! and validating it is `sources_check::settings_file`; applying its levels,
//! `sources_check::settings`.

use std::io;
use std::path::Path;

use sources_check::settings::Settings;
use sources_check::settings_file::Found;

/// Writes the settings in force (`found`, or none) for a file: every rule's level and where it
/// came from (`default`, or the settings file and line), the expression language, then the
/// `[files]` globs.
pub fn show(found: Option<&Found>, out: &mut dyn io::Write) -> io::Result<()> {
    match found {
        Some(found) => writeln!(out, "settings file: {}", shown(&found.path))?,
        None => writeln!(out, "settings file: none (every rule at its default level)")?,
    }
    let shown = found.map(|found| shown(&found.path));
    let default = Settings::default();
    let settings = found.map_or(&default, |found| &found.settings);
    for rule in sources_diagnostics::Rule::ALL {
        let (level, line) = settings.level(*rule);
        let from = match (&shown, line) {
            (Some(shown), Some(line)) => format!("{shown}:{line}"),
            _ => "default".to_owned(),
        };
        writeln!(out, "{:<32} {:<8} {from}", rule.code(), level.as_str())?;
    }
    let from = match (&shown, settings.language_line) {
        (Some(shown), Some(line)) => format!("{shown}:{line}"),
        _ => "default".to_owned(),
    };
    writeln!(
        out,
        "{:<32} {:<8} {from}",
        "expressions.language",
        settings.language.name()
    )?;
    for (name, globs) in [
        ("include", &settings.include),
        ("exclude", &settings.exclude),
    ] {
        for glob in globs {
            let from = shown.as_deref().unwrap_or_default();
            writeln!(
                out,
                "files.{name:<26} {:<8} {from}:{}",
                glob.pattern, glob.line
            )?;
        }
    }
    Ok(())
}

/// `path` relative to the current directory when it is under it, `/`-separated.
pub(crate) fn shown(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf));
    relative
        .as_deref()
        .unwrap_or(path)
        .display()
        .to_string()
        .replace('\\', "/")
}

/// The JSON Schema of `sources-lint.toml` (published as `schema/sources-lint.schema.json`), built
/// from the same rule registry, tables and levels the validation uses.
pub fn schema_text() -> String {
    use sources_check::settings::{FILE_KEYS, LEVELS, Language};
    let level = serde_json::json!({ "enum": LEVELS });
    let rules: serde_json::Map<String, serde_json::Value> = sources_diagnostics::Rule::ALL
        .iter()
        .map(|rule| {
            let mut schema = level.clone();
            schema["description"] = rule.summary().into();
            (rule.code().to_owned(), schema)
        })
        .collect();
    let globs = serde_json::json!({ "type": "array", "items": { "type": "string" } });
    let files: serde_json::Map<String, serde_json::Value> = FILE_KEYS
        .iter()
        .map(|key| ((*key).to_owned(), globs.clone()))
        .collect();
    let languages: Vec<&str> = Language::ALL
        .iter()
        .map(|language| language.name())
        .collect();
    let expressions = serde_json::json!({
        "language": {
            "description": "The language of `where`, `keep`, `compute`, `by`, `on` and \
                `growing.while`: `cel` (the default) or `expr` (expr-lang, the dashboard's).",
            "enum": languages,
            "default": Language::default().name(),
        },
    });
    let tables = serde_json::json!({
        "rules": {
            "description": "Each rule's level: error, warning or off.",
            "type": "object",
            "properties": rules,
            "additionalProperties": false,
        },
        "files": {
            "description": "Globs choosing the files a directory walk lints.",
            "type": "object",
            "properties": files,
            "additionalProperties": false,
        },
        "expressions": {
            "description": "How the project's expressions are read.",
            "type": "object",
            "properties": expressions,
            "additionalProperties": false,
        },
    });
    let mut schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "sources-lint.toml",
        "description": "Project settings for `sources lint` and the language server.",
        "type": "object",
        "properties": tables,
        "additionalProperties": false,
    });
    // Keys in name order, however the value was assembled (serde_json keeps insertion order).
    schema.sort_all_objects();
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
