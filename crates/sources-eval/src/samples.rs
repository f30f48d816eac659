//! Writing sample files: what `sources try NAME --record` (and the editor's "▶ try" lens, on
//! request) recorded of an entry, beside the configuration in `.sources/samples/`. Reading them
//! back for the analysis is `sources_inputs::samples`.
//!
//! A sample is capped (the first [`MAX_ROWS`] items of every list), carries the time, the request
//! as written (templates, not rendered values) and the parameters it was recorded with, credential
//! values redacted.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use sources_config::Config;
use sources_config::model::{Body, Source};

use sources_inputs::samples::{VERSION, dir};

use sources_config::secret::{REDACTED, is_credential, secret_params};

/// The most items of any list a sample keeps.
pub const MAX_ROWS: usize = 50;

/// One recording of one entry.
#[derive(Debug)]
pub struct Recording<'a> {
    /// The entry.
    pub source: &'a Source,
    /// `sources_check::shapes::fingerprint` of the entry as written now.
    pub fingerprint: u64,
    /// The parameter values it was fetched with (credential-named and masked ones are redacted).
    pub params: &'a BTreeMap<String, String>,
    /// Names whose values are secret besides credential-like names (`mask: true`).
    pub secret_names: &'a [String],
    /// When (RFC 3339).
    pub recorded: &'a str,
    /// What the entry gave (a streamed entry's events as a list).
    pub value: &'a Value,
}

/// The file a recording of `entry` with `params` goes to: `NAME.json`, or `NAME@k=v,….json` for
/// one parameter set (redacted values and unsafe characters replaced, long names cut).
pub fn file_name(
    entry: &str,
    params: &BTreeMap<String, String>,
    secret_names: &[String],
) -> String {
    let safe = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let mut name = safe(entry);
    if !params.is_empty() {
        let set: Vec<String> = params
            .iter()
            .map(|(key, value)| {
                let value = if is_secret(key, secret_names) {
                    REDACTED
                } else {
                    value
                };
                format!("{}={}", safe(key), safe(value))
            })
            .collect();
        name.push('@');
        name.push_str(&set.join(","));
    }
    let mut cut: String = name.chars().take(120).collect();
    cut.push_str(".json");
    cut
}

/// Writes a recording beside the configuration (through [`crate::files`]: whole, and never
/// through a link out of the configuration's directory); returns the file written.
pub fn write(config_path: &Path, recording: &Recording<'_>) -> io::Result<PathBuf> {
    let dir = dir(config_path);
    let name = recording.source.name.value.as_str();
    let path = dir.join(file_name(name, recording.params, recording.secret_names));
    let params: Map<String, Value> = recording
        .params
        .iter()
        .map(|(key, value)| {
            let value = if is_secret(key, recording.secret_names) {
                REDACTED
            } else {
                value
            };
            (key.clone(), Value::String(value.to_owned()))
        })
        .collect();
    let total = match recording.value {
        Value::Array(items) => Some(items.len()),
        _ => None,
    };
    let document = json!({
        "version": VERSION,
        "entry": name,
        "recorded": recording.recorded,
        "fingerprint": format!("{:016x}", recording.fingerprint),
        "request": request(recording.source),
        "params": params,
        "rows": total,
        "value": capped(recording.value, 0),
    });
    let text = serde_json::to_string_pretty(&document).map_err(io::Error::other)?;
    let root = match config_path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    crate::files::write(&path, (text + "\n").as_bytes(), Some(root)).map_err(io::Error::other)?;
    Ok(path)
}

/// Records what the entry `source` of `config` (read from `text` at `config_path`) gave with
/// `params`, now, as a sample beside the configuration: the one recording `sources try
/// --record` and the editor's "▶ try" (asked to record) make. Returns the file written.
pub fn record(
    config_path: &Path,
    text: &str,
    config: &Config,
    source: &Source,
    params: &BTreeMap<String, String>,
    value: &Value,
) -> io::Result<PathBuf> {
    let secret_names: Vec<String> = secret_params(config)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let recorded = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    write(
        config_path,
        &Recording {
            source,
            fingerprint: sources_check::shapes::fingerprint(text, source),
            params,
            secret_names: &secret_names,
            recorded: &recorded,
            value,
        },
    )
}

