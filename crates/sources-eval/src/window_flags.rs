//! What `sources try --search`, `--sort` and `--filter` ask of an entry's window, checked against
//! that window before any request: the filter box's terms and the sort the dashboard would send,
//! or why the window cannot take them.

use sources_config::{Body, Enumeration, Field, NamedMap, Source, Window};
use sources_diagnostics::did_you_mean;

use crate::window::{Term, parse_terms};

/// The window flags as given on the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WindowFlags {
    /// `--search TEXT`: what the user types into the table's filter box (bare words, and
    /// `title:value` terms scoped to a column).
    pub search: Option<String>,
    /// `--sort COLUMN` (ascending) or `--sort -COLUMN` (descending).
    pub sort: Option<String>,
    /// `--filter COLUMN=VALUE`, repeatable: a scoped term on a column the window maps.
    pub filters: Vec<String>,
}

impl WindowFlags {
    /// Whether no window flag was given.
    pub fn is_empty(&self) -> bool {
        self.search.is_none() && self.sort.is_none() && self.filters.is_empty()
    }
}

/// The user's part of a window's first request: the terms and the sort (the offset and the limit
/// are the window's own).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WindowAsk {
    /// The filter-box terms, `--search`'s then `--filter`'s.
    pub terms: Vec<Term>,
    /// The sort column title and whether it is descending.
    pub sort: Option<(String, bool)>,
}

/// What `flags` ask of the window of `source` (whose bound table has the column titles
/// `columns`), or why it cannot take them, in a sentence naming the flag, the entry and what the
/// window does map. `None` when no flag is given.
pub fn window_ask(
    source: &Source,
    flags: &WindowFlags,
    columns: &[String],
) -> Result<Option<WindowAsk>, String> {
    if flags.is_empty() {
        return Ok(None);
    }
    let name = source.name.value.as_str();
    let flag = if flags.search.is_some() {
        "--search"
    } else if flags.sort.is_some() {
        "--sort"
    } else {
        "--filter"
    };
    let Some(window) = source.body.window().map(|window| &window.value) else {
        let kind = source
            .kind
            .as_ref()
            .map_or("entry", |kind| kind.value.as_str());
        return Err(format!(
            "`{flag}` fills a window's request, and the `{kind}` entry `{name}` has no `window`: \
             it is fetched whole, as the dashboard fetches it"
        ));
    };
    let http = matches!(source.body, Body::Http(_));
    let mapped = names(window.filters.as_ref());
    let mut ask = WindowAsk::default();
    if let Some(search) = &flags.search {
        if http && !window.is_anchored() && window.search_param.is_none() {
            return Err(format!(
                "`--search`: the window of `{name}` has no `search_param`, so the dashboard sends \
                 no search text{}",
                match mapped.is_empty() {
                    true => String::new(),
                    false => format!(
                        "; `--filter COLUMN=VALUE` filters its mapped columns ({})",
                        quoted(&mapped)
                    ),
                }
            ));
        }
        ask.terms = parse_terms(search);
    }
    for filter in &flags.filters {
        let Some((column, value)) = filter
            .split_once('=')
            .filter(|(column, value)| !column.trim().is_empty() && !value.is_empty())
        else {
            return Err(format!(
                "`--filter {filter}`: write COLUMN=VALUE, a column title the window maps in \
                 `filters` and the value to filter it by"
            ));
        };
        let column = column.trim();
        let Some(title) = mapped
            .iter()
            .find(|title| title.eq_ignore_ascii_case(column))
        else {
            return Err(unmapped(name, filter, column, &mapped));
        };
        ask.terms.push(Term::Scoped {
            column: title.clone(),
            value: value.to_owned(),
        });
    }
    if let Some(sort) = &flags.sort {
        ask.sort = Some(sort_column(name, window, http, sort, columns)?);
    }
    Ok(Some(ask))
}

