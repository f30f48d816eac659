//! Which values of a configuration are secret, read from the model alone: the parameters declared
//! `mask: true` or named like a credential, and the header or query names that carry one. Every
//! front end (`try`'s redaction, recorded samples, `sources list`, the editor's "▶ try") asks here.

use crate::Config;

/// What a redacted value is shown as.
pub const REDACTED: &str = "[redacted]";

/// Whether a header or query parameter name looks like it carries a credential.
pub fn is_credential(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    const EXACT: &[&str] = &[
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
    ];
    const PARTS: &[&str] = &[
        "token",
        "key",
        "secret",
        "password",
        "passwd",
        "auth",
        "session",
        "signature",
        "credential",
    ];
    EXACT.contains(&name.as_str()) || PARTS.iter().any(|part| name.contains(part))
}

/// The parameters whose values are secret, with their defaults: declared `mask: true` or named
/// like a credential (token, password, secret, key, auth…) in any entry.
pub fn secret_params(config: &Config) -> Vec<(String, Option<String>)> {
    let mut found = Vec::new();
    for source in &config.entries {
        let Some(parameters) = source
            .body
            .common()
            .and_then(|common| common.parameters.as_ref())
        else {
            continue;
        };
        for param in parameters.value.iter() {
            let declaration = &param.value.value;
            let masked = declaration.mask.as_ref().is_some_and(|mask| mask.value);
            if masked || is_credential(&param.name.value) {
                let default = declaration
                    .default
                    .as_ref()
                    .map(|default| default.value.clone());
                found.push((param.name.value.clone(), default));
            }
        }
    }
    found
}
