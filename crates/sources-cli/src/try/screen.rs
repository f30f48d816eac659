//! `sources try --screen [NAME]`: a snapshot of a screen as it first appears. Every component the
//! layout places is printed in layout order under a heading, drawn from its entry as `view`
//! draws it. An entry takes `--param` values (given to the entries that take them), and a
//! component with `on_cursor` takes its `bind` filled from the driver's first row (the row its
//! cursor starts on), as the dashboard fills it when the screen opens; with `--demo`, a required
//! parameter still missing gets a value the demo world answers. A streamed entry is read for
//! `--limit` events or `--for` (2s by default), its events the rows. Exit 1 when an entry fails
//! (or, with `--strict`, warns).

#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::ControlFlow;

use serde_json::Value;
use sources_config::accepted::accepted_params;
use sources_config::cursor::{self, CursorRow};
use sources_config::{Component, Config, Screen};
use sources_eval::engine::Output;
use sources_eval::run::{Run, RunError};
use sources_eval::snapshot::{DEFAULT_WINDOW, Follow};

use crate::Outcome;
use crate::outputs::Outputs;
use crate::r#try::failure::Tried;
use crate::r#try::output::TABLE_ROWS;
use crate::r#try::view::{self, Frame, View};
use crate::r#try::{self, Args, Error};

/// Why a placed component shows nothing.
#[derive(Clone, Debug)]
enum Missing {
    /// It waits for a row of its driver, which has none: the dashboard shows it empty too.
    Waits(String),
    /// Its entry could not be fetched: the run fails.
    Failed(String),
}

/// What one placed component showed: the entry's value, or why there is none.
type Shown = Result<Value, Missing>;

/// The screen `wanted` names (`None`: the `initial` screen, else the single or first one).
fn screen<'c>(config: &'c Config, wanted: Option<&str>) -> Result<&'c Screen, String> {
    let screens = &config.dashboard.screens;
    let Some(wanted) = wanted else {
        let initial = config.dashboard.initial.as_ref();
        return initial
            .and_then(|initial| config.dashboard.screen(&initial.value))
            .or(screens.first())
            .ok_or_else(|| "--screen: the file has no `tui.screen` or `tui.screens`".to_owned());
    };
    config.dashboard.screen(wanted).ok_or_else(|| {
        let names: Vec<&str> = screens
            .iter()
            .filter_map(|screen| screen.name.as_ref().map(|name| name.value.as_str()))
            .collect();
        let hint = match sources_diagnostics::did_you_mean(wanted, names.iter().copied()).first() {
            Some(best) => format!("; did you mean `{best}`?"),
            None if names.is_empty() => "; the file has no `tui.screens`".to_owned(),
            None => format!("; the screens are `{}`", names.join("`, `")),
        };
        format!("--screen {wanted}: no screen `{wanted}`{hint}")
    })
}

/// Runs `sources try --screen`.
pub fn run(
    tried: &Tried<'_>,
    args: &Args,
    wanted: Option<&str>,
    text: &str,
    supplied: BTreeMap<String, String>,
    outputs: &mut Outputs,
) -> Result<Outcome, Error> {
    let config = tried.config;
    let screen = screen(config, wanted).map_err(Error::Usage)?;
    let runtime = r#try::runtime()?;
    let (run, trace) = r#try::start_for_many(&runtime, tried, text, supplied, args, outputs)?;
    let mut snapshot = Snapshot {
        tried,
        args,
        run: &run,
        shown: BTreeMap::new(),
    };
    let frame = Frame {
        rows: args.limit.unwrap_or(TABLE_ROWS),
        width: crate::r#try::terminal_width(io_is_terminal()).map(usize::from),
        first_paint: true,
        color: crate::terminal::color(io_is_terminal()),
    };
    let title = screen
        .title
        .as_ref()
        .map(|title| format!(" ({})", title.value.text))
        .unwrap_or_default();
    // Each text is made printable as it is added (`render` makes its own): a pass over the whole
    // would take the colours of `color_rules` out too.
    let mut text = crate::terminal::printable(&format!("{}{title}\n", screen.describe()));
    let mut failed = false;
    let mut warnings = Vec::new();
    for placed in &screen.placed {
        let name = placed.value.as_str();
        let component = config
            .components
            .iter()
            .find(|component| component.name() == Some(name));
        let Some(component) = component else {
            text.push_str(&crate::terminal::printable(&format!(
                "\n── `{name}`: no such component\n"
            )));
            continue;
        };
        let entry = component
            .source
            .as_ref()
            .map(|source| source.value.as_str());
        text.push_str(&crate::terminal::printable(&format!(
            "\n── {}{} ──\n",
            component.describe(),
            entry
                .map(|entry| format!(" · `{entry}`"))
                .unwrap_or_default()
        )));
        if View::of(component).is_none() {
            text.push_str("(`try` does not draw this kind)\n");
            continue;
        }
        if entry.is_none() {
            text.push_str("(static: no entry to fetch)\n");
            continue;
        }
        match runtime.block_on(snapshot.show(component, 0)) {
            Ok(value) => {
                warnings.extend(view::warnings(component, &value));
                text.push_str(&view::render(component, &value, frame));
            }
            Err(Missing::Waits(why)) => {
                text.push_str(&crate::terminal::printable(&format!("({why})\n")))
            }
            Err(Missing::Failed(error)) => {
                failed = true;
                text.push_str(&crate::terminal::printable(&format!("error: {error}\n")));
            }
        }
    }
    let env = |name: &str| run.world().io.env_var(name);
    text.push_str(&crate::terminal::printable(&keys(
        config,
        screen,
        &snapshot.shown,
        &env,
    )));
    warnings.extend(trace.warnings());
    for warning in &warnings {
        outputs.err.line(&format!("sources: warning: {warning}"));
    }
    let out = &mut outputs.out;
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Error::Write)?;
    if failed {
        return Ok(Outcome::Failure);
    }
    if args.strict && !warnings.is_empty() {
        outputs.err.line(&format!(
            "sources: --strict: {} warning(s), so this run fails",
            warnings.len()
        ));
        return Ok(Outcome::Failure);
    }
    Ok(Outcome::Success)
}

