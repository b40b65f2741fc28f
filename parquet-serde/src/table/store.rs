//! Where a table lives, and the one primitive that makes commits atomic: put-if-absent.
//! Shared by the table formats (Delta's log, Iceberg's metadata files).
//!
//! A `TableStore` sees paths relative to the table root. `LocalStore` is a folder; the
//! object-store one is `object_store.rs` (feature `object_store`).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Storage of a table: its metadata and its data files, by path relative to the table root.
pub(crate) trait TableStore: Send + Sync {
    /// The names (no folder) of the files in the folder `dir` (relative to the root), in no
    /// particular order; an empty list when the folder does not exist.
    fn list(&self, dir: &str) -> Result<Vec<String>>;
    /// The whole content of a file; an error naming it when it is missing.
    fn read(&self, path: &str) -> Result<Vec<u8>>;
    /// Writes `bytes` at `path` only if nothing is there: `Ok(true)` when written,
    /// `Ok(false)` when another writer got there first. Readers never see a partial file.
    fn put_if_absent(&self, path: &str, bytes: &[u8]) -> Result<bool>;
    /// Writes `bytes` at `path`, replacing what is there, atomically (Delta's
    /// `_last_checkpoint`, Iceberg's `version-hint.text`).
    fn put(&self, path: &str, bytes: &[u8]) -> Result<()>;
    /// Deletes a file; a file already gone is not an error (Delta's vacuum).
    #[cfg_attr(not(feature = "delta"), allow(dead_code))]
    fn delete(&self, path: &str) -> Result<()>;
    /// Where the table is, for messages (`/data/logs`, `s3://bucket/prefix`).
    fn describe(&self) -> String;
}

/// A table in a local folder.
#[derive(Debug, Clone)]
pub(crate) struct LocalStore {
    root: PathBuf,
}

impl LocalStore {
    pub(crate) fn new(root: impl Into<PathBuf>) -> Self {
        LocalStore { root: root.into() }
    }

    fn full(&self, path: &str) -> PathBuf {
        self.root.join(path)
    }

    /// A temporary file beside `target`, written and synced, for a rename or a link.
    fn stage(&self, target: &Path, bytes: &[u8]) -> Result<tempfile::NamedTempFile> {
        let dir = target.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::from(e).context(format!("creating {}", dir.display())))?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempfile_in(dir)
            .map_err(|e| Error::from(e).context(format!("staging {}", target.display())))?;
        tmp.write_all(bytes)
            .and_then(|()| tmp.as_file().sync_all())
            .map_err(|e| Error::from(e).context(format!("staging {}", target.display())))?;
        Ok(tmp)
    }
}

impl TableStore for LocalStore {
    fn list(&self, dir: &str) -> Result<Vec<String>> {
        let dir = self.root.join(dir);
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::from(e).context(format!("listing {}", dir.display()))),
        };
        let mut names = Vec::new();
        for entry in entries {
            let entry =
                entry.map_err(|e| Error::from(e).context(format!("listing {}", dir.display())))?;
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            if let (true, Some(name)) = (is_file, entry.file_name().to_str()) {
                names.push(name.to_string());
            }
        }
        Ok(names)
    }

    fn read(&self, path: &str) -> Result<Vec<u8>> {
        let full = self.full(path);
        std::fs::read(&full)
            .map_err(|e| Error::from(e).context(format!("reading {}", full.display())))
    }

    fn put_if_absent(&self, path: &str, bytes: &[u8]) -> Result<bool> {
        // Written whole beside the target, then hard-linked to its name: link() fails when the
        // name exists, so the commit is put-if-absent, and readers see all of it or nothing
        // (a `create_new` then write would let them see a partial commit).
        let target = self.full(path);
        let tmp = self.stage(&target, bytes)?;
        let linked = match std::fs::hard_link(tmp.path(), &target) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => false,
            Err(e) => {
                return Err(Error::from(e).context(format!("committing {}", target.display())))
            }
        };
        drop(tmp); // removes the staging name; the link keeps the content
        if linked {
            sync_dir(target.parent().unwrap_or(&self.root))?;
        }
        Ok(linked)
    }

    fn put(&self, path: &str, bytes: &[u8]) -> Result<()> {
        let target = self.full(path);
        let tmp = self.stage(&target, bytes)?;
        tmp.persist(&target)
            .map_err(|e| Error::from(e.error).context(format!("replacing {}", target.display())))?;
        sync_dir(target.parent().unwrap_or(&self.root))
    }

    fn delete(&self, path: &str) -> Result<()> {
        let full = self.full(path);
        match std::fs::remove_file(&full) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Error::from(e).context(format!("deleting {}", full.display()))),
        }
    }

    fn describe(&self) -> String {
        self.root.display().to_string()
    }
}

/// Makes a new name in `dir` durable (the entry, not only the file's bytes).
fn sync_dir(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| Error::from(e).context(format!("syncing {}", dir.display())))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_if_absent_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalStore::new(dir.path());
        assert!(store.list("log").unwrap().is_empty());
        assert!(store.put_if_absent("log/0.json", b"first\n").unwrap());
        assert!(!store.put_if_absent("log/0.json", b"second\n").unwrap());
        assert_eq!(store.read("log/0.json").unwrap(), b"first\n");
        assert_eq!(store.list("log").unwrap(), ["0.json"]);
        store.put("log/hint", b"a").unwrap();
        store.put("log/hint", b"b").unwrap();
        assert_eq!(store.read("log/hint").unwrap(), b"b");
        store.delete("log/hint").unwrap();
        store.delete("log/hint").unwrap();
        let err = store.read("log/9.json").unwrap_err();
        assert!(err.to_string().contains("9.json"), "{err}");
    }
}
