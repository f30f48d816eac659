//! The operators over several entries: `merge`/`union` (streamed when every child streams, else
//! a value with a snapshot of each streamed child) and `join` (lookups per driver row).

use super::*;

impl<'c> Engine<'c> {
    /// Runs `work` within a `merge`'s `timeout` (a `union` has none).
    async fn within<T>(
        &self,
        name: &str,
        limit: Option<Duration>,
        work: impl std::future::Future<Output = Result<T, EvalError>>,
    ) -> Result<T, EvalError> {
        let Some(limit) = limit else {
            return work.await;
        };
        let sleep = self.io.sleep(limit);
        futures::pin_mut!(work);
        match futures::future::select(work, sleep).await {
            futures::future::Either::Left((result, _)) => result,
            futures::future::Either::Right(_) => Err(EvalError::new(
                name,
                Cause::Io(crate::io::IoError::Timeout(limit)),
            )),
        }
    }

    /// A `merge` or `union`: it streams when every child streams; otherwise it polls, and a
    /// streamed child contributes a snapshot of its stream. `timeout` (on `merge`) bounds fetching
    /// the snapshot children and opening the streams; the streams are then read, all at once, for
    /// the snapshot window.
    pub(super) async fn merge(
        &self,
        name: &str,
        merge: &'c MergeFields,
        params: &BTreeMap<String, String>,
        stack: &[String],
        timeout: Option<Duration>,
    ) -> Result<Output<'_>, EvalError> {
        let fail = |cause: Cause| EvalError::new(name, cause);
        let skip = merge
            .on_error
            .as_ref()
            .is_some_and(|on_error| on_error.value == OnError::Skip);
        let meta_key = string(merge.meta_key.as_ref())
            .unwrap_or(DEFAULT_META_KEY)
            .to_owned();
        let tag_field = string(merge.tag_field.as_ref());
        let mut children: Vec<(String, ChildTags)> = Vec::new();
        for child in merge.sources.iter().flat_map(|sources| &sources.value) {
            children.push((
                child.value.clone(),
                ChildTags::for_source(&child.value, tag_field),
            ));
        }
        for child in merge.children.iter().flat_map(|children| &children.value) {
            let Some(source) = &child.value.source else {
                continue;
            };
            children.push((
                source.value.clone(),
                ChildTags {
                    tags: pairs(child.value.tags.as_ref()),
                },
            ));
        }
        let all_stream = !children.is_empty()
            && children.iter().all(|(child, _)| {
                self.config
                    .get(child)
                    .is_some_and(|source| cadence(self.config, source).is_streamed())
            });
        let opened = self
            .within(name, timeout, async {
                let mut opened = Vec::new();
                for (child, tags) in children {
                    match self
                        .eval(
                            child.clone(),
                            self.forward(name, &child, params),
                            stack.to_vec(),
                        )
                        .await
                    {
                        Ok(output) => opened.push((child, tags, output)),
                        Err(error) if skip => self.trace.warn(&format!(
                            "`{name}`: child `{child}` left out by `on_error: skip`: {error}"
                        )),
                        Err(error) => return Err(fail(Cause::from(error))),
                    }
                }
                Ok(opened)
            })
            .await?;
        if all_stream {
            let mut streams = Vec::new();
            for (child, tags, output) in opened {
                let Output::Stream(events) = output else {
                    return Err(fail(Cause::Unsupported(format!(
                        "child `{child}` did not stream"
                    ))));
                };
                let meta_key = meta_key.clone();
                streams.push(
                    events
                        .map(move |event| {
                            event.map(|mut value| {
                                merge::tag_row(&mut value, &tags, &meta_key);
                                value
                            })
                        })
                        .boxed(),
                );
            }
            return Ok(Output::Stream(futures::stream::select_all(streams).boxed()));
        }
        let settled =
            futures::future::join_all(opened.into_iter().map(|(child, tags, output)| async move {
                let value = self.settle(&child, output).await;
                (child, tags, value)
            }))
            .await;
        let mut values = Vec::new();
        for (child, tags, value) in settled {
            match value {
                Ok(value) => values.push((value, tags)),
                Err(error) if skip => self.trace.warn(&format!(
                    "`{name}`: child `{child}` left out by `on_error: skip`: {error}"
                )),
                Err(error) => return Err(fail(Cause::from(error))),
            }
        }
        Ok(Output::Value(merge::concat(values, &meta_key)))
    }

    pub(super) async fn join(
        &self,
        name: &str,
        join: &'c sources_config::Join,
        params: &BTreeMap<String, String>,
        stack: &[String],
    ) -> Result<Value, EvalError> {
        let fail = |cause: Cause| EvalError::new(name, cause);
        let driver = join
            .driver
            .as_ref()
            .and_then(|driver| driver.value.from.as_ref())
            .ok_or_else(|| fail(missing("driver.from")))?;
        let merged = join
            .emit
            .as_ref()
            .is_some_and(|emit| emit.value == Emit::Merged);
        let skip = join
            .on_error
            .as_ref()
            .is_some_and(|on_error| on_error.value == OnError::Skip);
        struct Lookup {
            name: String,
            from: String,
            on: Vec<(String, Expr)>,
            policy: Option<CachePolicy>,
            /// The parameters the lookup must be given (required, without a default).
            required: Vec<String>,
        }
        let mut lookups = Vec::new();
        for lookup in join.lookups.iter().flat_map(|lookups| lookups.value.iter()) {
            let from = lookup
                .value
                .value
                .from
                .as_ref()
                .ok_or_else(|| fail(missing(&format!("lookups.{}.from", lookup.name.value))))?;
            let source = self
                .config
                .get(&from.value)
                .ok_or_else(|| fail(Cause::UnknownSource(from.value.clone())))?;
            // A leaf with its own `cache` stores (and says so) on its own: the join does not
            // store the same fetch a second time.
            let policy = (!caches_itself(source)).then(|| {
                source
                    .body
                    .leaf()
                    .and_then(Self::cache_policy)
                    .unwrap_or(CachePolicy::JOIN_LOOKUP)
            });
            let on = compile_map(
                self.options.language,
                &format!("lookups.{}.on", lookup.name.value),
                lookup.value.value.on.as_ref(),
            )
            .map_err(fail)?;
            let required = sources_config::accepted::must_be_given(self.config, source);
            lookups.push(Lookup {
                name: lookup.name.value.clone(),
                from: from.value.clone(),
                on,
                policy,
                required,
            });
        }
        let rows = merge::rows(
            self.snapshot_at(
                driver.value.clone(),
                self.forward(name, &driver.value, params),
                stack.to_vec(),
            )
            .await
            .map_err(|error| fail(Cause::from(error)))?,
        );
        let declared = self
            .config
            .get(name)
            .map(declared_params)
            .unwrap_or_default();
        let typed = crate::params::typed(self.options.language, &declared, params);
        let mut out = Vec::with_capacity(rows.len());
        'rows: for (index, row) in rows.into_iter().enumerate() {
            let mut results = Vec::with_capacity(lookups.len());
            for lookup in &lookups {
                let mut bound = BTreeMap::new();
                for (param, expr) in &lookup.on {
                    let value = expr.eval(&row, &typed).map_err(|cause| {
                        fail(match cause {
                            Cause::Expression {
                                field,
                                expression,
                                detail,
                            } => Cause::Expression {
                                field,
                                expression,
                                detail: format!("{detail} (driver row {index})"),
                            },
                            other => other,
                        })
                    })?;
                    let text = match value {
                        Value::String(text) => text,
                        // Nothing: the row lacks the field. An optional parameter is left to its
                        // default; a required one is never sent as the text `null`.
                        Value::Null if lookup.required.contains(param) => {
                            let why = format!(
                                "lookup `{}` gets no value for its required parameter `{param}`: \
                                 `on.{param}: {}` is null on that row (a field the row lacks \
                                 reads as null)",
                                lookup.name,
                                expr.text()
                            );
                            if skip {
                                self.trace.warn(&format!(
                                    "join `{name}`: driver row {index} dropped by `on_error: skip`: {why}"
                                ));
                                continue 'rows;
                            }
                            return Err(fail(Cause::Param(format!("driver row {index}: {why}"))));
                        }
                        Value::Null => continue,
                        other => other.to_string(),
                    };
                    bound.insert(param.clone(), text);
                }
                let cache_key = lookup.from.as_str();
                let result = match lookup.policy {
                    None => {
                        self.snapshot_at(lookup.from.clone(), bound, stack.to_vec())
                            .await
                    }
                    Some(policy) => match self.cached(cache_key, policy, &bound) {
                        Some(value) => Ok(value),
                        None => {
                            let fetched = self
                                .snapshot_at(lookup.from.clone(), bound.clone(), stack.to_vec())
                                .await;
                            if let Ok(value) = &fetched {
                                self.store(cache_key, policy, bound, value);
                            }
                            fetched
                        }
                    },
                };
                match result {
                    Ok(value) => results.push((lookup.name.clone(), value)),
                    Err(error) if skip => {
                        self.trace.warn(&format!(
                            "join `{name}`: driver row {index} dropped by `on_error: skip`: lookup `{}` failed: {error}",
                            lookup.name
                        ));
                        continue 'rows;
                    }
                    Err(error) => return Err(fail(Cause::from(error))),
                }
            }
            out.push(joined(row, results, merged));
        }
        Ok(Value::Array(out))
    }
}

/// One joined row, as the format's origin emits it: `separate` gives `{row: DRIVER_ROW, LOOKUP:
/// RESULT, …}`; `merged` puts each lookup's keys into the driver row, a key already there becoming
/// `LOOKUP_KEY`. A merge needs both sides to be maps: a driver row that is not one is emitted
/// separately, and a result that is not one goes under the lookup's name.
fn joined(row: Value, results: Vec<(String, Value)>, merged: bool) -> Value {
    match (row, merged) {
        (Value::Object(mut fields), true) => {
            for (lookup, value) in results {
                match value {
                    Value::Object(object) => {
                        for (key, item) in object {
                            let key = if fields.contains_key(&key) {
                                format!("{lookup}_{key}")
                            } else {
                                key
                            };
                            fields.insert(key, item);
                        }
                    }
                    other => {
                        fields.insert(lookup, other);
                    }
                }
            }
            Value::Object(fields)
        }
        (row, _) => {
            let mut fields = serde_json::Map::with_capacity(results.len() + 1);
            fields.insert("row".to_owned(), row);
            for (lookup, value) in results {
                fields.insert(lookup, value);
            }
            Value::Object(fields)
        }
    }
}
