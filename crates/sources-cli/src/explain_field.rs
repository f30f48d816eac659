//! `sources explain KIND` and `sources explain KIND.FIELD.PATH`: the documentation of an entry kind
//! (with its field table, as in `docs/reference.md`) or of one field (`http.paginate.next_path`), from the field catalog of
//! `sources-config` — the same doc comments that make the JSON Schema and the editor's hovers.

use std::fmt::Write as _;

use sources_config::fields::{self, Section};
use sources_config::reference;
use sources_config::{Enumeration, Kind};
use sources_diagnostics::did_you_mean;

/// The text `sources explain` prints for `path` (a kind, or a kind and a dotted field path), or
/// `None` when `path` names no kind or field.
pub fn explain(path: &str) -> Option<String> {
    let mut parts = path.trim().split('.');
    let kind = Kind::from_name(parts.next()?)?;
    let rest: Vec<&str> = parts.collect();
    if rest.is_empty() {
        let mut text = format!(
            "{} (entry kind)\n\n{}\n\n",
            kind.as_str(),
            fields::kind_summary(kind)
        );
        text.push_str(&reference::table(fields::for_kind(kind)));
        return Some(text);
    }
    let info = fields::lookup(kind, &rest).or_else(|| {
        // `http.parameters.default`: a parameter's (or lookup's, child's) name left out.
        let (first, deeper) = rest.split_first()?;
        let mut named = vec![*first, "_"];
        named.extend_from_slice(deeper);
        fields::lookup(kind, &named)
    })?;
    let mut text = format!("{}.{} (field)\n\n", kind.as_str(), rest.join("."));
    let _ = writeln!(
        text,
        "required: {}\ndefault: {}\n",
        if info.required { "yes" } else { "no" },
        info.default.as_deref().unwrap_or("none")
    );
    let _ = writeln!(text, "{}", info.doc);
    let last = rest.last().copied().unwrap_or_default();
    let section = Section::ALL
        .iter()
        .find(|section| section.key() == last && (kind.is_leaf() || **section != Section::Cache));
    if let Some(section) = section {
        text.push('\n');
        text.push_str(&reference::table(fields::for_section(*section)));
    }
    Some(text)
}

/// Why `path` (which contains a `.`) names no field, with a did-you-mean for its first unknown
/// part among the names valid at that depth (`http.paginate.stratgy` → `http.paginate.strategy`).
pub fn unknown_message(path: &str) -> String {
    let mut parts = path.trim().split('.');
    let first = parts.next().unwrap_or_default();
    let Some(kind) = Kind::from_name(first) else {
        return format!("`{first}` is not an entry kind{}", kind_hint(first));
    };
    let rest: Vec<&str> = parts.collect();
    let known = (1..=rest.len())
        .take_while(|end| fields::lookup(kind, &rest[..*end]).is_some())
        .last()
        .unwrap_or(0);
    let prefix = rest[..known].to_vec();
    let name = rest.get(known).copied().unwrap_or_default();
    let candidates = names_under(kind, &prefix);
    let shown = |name: &str| {
        let mut path = vec![kind.as_str()];
        path.extend_from_slice(&prefix);
        path.push(name);
        path.join(".")
    };
    let hint = match did_you_mean(name, candidates.iter().copied()).first() {
        Some(best) => format!("; did you mean `{}`?", shown(best)),
        None if prefix.is_empty() => {
            format!("; `sources explain {}` lists its fields", kind.as_str())
        }
        None => format!(
            "; `sources explain {}.{}` lists its fields",
            kind.as_str(),
            prefix.join(".")
        ),
    };
    format!(
        "no field `{}` in a `{}` entry{hint}",
        rest.join("."),
        kind.as_str()
    )
}

/// `; did you mean `KIND`?` for a name close to an entry kind, else the list of kinds.
pub fn kind_hint(name: &str) -> String {
    match did_you_mean(name, Kind::names()).first() {
        Some(best) => format!("; did you mean `{best}`?"),
        None => format!(" (kinds: {})", Kind::names().join(", ")),
    }
}

/// The field names a `kind` entry has right under the field path `prefix` (its own fields when
/// `prefix` is empty).
fn names_under(kind: Kind, prefix: &[&str]) -> Vec<&'static str> {
    let every = fields::for_kind(kind).iter().chain(
        Section::ALL
            .iter()
            .flat_map(|section| fields::for_section(*section)),
    );
    let mut names: Vec<&'static str> = every
        .map(|info| info.name.as_str())
        .filter(|name| {
            let mut path = prefix.to_vec();
            path.push(name);
            fields::lookup(kind, &path).is_some()
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_prints_its_summary_and_field_table() {
        let text = explain("http").expect("http");
        assert!(text.starts_with("http (entry kind)\n\n"), "{text}");
        assert!(text.contains("| `url` | string | yes |"), "{text}");
        assert!(text.contains("| `paginate` |"), "{text}");
    }

    #[test]
    fn a_field_path_prints_that_field_and_a_section_its_fields() {
        let text = explain("http.paginate.next_path").expect("next_path");
        assert!(
            text.starts_with("http.paginate.next_path (field)\n\nrequired: "),
            "{text}"
        );
        let section = explain("http.window").expect("window");
        assert!(section.contains("| `page_size` |"), "{section}");
        let parameter = explain("exec.parameters.default").expect("a parameter's default");
        assert!(
            parameter.starts_with("exec.parameters.default (field)"),
            "{parameter}"
        );
    }

    #[test]
    fn unknown_kinds_and_fields_are_none() {
        assert_eq!(explain("htp"), None);
        assert_eq!(explain("http.nope"), None);
        assert_eq!(explain("static.paginate"), None);
        assert_eq!(
            unknown_message("http.pagnate"),
            "no field `pagnate` in a `http` entry; did you mean `http.paginate`?"
        );
        assert_eq!(
            unknown_message("htp.url"),
            "`htp` is not an entry kind; did you mean `http`?"
        );
        assert_eq!(
            unknown_message("http.paginate.stratgy"),
            "no field `paginate.stratgy` in a `http` entry; did you mean `http.paginate.strategy`?"
        );
        assert_eq!(
            unknown_message("exec.window.growing.whle"),
            "no field `window.growing.whle` in a `exec` entry; did you mean `exec.window.growing.while`?"
        );
        assert_eq!(
            unknown_message("http.paginate.zzz"),
            "no field `paginate.zzz` in a `http` entry; `sources explain http.paginate` lists its fields"
        );
    }
}
