//! `sources list`: one line per entry — name, kind, cadence, upstream entries, and the parameters
//! it needs or takes. Reads the model only; nothing is fetched.

use sources_config::accepted::accepted_params;
use sources_config::cadence::{cadence, upstream};
use sources_config::{Config, Growing, Source};

/// One entry as `list` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The entry's name.
    pub name: String,
    /// Its kind (`http`, `filter`, …; `?` when unknown).
    pub kind: &'static str,
    /// Its cadence (`one-shot`, `polled (refresh: 5s)`, `streamed`, `streamed (follow)`).
    pub cadence: String,
    /// Its `window`, if any: `window` or `anchored window`, and whether it grows.
    pub window: Option<String>,
    /// The entries it reads from.
    pub upstream: Vec<String>,
    /// The required parameters without a default: `try` needs `--param NAME=…` for each.
    pub needs: Vec<String>,
    /// The parameters with a default, as `NAME=DEFAULT`.
    pub defaults: Vec<String>,
}

fn window_label(source: &Source) -> Option<String> {
    let window = &source.body.window()?.value;
    let mut label = if window.is_anchored() {
        "anchored window".to_owned()
    } else {
        "window".to_owned()
    };
    match window.growing.as_ref().map(|growing| &growing.value) {
        Some(Growing::Flag(true)) => label.push_str(", growing"),
        Some(Growing::While(condition)) => match (&condition.source, &condition.condition) {
            (Some(source), Some(expression)) => label.push_str(&format!(
                ", growing while {} on {}",
                expression.value.text, source.value
            )),
            _ => label.push_str(", growing"),
        },
        _ => {}
    }
    Some(label)
}

/// The entries in source order; names starting with `_` only when `all`. The defaults of secret
/// parameters (`mask: true`, credential-like names) are shown redacted.
pub fn list(config: &Config, all: bool) -> Vec<Listing> {
    let secret: Vec<String> = sources_config::secret::secret_params(config)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    config
        .entries
        .iter()
        .filter(|source| all || !source.name.value.starts_with('_'))
        .map(|source| Listing {
            name: source.name.value.to_string(),
            kind: source.kind_name(),
            cadence: cadence(config, source).to_string(),
            window: window_label(source),
            upstream: upstream(source),
            needs: accepted_params(config, source)
                .into_iter()
                .filter(|decl| decl.must_be_given())
                .map(|decl| decl.name)
                .collect(),
            defaults: accepted_params(config, source)
                .into_iter()
                .filter_map(|decl| {
                    let default = decl.default?;
                    let shown = if secret.contains(&decl.name) {
                        sources_config::secret::REDACTED
                    } else {
                        default.as_str()
                    };
                    Some(format!("{}={shown}", decl.name))
                })
                .collect(),
        })
        .collect()
}

/// The listing as aligned text, one line per entry.
pub fn render(listings: &[Listing]) -> String {
    let name_width = listings
        .iter()
        .map(|l| l.name.chars().count())
        .max()
        .unwrap_or(0);
    let kind_width = listings.iter().map(|l| l.kind.len()).max().unwrap_or(0);
    let cadence_width = listings.iter().map(|l| l.cadence.len()).max().unwrap_or(0);
    let mut out = String::new();
    for listing in listings {
        let mut notes = Vec::new();
        if let Some(window) = &listing.window {
            notes.push(window.clone());
        }
        if !listing.upstream.is_empty() {
            notes.push(format!("← {}", listing.upstream.join(", ")));
        }
        if !listing.needs.is_empty() {
            let params: Vec<String> = listing
                .needs
                .iter()
                .map(|name| format!("--param {name}=…"))
                .collect();
            notes.push(format!("needs {}", params.join(" ")));
        }
        if !listing.defaults.is_empty() {
            notes.push(format!("params {}", listing.defaults.join(" ")));
        }
        let line = format!(
            "{:name_width$}  {:kind_width$}  {:cadence_width$}  {}",
            listing.name,
            listing.kind,
            listing.cadence,
            notes.join("  ")
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        let parse = sources_syntax::parse(text, sources_syntax::Syntax::Yaml);
        let root = parse.root.expect("parses");
        sources_config::decode(root).0
    }

    const CONFIG: &str = r#"
data:
  sources:
    apps:
      type: http
      url: http://127.0.0.1:8099/apps
      refresh: 5s
    log:
      type: http
      url: http://127.0.0.1:8099/jobs/${params.job}/log
      format: text
      follow: true
      parameters:
        job: {required: true}
    ticks:
      type: websocket
      url: ws://127.0.0.1:9000/ticks
    _raw:
      type: static
      data: [1, 2]
    degraded:
      type: filter
      from: apps
      where: health == 'Degraded'
    both:
      type: union
      sources: [log, ticks]
    page:
      type: compose
      parts: {a: apps, r: _raw}
"#;

    #[test]
    fn cadence_upstream_and_params_per_entry() {
        let listings = list(&config(CONFIG), false);
        let names: Vec<&str> = listings.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["apps", "log", "ticks", "degraded", "both", "page"]);
        let text = render(&listings);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "apps      http       polled (refresh: 5s)");
        assert_eq!(
            lines[1],
            "log       http       streamed (follow)     needs --param job=…"
        );
        assert_eq!(lines[2], "ticks     websocket  streamed");
        assert_eq!(
            lines[3],
            "degraded  filter     polled (refresh: 5s)  ← apps"
        );
        assert_eq!(
            lines[4],
            "both      union      streamed              ← log, ticks  needs --param job=…"
        );
        assert_eq!(
            lines[5],
            "page      compose    polled (refresh: 5s)  ← apps, _raw"
        );
    }

    #[test]
    fn a_growing_window_says_what_it_grows_on() {
        let yaml = r#"
data:
  sources:
    events:
      type: http
      url: http://x/events
      window:
        cursor: counter
        older: {before: "${window.cursor}", q: "${window.search}"}
        newer: {after: "${window.cursor}", q: "${window.search}"}
        growing: {source: job, while: "status == 'running'"}
    job:
      type: http
      url: http://x/job
      refresh: 2s
"#;
        let text = render(&list(&config(yaml), false));
        assert_eq!(
            text.lines().next(),
            Some(
                "events  http  one-shot              anchored window, growing while status == 'running' on job"
            )
        );
    }

    #[test]
    fn underscore_entries_only_with_all() {
        let listings = list(&config(CONFIG), true);
        let raw = listings
            .iter()
            .find(|l| l.name == "_raw")
            .expect("listed with -a");
        assert_eq!((raw.kind, raw.cadence.as_str()), ("static", "one-shot"));
    }
}