fn is_secret(name: &str, secret_names: &[String]) -> bool {
    is_credential(name) || secret_names.iter().any(|secret| secret == name)
}

/// Every list cut to its first [`MAX_ROWS`] items, at every depth.
fn capped(value: &Value, depth: usize) -> Value {
    if depth > sources_check::shape::MAX_DEPTH {
        return Value::Null;
    }
    match value {
        Value::Array(items) => Value::Array(
            items
                .iter()
                .take(MAX_ROWS)
                .map(|item| capped(item, depth + 1))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), capped(value, depth + 1)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The request as written: kind, method and URL template, command, path; credential values in a
/// URL redacted.
fn request(source: &Source) -> Value {
    match &source.body {
        Body::Http(http) => json!({
            "kind": "http",
            "method": http.method.as_ref().map_or("GET", |method| method.value.as_str()),
            "url": http.url.as_ref().map(|url| crate::trace::url(url.value.as_str())),
        }),
        Body::Exec(exec) => json!({
            "kind": "exec",
            "command": exec.command.as_ref().map(|command| {
                command.value.iter().map(|arg| arg.value.as_str().to_owned()).collect::<Vec<_>>()
            }),
        }),
        Body::File(file) => json!({
            "kind": "file",
            "path": file.path.as_ref().map(|path| path.value.as_str()),
        }),
        Body::Websocket(socket) => json!({
            "kind": "websocket",
            "url": socket.url.as_ref().map(|url| crate::trace::url(url.value.as_str())),
        }),
        _ => json!({ "kind": source.kind_name() }),
    }
}

#[cfg(test)]
mod tests {
    use sources_inputs::samples::{examples, read};

    use super::*;

    fn config(text: &str) -> sources_config::Config {
        sources_check::analyze(text, sources_syntax::Syntax::Yaml).config
    }

    #[test]
    fn a_recording_is_capped_redacted_and_read_back_as_a_shape() {
        let text = "data:\n  sources:\n    apps:\n      type: http\n      url: https://api.example.com/apps?api_key=k1\n      parameters:\n        token: {default: x}\n        region: {default: eu}\n";
        let config = config(text);
        let source = config.get("apps").expect("entry");
        let dir = tempfile::tempdir().expect("temp dir");
        let config_path = dir.path().join("sources.yaml");
        let rows: Vec<Value> = (0..120).map(|i| json!({"id": i, "name": "web"})).collect();
        let value = Value::Array(rows);
        let params = BTreeMap::from([
            ("token".to_owned(), "s3cret".to_owned()),
            ("region".to_owned(), "eu west".to_owned()),
        ]);
        let fingerprint = sources_check::shapes::fingerprint(text, source);
        let written = write(
            &config_path,
            &Recording {
                source,
                fingerprint,
                params: &params,
                secret_names: &[],
                recorded: "2026-11-26T07:00:00Z",
                value: &value,
            },
        )
        .expect("written");
        assert_eq!(
            written.file_name().and_then(|name| name.to_str()),
            Some("apps@region=eu_west,token=_redacted_.json")
        );
        let saved = std::fs::read_to_string(&written).expect("read");
        assert!(
            !saved.contains("s3cret") && !saved.contains("k1"),
            "{saved}"
        );
        let document: Value = serde_json::from_str(&saved).expect("json");
        assert_eq!(document["value"].as_array().map(Vec::len), Some(MAX_ROWS));
        assert_eq!(document["rows"], json!(120));
        let inputs = read(&config_path);
        let sample = &inputs.samples["apps"];
        assert_eq!(sample.fingerprint, fingerprint);
        assert_eq!(sample.shape.render(2), "[{id: number, name: string}]");
        assert_eq!(sample.recorded, "2026-11-26T07:00:00Z");
        let example = &examples(&config_path)["apps"];
        assert_eq!(
            (example.fingerprint, example.row.clone()),
            (fingerprint, json!({"id": 0, "name": "web"})),
            "the first row recorded"
        );
    }
}
