//! The engine's fetch caches: a leaf's own `cache`, and the one a `join` keeps for its lookups,
//! each reported on the trace (parameter values of credential-looking names redacted).

use super::*;

impl Engine<'_> {
    pub(super) fn cache_policy(leaf: &LeafFields) -> Option<CachePolicy> {
        let cache = &leaf.cache.as_ref()?.value;
        Some(CachePolicy {
            ttl: cache.ttl.as_ref()?.value.0,
            size: cache.size.as_ref().map_or(DEFAULT_SIZE, |size| size.value),
        })
    }

    pub(super) fn cache_get(
        &self,
        name: &str,
        leaf: &LeafFields,
        params: &BTreeMap<String, String>,
    ) -> Option<Value> {
        let policy = Self::cache_policy(leaf)?;
        self.cached(name, policy, params)
    }

    pub(super) fn cached(
        &self,
        key: &str,
        policy: CachePolicy,
        params: &BTreeMap<String, String>,
    ) -> Option<Value> {
        let mut caches = self.caches.lock().unwrap_or_else(PoisonError::into_inner);
        let cache = caches
            .entry(key.to_owned())
            .or_insert_with(|| FetchCache::new(policy));
        let hit = cache.get(params, self.io.now());
        if hit.is_some() {
            self.trace.note(&format!(
                "cache `{key}`: hit for {} (no request)",
                params_text(params)
            ));
        }
        hit
    }

    pub(super) fn cache_put(
        &self,
        name: &str,
        leaf: &LeafFields,
        params: BTreeMap<String, String>,
        value: &Value,
    ) {
        if let Some(policy) = Self::cache_policy(leaf) {
            self.store(name, policy, params, value);
        }
    }

    pub(super) fn store(
        &self,
        key: &str,
        policy: CachePolicy,
        params: BTreeMap<String, String>,
        value: &Value,
    ) {
        let mut caches = self.caches.lock().unwrap_or_else(PoisonError::into_inner);
        let cache = caches
            .entry(key.to_owned())
            .or_insert_with(|| FetchCache::new(policy));
        self.trace.note(&format!(
            "cache `{key}`: stored for {} ({}; ttl {})",
            params_text(&params),
            if policy.size < 0 {
                "unbounded".to_owned()
            } else {
                format!("at most {} entries", policy.size)
            },
            crate::format_duration(policy.ttl)
        ));
        cache.put(params, value.clone(), self.io.now());
    }
}

fn params_text(params: &BTreeMap<String, String>) -> String {
    if params.is_empty() {
        return "no parameters".to_owned();
    }
    params
        .iter()
        .map(|(name, value)| {
            if sources_config::secret::is_credential(name) {
                format!("{name}={}", sources_config::secret::REDACTED)
            } else {
                format!("{name}={value}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the entry memoises its own fetches: an `http`, `exec` or `file` with `cache` (and a
/// `ttl`) that does not stream.
pub(super) fn caches_itself(source: &Source) -> bool {
    let fetches = match &source.body {
        Body::Http(http) => !is_true(http.follow.as_ref()),
        Body::Exec(exec) => !is_true(exec.follow.as_ref()),
        Body::File(_) => true,
        _ => false,
    };
    fetches && source.body.leaf().and_then(Engine::cache_policy).is_some()
}

#[cfg(test)]
mod params_text_tests {
    use super::*;

    #[test]
    fn credential_named_parameter_values_are_redacted() {
        let params = BTreeMap::from([
            ("api_token".to_owned(), "s3cret-value".to_owned()),
            ("region".to_owned(), "eu".to_owned()),
        ]);
        let text = params_text(&params);
        assert!(!text.contains("s3cret-value"), "{text}");
        assert!(text.contains("region=eu"), "{text}");
    }
}
