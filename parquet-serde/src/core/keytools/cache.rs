//! A two-level cache: access token -> (key -> value), each token's map dropped as a whole when
//! it is older than the lifetime (parquet-java's and Arrow C++'s
//! `TwoLevelCacheWithExpiration`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::Result;

struct TokenEntry<V> {
    created: Instant,
    lifetime: Duration,
    values: HashMap<String, V>,
}

/// Token -> key -> value, expiring per token.
pub(crate) struct TwoLevelCache<V> {
    tokens: Mutex<HashMap<String, TokenEntry<V>>>,
}

impl<V: Clone> TwoLevelCache<V> {
    pub(crate) fn new() -> Self {
        TwoLevelCache {
            tokens: Mutex::new(HashMap::new()),
        }
    }

    /// The value of `key` under `token`, made by `make` when absent or expired. `make` runs
    /// under the cache's lock, so one value is made per key even with concurrent callers.
    pub(crate) fn get_or_try_insert(
        &self,
        token: &str,
        key: &str,
        lifetime: Duration,
        make: impl FnOnce() -> Result<V>,
    ) -> Result<V> {
        // A poisoned lock only means another thread panicked; the maps stay consistent
        // because every insertion is a single call.
        let mut tokens = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        // Each token's map lives for the lifetime given when it was made.
        tokens.retain(|_, e| now.duration_since(e.created) < e.lifetime);
        let entry = tokens
            .entry(token.to_string())
            .or_insert_with(|| TokenEntry {
                created: now,
                lifetime,
                values: HashMap::new(),
            });
        if let Some(v) = entry.values.get(key) {
            return Ok(v.clone());
        }
        let v = make()?;
        // With a zero lifetime nothing is kept.
        if !lifetime.is_zero() {
            entry.values.insert(key.to_string(), v.clone());
        }
        Ok(v)
    }

    /// Drops the entries of `token`.
    pub(crate) fn remove_token(&self, token: &str) {
        self.tokens
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(token);
    }

    /// Drops everything.
    pub(crate) fn clear(&self) {
        self.tokens
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }

    #[cfg(test)]
    pub(crate) fn len(&self, token: &str) -> usize {
        self.tokens
            .lock()
            .unwrap()
            .get(token)
            .map_or(0, |e| e.values.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    #[test]
    fn caches_per_token_and_expires() {
        let c = TwoLevelCache::<u32>::new();
        let long = Duration::from_secs(600);
        let mut made = 0;
        for _ in 0..3 {
            let v = c
                .get_or_try_insert("t", "k", long, || {
                    made += 1;
                    Ok(7)
                })
                .unwrap();
            assert_eq!(v, 7);
        }
        assert_eq!(made, 1);
        // Another token has its own map.
        c.get_or_try_insert("u", "k", long, || Ok(8)).unwrap();
        assert_eq!(c.get_or_try_insert("t", "k", long, || Ok(9)).unwrap(), 7);
        // Errors are not cached.
        assert!(c
            .get_or_try_insert("t", "e", long, || Err(Error::data("x")))
            .is_err());
        assert_eq!(c.len("t"), 1);
        c.remove_token("t");
        assert_eq!(c.len("t"), 0);
        // A zero lifetime never caches.
        c.get_or_try_insert("z", "k", Duration::ZERO, || Ok(1))
            .unwrap();
        assert_eq!(
            c.get_or_try_insert("z", "k", Duration::ZERO, || Ok(2))
                .unwrap(),
            2
        );
        // Expiry drops the token's whole map.
        let short = Duration::from_millis(1);
        c.get_or_try_insert("x", "k", short, || Ok(1)).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(c.get_or_try_insert("x", "k", short, || Ok(2)).unwrap(), 2);
        // Other tokens keep their own lifetime.
        assert_eq!(c.get_or_try_insert("u", "k", long, || Ok(3)).unwrap(), 8);
        c.clear();
        assert_eq!(c.len("u"), 0);
    }
}