/// The screen's bindings, one line each: the key (`(menu)` for one offered in the action menu
/// only), what it does (the screen a push opens, or the action it runs and its kind), and what
/// it reads from its `from` component's first row: each `bind` value and the `confirm` question,
/// filled as the dashboard fills them when the binding fires there.
fn keys(
    config: &Config,
    screen: &Screen,
    shown: &BTreeMap<String, Shown>,
    env: &dyn Fn(&str) -> Option<String>,
) -> String {
    if screen.actions.is_empty() {
        return String::new();
    }
    let dashboard = &config.dashboard;
    let mut text = String::from("\n── keys ──\n");
    for binding in &screen.actions {
        let key = binding
            .key
            .as_ref()
            .map_or("(menu)", |key| key.value.as_str());
        let name = binding
            .action
            .as_ref()
            .or(binding.name.as_ref())
            .map_or("(unnamed)", |name| name.value.as_str());
        let mut line = match dashboard.push_target(binding) {
            Some(target) => format!("{key:<7} {name}: opens screen `{}`", target.value),
            None => match dashboard.binding_kind(binding) {
                Some(kind) => format!("{key:<7} {name}: runs the {kind} action"),
                None => format!("{key:<7} {name}: no such action"),
            },
        };
        if let Some(from) = &binding.from {
            let driver = config
                .components
                .iter()
                .find(|component| component.name() == Some(from.value.as_str()));
            let row = driver.and_then(|driver| match shown.get(&from.value) {
                Some(Ok(value)) => CursorRow::first(driver, value),
                _ => None,
            });
            match row {
                Some(row) => {
                    line.push_str(&format!(" with the first row of `{}`", from.value));
                    let binds: Vec<String> = binding
                        .bind
                        .iter()
                        .filter_map(|bind| {
                            let template = bind.template.as_ref()?;
                            let filled = cursor::fill_selection(&template.value.text, &row, env);
                            Some(format!("{} = {filled}", bind.param.value))
                        })
                        .collect();
                    if !binds.is_empty() {
                        line.push_str(&format!(": {}", binds.join(", ")));
                    }
                    if let Some(confirm) = &binding.confirm {
                        let asked = cursor::fill_selection(&confirm.value.text, &row, env);
                        line.push_str(&format!("; asks \"{asked}\""));
                    }
                }
                None => line.push_str(&format!(
                    " (`{}` has no row: the key does nothing yet)",
                    from.value
                )),
            }
        }
        text.push_str(&line);
        text.push('\n');
    }
    text
}

fn io_is_terminal() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stdout())
}

/// The values fetched so far, by component name.
struct Snapshot<'a> {
    tried: &'a Tried<'a>,
    args: &'a Args,
    run: &'a Run<'a>,
    shown: BTreeMap<String, Shown>,
}

/// How many drivers deep an `on_cursor` chain is followed (a longer one is a cycle).
const MAX_CHAIN: usize = 16;

