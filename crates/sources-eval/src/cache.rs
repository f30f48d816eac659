//! The fetch cache of a source (`cache: {ttl, size}`) and the automatic join-lookup cache: values
//! keyed on the bound parameters, fresh for `ttl`, least recently used evicted past `size`.
//! Only successful snapshot values are stored; errors and streamed events never are.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use serde_json::Value;

/// TTL of the cache every join lookup gets when its source declares none.
pub const JOIN_LOOKUP_TTL: Duration = Duration::from_secs(60);
/// Size of the cache every join lookup gets when its source declares none.
pub const JOIN_LOOKUP_SIZE: i64 = 100;
/// `cache.size` when unset.
pub const DEFAULT_SIZE: i64 = 100;

/// How long entries live and how many are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CachePolicy {
    /// How long an entry stays fresh.
    pub ttl: Duration,
    /// Maximum entries; negative is unbounded.
    pub size: i64,
}

impl CachePolicy {
    /// The automatic join-lookup policy.
    pub const JOIN_LOOKUP: CachePolicy = CachePolicy {
        ttl: JOIN_LOOKUP_TTL,
        size: JOIN_LOOKUP_SIZE,
    };
}

struct Slot {
    value: Value,
    stored_at: Duration,
    used: u64,
}

/// One source's cache.
pub struct FetchCache {
    policy: CachePolicy,
    slots: HashMap<BTreeMap<String, String>, Slot>,
    tick: u64,
}

impl FetchCache {
    /// An empty cache with `policy`.
    pub fn new(policy: CachePolicy) -> FetchCache {
        FetchCache {
            policy,
            slots: HashMap::new(),
            tick: 0,
        }
    }

    /// The policy.
    pub fn policy(&self) -> CachePolicy {
        self.policy
    }

    /// The fresh value for `params` at `now`, if any (a stale one is dropped).
    pub fn get(&mut self, params: &BTreeMap<String, String>, now: Duration) -> Option<Value> {
        let fresh = self
            .slots
            .get(params)
            .map(|slot| now.saturating_sub(slot.stored_at) < self.policy.ttl)?;
        if !fresh {
            self.slots.remove(params);
            return None;
        }
        self.tick += 1;
        let slot = self.slots.get_mut(params)?;
        slot.used = self.tick;
        Some(slot.value.clone())
    }

    /// Stores `value` for `params` at `now`, evicting the least recently used entry when full.
    pub fn put(&mut self, params: BTreeMap<String, String>, value: Value, now: Duration) {
        if self.policy.size == 0 {
            return;
        }
        self.tick += 1;
        self.slots.insert(
            params,
            Slot {
                value,
                stored_at: now,
                used: self.tick,
            },
        );
        if self.policy.size > 0 {
            while self.slots.len() as u64 > self.policy.size.unsigned_abs() {
                let oldest = self
                    .slots
                    .iter()
                    .min_by_key(|(_, slot)| slot.used)
                    .map(|(key, _)| key.clone());
                match oldest {
                    Some(key) => self.slots.remove(&key),
                    None => break,
                };
            }
        }
    }

    /// How many entries are held.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(id: &str) -> BTreeMap<String, String> {
        BTreeMap::from([("id".to_owned(), id.to_owned())])
    }

    #[test]
    fn entries_are_fresh_for_the_ttl_only() {
        let mut cache = FetchCache::new(CachePolicy {
            ttl: Duration::from_secs(30),
            size: 100,
        });
        cache.put(key("a"), json!(1), Duration::from_secs(0));
        assert_eq!(
            cache.get(&key("a"), Duration::from_secs(29)),
            Some(json!(1))
        );
        assert_eq!(cache.get(&key("b"), Duration::from_secs(1)), None);
        assert_eq!(cache.get(&key("a"), Duration::from_secs(30)), None);
        assert!(cache.is_empty());
    }

    #[test]
    fn the_least_recently_used_entry_is_evicted() {
        let mut cache = FetchCache::new(CachePolicy {
            ttl: Duration::from_secs(60),
            size: 2,
        });
        let t = Duration::ZERO;
        cache.put(key("a"), json!("a"), t);
        cache.put(key("b"), json!("b"), t);
        assert!(cache.get(&key("a"), t).is_some());
        cache.put(key("c"), json!("c"), t);
        assert_eq!(cache.len(), 2);
        assert!(cache.get(&key("b"), t).is_none());
        assert!(cache.get(&key("a"), t).is_some());
    }

    #[test]
    fn negative_size_is_unbounded_and_zero_keeps_nothing() {
        let mut unbounded = FetchCache::new(CachePolicy {
            ttl: Duration::from_secs(1),
            size: -1,
        });
        for i in 0..500 {
            unbounded.put(key(&i.to_string()), json!(i), Duration::ZERO);
        }
        assert_eq!(unbounded.len(), 500);
        let mut none = FetchCache::new(CachePolicy {
            ttl: Duration::from_secs(1),
            size: 0,
        });
        none.put(key("a"), json!(1), Duration::ZERO);
        assert!(none.is_empty());
    }
}