/// The column and direction of `--sort COLUMN|-COLUMN`, or why the window cannot sort by it.
fn sort_column(
    name: &str,
    window: &Window,
    http: bool,
    sort: &str,
    columns: &[String],
) -> Result<(String, bool), String> {
    if window.is_anchored() {
        return Err(format!(
            "`--sort`: the window of `{name}` is anchored (`cursor`): it is read in the order of \
             its walk, with no user sort"
        ));
    }
    if http && window.sort_param.is_none() {
        return Err(format!(
            "`--sort`: the window of `{name}` has no `sort_param`, so the dashboard cannot ask \
             the server to sort it"
        ));
    }
    let (descending, column) = match sort.strip_prefix('-') {
        Some(column) => (true, column.trim()),
        None => (false, sort.trim()),
    };
    if column.is_empty() {
        return Err(format!(
            "`--sort {sort}`: write a column title, with `-` before it for a descending sort"
        ));
    }
    // Any column of the bound table sorts (an unlisted one sends its title); without a table,
    // the columns `sorts` lists. With neither, the title is sent as it is.
    let mut known = names(window.sorts.as_ref());
    for title in columns {
        if !known.iter().any(|known| known.eq_ignore_ascii_case(title)) {
            known.push(title.clone());
        }
    }
    if known.is_empty() {
        return Ok((column.to_owned(), descending));
    }
    match known
        .iter()
        .find(|title| title.eq_ignore_ascii_case(column))
    {
        Some(title) => Ok((title.clone(), descending)),
        None => {
            let hint = match did_you_mean(column, known.iter().map(String::as_str)).first() {
                Some(best) => format!("; did you mean `{best}`?"),
                None => String::new(),
            };
            Err(format!(
                "`--sort {sort}`: `{name}` has no column `{column}` to sort by (its table and \
                 `sorts` name {}){hint}",
                quoted(&known)
            ))
        }
    }
}

/// Why `--filter` names a column the window does not map.
fn unmapped(name: &str, filter: &str, column: &str, mapped: &[String]) -> String {
    if mapped.is_empty() {
        return format!(
            "`--filter {filter}`: the window of `{name}` maps no column in `filters`, so a \
             scoped term goes to its search text: use `--search '{column}:…'`"
        );
    }
    let hint = match did_you_mean(column, mapped.iter().map(String::as_str)).first() {
        Some(best) => format!("; did you mean `{best}`?"),
        None => String::new(),
    };
    format!(
        "`--filter {filter}`: the window of `{name}` maps no column `{column}` in `filters` \
         (it maps {}){hint}",
        quoted(mapped)
    )
}

/// The names of a map field, in the order written.
fn names(map: Option<&Field<NamedMap<String>>>) -> Vec<String> {
    map.map(|map| {
        map.value
            .iter()
            .map(|item| item.name.value.clone())
            .collect()
    })
    .unwrap_or_default()
}

