//! The `exec` leaf: a command run once (its output decoded, or a window of it), or followed line
//! by line.

use super::*;

impl<'c> Engine<'c> {
    pub(super) async fn exec(
        &self,
        name: &str,
        exec: &'c Exec,
        params: &BTreeMap<String, String>,
    ) -> Result<Output<'_>, EvalError> {
        let fail = |cause: Cause| EvalError::new(name, cause);
        let leaf = &exec.leaf;
        let scope = Scope::new(params, self.io.as_ref());
        let command = exec
            .command
            .as_ref()
            .ok_or_else(|| fail(missing("command")))?;
        let env: Vec<(String, String)> = exec
            .env
            .as_ref()
            .map(|env| {
                env.value
                    .iter()
                    .map(|item| {
                        (
                            item.name.value.clone(),
                            scope.render(&item.value.value.text),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        if is_true(exec.follow.as_ref()) {
            let argv = command
                .value
                .iter()
                .map(|arg| scope.render(&arg.value.text))
                .collect();
            let lines = fetch::run_lines(
                self.io.as_ref(),
                self.trace.as_ref(),
                CommandSpec { argv, env },
            )
            .await
            .map_err(fail)?;
            return Ok(self.events(name, lines, format_of(leaf), leaf));
        }
        let (values, window) = match &exec.window {
            Some(window) => {
                let window = &window.value;
                let page_size = page_size_of(window);
                let filters = pairs(window.filters.as_ref());
                let values = if window.is_anchored() {
                    anchored_first(page_size, anchor_of(window), &self.window.terms, &filters)
                } else {
                    window::exec_values(&self.first_page(page_size), &filters, None)
                };
                (Some(values), Some((window, page_size)))
            }
            None => (None, None),
        };
        let argv: Vec<String> = match &values {
            Some(values) => {
                let scope = scope.with_window(values);
                command
                    .value
                    .iter()
                    .filter_map(|arg| scope.render_arg(&arg.value.text))
                    .collect()
            }
            None => command
                .value
                .iter()
                .map(|arg| scope.render(&arg.value.text))
                .collect(),
        };
        let key = params.clone();
        if let Some(value) = self.cache_get(name, leaf, &key) {
            return Ok(Output::Value(value));
        }
        let stdout = fetch::run(
            self.io.as_ref(),
            self.trace.as_ref(),
            CommandSpec { argv, env },
            timeout_of(leaf),
        )
        .await
        .map_err(fail)?;
        let raw = decode::decode(&stdout, format_of(leaf), "output").map_err(fail)?;
        let value = self
            .windowed_result(name, raw, leaf, window)
            .map_err(fail)?;
        self.cache_put(name, leaf, key, &value);
        Ok(Output::Value(value))
    }
}