impl Snapshot<'_> {
    /// The value `component`'s entry gives, its `on_cursor` bound from the driver's first row
    /// (fetched first); fetched once per component.
    async fn show(&mut self, component: &Component, depth: usize) -> Shown {
        let name = component.name().unwrap_or_default().to_owned();
        if let Some(shown) = self.shown.get(&name) {
            return shown.clone();
        }
        let shown = Box::pin(self.fetch(component, depth)).await;
        self.shown.insert(name, shown.clone());
        shown
    }

    async fn fetch(&mut self, component: &Component, depth: usize) -> Shown {
        let config = self.tried.config;
        let Some(source) = config.shown_by(component) else {
            return Err(Missing::Failed("its `source` names no entry".to_owned()));
        };
        let accepted = accepted_params(config, source);
        let mut values: BTreeMap<String, String> = self
            .run
            .params()
            .iter()
            .filter(|(name, _)| accepted.iter().any(|decl| &decl.name == *name))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        if let Some(on_cursor) = &component.on_cursor {
            let driver = on_cursor.source.as_ref().and_then(|driver| {
                config
                    .components
                    .iter()
                    .find(|other| other.name() == Some(driver.value.as_str()))
            });
            let Some(driver) = driver else {
                return Err(Missing::Failed(
                    "its `on_cursor.source` names no component".to_owned(),
                ));
            };
            if depth >= MAX_CHAIN {
                return Err(Missing::Failed(
                    "its `on_cursor` drivers form a cycle".to_owned(),
                ));
            }
            let driver_name = driver.name().unwrap_or_default();
            let rows = Box::pin(self.show(driver, depth + 1)).await.map_err(|_| {
                Missing::Waits(format!(
                    "waits for a row of `{driver_name}`, which shows none"
                ))
            })?;
            let Some(row) = CursorRow::first(driver, &rows) else {
                return Err(Missing::Waits(format!(
                    "waits for a row of `{driver_name}`, which has none"
                )));
            };
            for bind in &on_cursor.bind {
                let Some(template) = &bind.template else {
                    continue;
                };
                let io = self.run.world().io.clone();
                let filled = cursor::fill(&template.value.text, &row, |name| io.env_var(name));
                values.insert(bind.param.value.clone(), filled);
            }
        }
        for missing in self.run.missing(source, &values).await {
            let Some(example) = missing.example else {
                return Err(Missing::Failed(format!(
                    "needs --param {}=VALUE",
                    missing.name
                )));
            };
            values.insert(missing.name, example.value);
        }
        match self.run.evaluate_with(source, &values).await {
            Err(RunError::Unbound(message)) => Err(Missing::Failed(message)),
            Err(RunError::Failed(error)) => Err(Missing::Failed(self.tried.describe(&error))),
            Ok(Output::Value(value)) => Ok(value),
            Ok(Output::Stream(mut events)) => {
                let within = r#try::for_duration(self.args)
                    .ok()
                    .flatten()
                    .unwrap_or(DEFAULT_WINDOW);
                let bounds = Follow {
                    events: Some(self.args.limit.unwrap_or(TABLE_ROWS)),
                    within: Some(within),
                };
                let mut rows = Vec::new();
                let mut failed = None;
                self.run
                    .follow(&mut events, bounds, |event| match event {
                        Ok(event) => {
                            rows.push(event);
                            ControlFlow::Continue(())
                        }
                        Err(error) => {
                            failed = Some(error.to_string());
                            ControlFlow::Break(())
                        }
                    })
                    .await;
                if let Some(failed) = failed {
                    return Err(Missing::Failed(failed));
                }
                Ok(Value::Array(rows))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sources_syntax::Syntax;

    fn config(text: &str) -> Config {
        let parse = sources_syntax::parse(text, Syntax::Yaml);
        sources_config::decode(parse.root.expect("a root")).0
    }

    fn named(config: &Config, wanted: Option<&str>) -> Result<String, String> {
        screen(config, wanted).map(Screen::describe)
    }

    #[test]
    fn a_screen_is_the_one_named_else_the_initial_one_and_a_wrong_name_says_so() {
        let config = config(
            "tui:\n  screens:\n    teams: {layout: {component: a}}\n    jobs: {layout: {component: b}}\n  initial: jobs\ndata:\n  sources: {}\n",
        );
        assert_eq!(named(&config, None), Ok("screen `jobs`".to_owned()));
        assert_eq!(
            named(&config, Some("teams")),
            Ok("screen `teams`".to_owned())
        );
        assert_eq!(
            named(&config, Some("team")),
            Err("--screen team: no screen `team`; did you mean `teams`?".to_owned())
        );
        assert_eq!(
            named(&config, Some("zzz")),
            Err("--screen zzz: no screen `zzz`; the screens are `teams`, `jobs`".to_owned())
        );
        let none = config_without_screens();
        assert_eq!(
            named(&none, None),
            Err("--screen: the file has no `tui.screen` or `tui.screens`".to_owned())
        );
        assert_eq!(
            named(&none, Some("x")),
            Err("--screen x: no screen `x`; the file has no `tui.screens`".to_owned())
        );
    }

    fn config_without_screens() -> Config {
        config("data:\n  sources: {}\n")
    }
}
