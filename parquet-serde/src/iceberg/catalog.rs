//! The file-system table (Iceberg's "Hadoop" layout): the metadata files
//! `metadata/v{N}.metadata.json`, the newest one current, each created with put-if-absent
//! (a hard link of a fully written temporary file locally, `PutMode::Create` on an object
//! store: see `crate::table::store`), so of two writers taking the same `N` one wins and
//! the other reads the table again. `metadata/version-hint.text` names the newest `N` for
//! readers that look there first (written after the commit, a hint only: the listing
//! decides). Manifests and manifest lists get unique names and are written before the
//! metadata file that makes them part of the table.

use std::sync::Arc;

use super::metadata::TableMetadata;
use crate::error::{Error, Result};
use crate::table::store::TableStore;

/// The folder of the metadata, manifest lists and manifests, relative to the root.
pub(crate) const METADATA_DIR: &str = "metadata";
/// The hint file of the newest metadata version.
pub(crate) const VERSION_HINT: &str = "metadata/version-hint.text";

/// The relative path of metadata version `n`.
pub(crate) fn metadata_path(n: u64) -> String {
    format!("{METADATA_DIR}/v{n}.metadata.json")
}

/// The version `N` of a file name `v{N}.metadata.json`.
pub(crate) fn metadata_version(name: &str) -> Option<u64> {
    let digits = name.strip_prefix('v')?.strip_suffix(".metadata.json")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// A name no other file of the table has: 32 hex digits, uuid-like.
pub(crate) fn unique_id() -> String {
    use std::hash::BuildHasher;
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut out = String::with_capacity(36);
    for half in 0..2u8 {
        // RandomState is seeded from the OS once per process, then varied per instance.
        let h = std::collections::hash_map::RandomState::new().hash_one((
            half,
            n,
            std::time::SystemTime::now(),
            std::process::id(),
        ));
        out.push_str(&format!("{h:016x}"));
    }
    format!(
        "{}-{}-{}-{}-{}",
        &out[..8],
        &out[8..12],
        &out[12..16],
        &out[16..20],
        &out[20..]
    )
}

/// A table's storage and its location URI.
#[derive(Clone)]
pub(crate) struct Catalog {
    pub(crate) store: Arc<dyn TableStore>,
    /// The URI of the root, no trailing `/` (`file:///data/t`, `s3://bucket/t`): the
    /// metadata's `location`, and the prefix of every path a manifest or list holds.
    pub(crate) location: String,
}

impl Catalog {
    pub(crate) fn new(store: Arc<dyn TableStore>, location: String) -> Catalog {
        let location = location.trim_end_matches('/').to_string();
        Catalog { store, location }
    }

    /// Where the table is, for messages.
    pub(crate) fn describe(&self) -> String {
        self.store.describe()
    }

    /// The URI of a path relative to the root.
    pub(crate) fn uri(&self, relative: &str) -> String {
        format!("{}/{relative}", self.location)
    }

    /// The path relative to the root of a URI the table holds; an error naming `what` when
    /// it is not below the table's location (or climbs out of it).
    pub(crate) fn relative(&self, uri: &str, what: &str) -> Result<String> {
        let rel = uri
            .strip_prefix(&self.location)
            .and_then(|r| r.strip_prefix('/'))
            .or_else(|| {
                // `file:/x` and `file:///x` name the same file.
                let bare = |s: &str| {
                    s.strip_prefix("file://")
                        .or_else(|| s.strip_prefix("file:"))
                        .map(str::to_string)
                };
                let (loc, u) = (bare(&self.location)?, bare(uri)?);
                let r = u.strip_prefix(&loc)?.strip_prefix('/')?;
                Some(&uri[uri.len() - r.len()..])
            });
        match rel {
            Some(r) if !r.is_empty() && !r.split('/').any(|p| p == ".." || p.is_empty()) => {
                Ok(r.to_string())
            }
            _ => Err(Error::corrupt(format!(
                "{}: {what} `{uri}` is not below the table location `{}`",
                self.describe(),
                self.location
            ))),
        }
    }

    /// The metadata versions present, ascending.
    pub(crate) fn versions(&self) -> Result<Vec<u64>> {
        let mut v: Vec<u64> = self
            .store
            .list(METADATA_DIR)?
            .iter()
            .filter_map(|n| metadata_version(n))
            .collect();
        v.sort_unstable();
        Ok(v)
    }

    /// Metadata version `n`, read and checked.
    pub(crate) fn load(&self, n: u64) -> Result<TableMetadata> {
        let path = metadata_path(n);
        let bytes = self.store.read(&path)?;
        let name = format!("{}/{path}", self.describe());
        let m = TableMetadata::parse(&bytes, &name)?;
        // The current schema is read by every commit: checked here, naming the file.
        if let Some(schema) = m.schema() {
            super::schema::IcebergSchema::from_json(schema)
                .map_err(|e| e.context(format!("{name}: the current schema")))?;
        }
        Ok(m)
    }

    /// The newest version and its metadata; `None` for a table without one.
    pub(crate) fn latest(&self) -> Result<Option<(u64, TableMetadata)>> {
        match self.versions()?.last() {
            None => Ok(None),
            Some(&n) => Ok(Some((n, self.load(n)?))),
        }
    }

    /// Reads a file the table holds by its URI (a manifest list, a manifest).
    pub(crate) fn read_uri(&self, uri: &str, what: &str) -> Result<(String, Vec<u8>)> {
        let rel = self.relative(uri, what)?;
        let bytes = self.store.read(&rel)?;
        Ok((format!("{}/{rel}", self.describe()), bytes))
    }

    /// Writes a new file under a unique name (a manifest, a manifest list): never over
    /// another; returns its URI.
    pub(crate) fn write_new(&self, relative: &str, bytes: &[u8]) -> Result<String> {
        if !self.store.put_if_absent(relative, bytes)? {
            return Err(Error::internal(format!(
                "{}: `{relative}` exists already (its name was to be unique)",
                self.describe()
            )));
        }
        Ok(self.uri(relative))
    }

    /// Creates metadata version `n`: `Ok(false)` when another writer created it first.
    /// On success the version hint is updated (a failure to write the hint is ignored: it
    /// is a hint, and the commit has happened).
    pub(crate) fn commit(&self, n: u64, metadata: &TableMetadata) -> Result<bool> {
        if !self
            .store
            .put_if_absent(&metadata_path(n), &metadata.to_bytes())?
        {
            return Ok(false);
        }
        let _ = self.store.put(VERSION_HINT, n.to_string().as_bytes());
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::store::LocalStore;

    #[test]
    fn names_and_uris() {
        assert_eq!(metadata_path(3), "metadata/v3.metadata.json");
        assert_eq!(metadata_version("v12.metadata.json"), Some(12));
        for other in [
            "v.metadata.json",
            "vx.metadata.json",
            "00001-abc.metadata.json",
            "version-hint.text",
            "v1.metadata.json.tmp",
        ] {
            assert_eq!(metadata_version(other), None, "{other}");
        }
        let a = unique_id();
        assert_eq!(a.len(), 36);
        assert_ne!(a, unique_id());
        let dir = tempfile::tempdir().unwrap();
        let c = Catalog::new(
            Arc::new(LocalStore::new(dir.path())),
            "file:///data/t/".into(),
        );
        assert_eq!(c.uri("data/x.parquet"), "file:///data/t/data/x.parquet");
        assert_eq!(
            c.relative("file:///data/t/data/x.parquet", "f").unwrap(),
            "data/x.parquet"
        );
        assert_eq!(
            c.relative("file:/data/t/data/x.parquet", "f").unwrap(),
            "data/x.parquet"
        );
        for bad in [
            "file:///data/other/x",
            "file:///data/t/../x",
            "file:///data/tx/y",
            "s3://b/t/x",
        ] {
            let err = c.relative(bad, "data file").unwrap_err();
            assert!(err.to_string().contains("not below the table"), "{err}");
        }
    }
}