fn quoted(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    quoted.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use sources_syntax::Syntax;

    const CONFIG: &str = "data:\n  sources:\n    apps:\n      type: http\n      url: http://x/apps\n      window:\n        offset_param: offset\n        limit_param: limit\n        search_param: q\n        filters: {Region: region, Health: health}\n        sort_param: sort\n        sorts: {Name: name}\n    log:\n      type: http\n      url: http://x/log\n      window:\n        cursor: id\n        filters: {Host: host}\n        older: {before: \"${window.cursor}\", q: \"${window.search}\"}\n        newer: {after: \"${window.cursor}\", q: \"${window.search}\"}\n    bare:\n      type: http\n      url: http://x/bare\n      window: {offset_param: o, limit_param: l, filters: {Region: r}}\n    plain: {type: static, data: []}\n    ops: {type: passthrough, from: plain}\n";

    fn ask(entry: &str, flags: WindowFlags, columns: &[&str]) -> Result<Option<WindowAsk>, String> {
        let analysis = sources_check::analyze(CONFIG, Syntax::Yaml);
        let source = analysis.config.get(entry).expect("the entry");
        let columns: Vec<String> = columns.iter().map(|title| (*title).to_owned()).collect();
        window_ask(source, &flags, &columns)
    }

    fn flags(search: Option<&str>, sort: Option<&str>, filters: &[&str]) -> WindowFlags {
        WindowFlags {
            search: search.map(str::to_owned),
            sort: sort.map(str::to_owned),
            filters: filters.iter().map(|filter| (*filter).to_owned()).collect(),
        }
    }

    #[test]
    fn the_configuration_is_clean() {
        let analysis = sources_check::analyze(CONFIG, Syntax::Yaml);
        assert_eq!(analysis.diagnostics, Vec::new());
    }

    #[test]
    fn flags_become_the_terms_and_sort_the_dashboard_sends() {
        assert_eq!(ask("apps", WindowFlags::default(), &[]), Ok(None));
        let asked = ask(
            "apps",
            flags(Some("web region:eu"), Some("-name"), &["health=Degraded"]),
            &[],
        );
        assert_eq!(
            asked,
            Ok(Some(WindowAsk {
                terms: vec![
                    Term::Bare("web".into()),
                    Term::Scoped {
                        column: "region".into(),
                        value: "eu".into()
                    },
                    Term::Scoped {
                        column: "Health".into(),
                        value: "Degraded".into()
                    },
                ],
                sort: Some(("Name".into(), true)),
            }))
        );
        // A column of the bound table sorts too (its title is sent).
        let asked = ask("apps", flags(None, Some("Rev"), &[]), &["Name", "Rev"]);
        assert_eq!(
            asked.map(|ask| ask.and_then(|ask| ask.sort)),
            Ok(Some(("Rev".into(), false)))
        );
        // An anchored window takes search text and mapped filters into its tokens.
        let asked = ask("log", flags(Some("boom"), None, &["Host=web-1"]), &[]);
        assert_eq!(asked.map(|ask| ask.map(|ask| ask.terms.len())), Ok(Some(2)));
    }

    #[test]
    fn what_the_window_cannot_take_is_refused_naming_what_it_maps() {
        let refused =
            |entry: &str, flags: WindowFlags| ask(entry, flags, &[]).expect_err("refused");
        assert_eq!(
            refused("plain", flags(Some("x"), None, &[])),
            "`--search` fills a window's request, and the `static` entry `plain` has no \
             `window`: it is fetched whole, as the dashboard fetches it"
        );
        assert_eq!(
            refused("ops", flags(None, None, &["a=b"])),
            "`--filter` fills a window's request, and the `passthrough` entry `ops` has no \
             `window`: it is fetched whole, as the dashboard fetches it"
        );
        assert_eq!(
            refused("apps", flags(None, None, &["Regoin=eu"])),
            "`--filter Regoin=eu`: the window of `apps` maps no column `Regoin` in `filters` \
             (it maps `Region`, `Health`); did you mean `Region`?"
        );
        assert_eq!(
            refused("apps", flags(None, None, &["Region"])),
            "`--filter Region`: write COLUMN=VALUE, a column title the window maps in `filters` \
             and the value to filter it by"
        );
        assert_eq!(
            refused("apps", flags(None, Some("-Nmae"), &[])),
            "`--sort -Nmae`: `apps` has no column `Nmae` to sort by (its table and `sorts` name \
             `Name`); did you mean `Name`?"
        );
        assert_eq!(
            refused("bare", flags(Some("x"), None, &[])),
            "`--search`: the window of `bare` has no `search_param`, so the dashboard sends no \
             search text; `--filter COLUMN=VALUE` filters its mapped columns (`Region`)"
        );
        assert_eq!(
            refused("bare", flags(None, Some("Region"), &[])),
            "`--sort`: the window of `bare` has no `sort_param`, so the dashboard cannot ask the \
             server to sort it"
        );
        assert_eq!(
            refused("log", flags(None, Some("Host"), &[])),
            "`--sort`: the window of `log` is anchored (`cursor`): it is read in the order of its \
             walk, with no user sort"
        );
    }
}
