//! Where a table's log lives, and the one primitive that makes commits atomic: put-if-absent.
//!
//! A `LogStore` sees paths relative to the table root (`_delta_log/00000000000000000003.json`).
//! `LocalLogStore` is a folder; the object-store one sits beside it (feature `object_store`).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The log folder, relative to the table root.
pub(crate) const LOG_DIR: &str = "_delta_log";

/// What a file of `_delta_log/` is, by its name (PROTOCOL.md, "Delta Log Entries").
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LogFile {
    /// `00000000000000000010.json`
    Commit { version: u64 },
    /// `00000000000000000010.checkpoint.parquet` (`parts: None`), or part `part` of `parts`
    /// of a multi-part checkpoint `…10.checkpoint.0000000001.0000000003.parquet`.
    Checkpoint {
        version: u64,
        part: Option<(u32, u32)>,
    },
    /// `_last_checkpoint`
    LastCheckpoint,
    /// Anything else (`.crc` files, V2 checkpoints, log compactions, temporary files): not
    /// needed to replay the log with the features we read.
    Other,
}

impl LogFile {
    /// Classifies a file name of `_delta_log/` (the name alone, no folder).
    pub(crate) fn classify(name: &str) -> LogFile {
        if name == "_last_checkpoint" {
            return LogFile::LastCheckpoint;
        }
        let Some((digits, rest)) = name.split_once('.') else {
            return LogFile::Other;
        };
        if digits.len() != 20 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return LogFile::Other;
        }
        let Ok(version) = digits.parse::<u64>() else {
            return LogFile::Other;
        };
        if rest == "json" {
            return LogFile::Commit { version };
        }
        if rest == "checkpoint.parquet" {
            return LogFile::Checkpoint {
                version,
                part: None,
            };
        }
        let mut pieces = rest.split('.');
        if let (Some("checkpoint"), Some(p), Some(n), Some("parquet"), None) = (
            pieces.next(),
            pieces.next(),
            pieces.next(),
            pieces.next(),
            pieces.next(),
        ) {
            if p.len() == 10 && n.len() == 10 {
                if let (Ok(p), Ok(n)) = (p.parse::<u32>(), n.parse::<u32>()) {
                    if p >= 1 && p <= n {
                        return LogFile::Checkpoint {
                            version,
                            part: Some((p, n)),
                        };
                    }
                }
            }
        }
        LogFile::Other
    }
}

/// The relative path of commit `version`.
pub(crate) fn commit_path(version: u64) -> String {
    format!("{LOG_DIR}/{version:020}.json")
}

/// The relative path of the single-file checkpoint at `version`.
pub(crate) fn checkpoint_path(version: u64) -> String {
    format!("{LOG_DIR}/{version:020}.checkpoint.parquet")
}

/// Storage of a table: the log and the data files, by path relative to the table root.
pub(crate) trait LogStore: Send + Sync {
    /// The names (no folder) of the files in `_delta_log/`, in no particular order; an
    /// empty list when the folder does not exist.
    fn list_log(&self) -> Result<Vec<String>>;
    /// The whole content of a file; an error naming it when it is missing.
    fn read(&self, path: &str) -> Result<Vec<u8>>;
    /// Writes `bytes` at `path` only if nothing is there: `Ok(true)` when written,
    /// `Ok(false)` when another writer got there first. Readers never see a partial file.
    fn put_if_absent(&self, path: &str, bytes: &[u8]) -> Result<bool>;
    /// Writes `bytes` at `path`, replacing what is there, atomically (`_last_checkpoint`).
    fn put(&self, path: &str, bytes: &[u8]) -> Result<()>;
    /// Deletes a file; a file already gone is not an error.
    fn delete(&self, path: &str) -> Result<()>;
    /// Where the table is, for messages (`/data/logs`, `s3://bucket/prefix`).
    fn describe(&self) -> String;
}

/// A table in a local folder.
#[derive(Debug, Clone)]
pub(crate) struct LocalLogStore {
    root: PathBuf,
}

impl LocalLogStore {
    pub(crate) fn new(root: impl Into<PathBuf>) -> Self {
        LocalLogStore { root: root.into() }
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

impl LogStore for LocalLogStore {
    fn list_log(&self) -> Result<Vec<String>> {
        let dir = self.root.join(LOG_DIR);
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::from(e).context(format!("listing {}", dir.display()))),
        };
        let mut names = Vec::new();
        for entry in entries {
            let entry =
                entry.map_err(|e| Error::from(e).context(format!("listing {}", dir.display())))?;
            if let Some(name) = entry.file_name().to_str() {
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
    fn names_classify() {
        assert_eq!(
            LogFile::classify("00000000000000000010.json"),
            LogFile::Commit { version: 10 }
        );
        assert_eq!(
            LogFile::classify("00000000000000000010.checkpoint.parquet"),
            LogFile::Checkpoint {
                version: 10,
                part: None
            }
        );
        assert_eq!(
            LogFile::classify("00000000000000000010.checkpoint.0000000002.0000000003.parquet"),
            LogFile::Checkpoint {
                version: 10,
                part: Some((2, 3))
            }
        );
        assert_eq!(
            LogFile::classify("_last_checkpoint"),
            LogFile::LastCheckpoint
        );
        for other in [
            "00000000000000000010.crc",
            "0000000000000000010.json",
            "00000000000000000010.checkpoint.0000000004.0000000003.parquet",
            "00000000000000000001.00000000000000000009.compacted.json",
            ".tmp-x",
        ] {
            assert_eq!(LogFile::classify(other), LogFile::Other, "{other}");
        }
        assert_eq!(commit_path(3), "_delta_log/00000000000000000003.json");
    }

    #[test]
    fn put_if_absent_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalLogStore::new(dir.path());
        assert!(store.list_log().unwrap().is_empty());
        assert!(store.put_if_absent(&commit_path(0), b"first\n").unwrap());
        assert!(!store.put_if_absent(&commit_path(0), b"second\n").unwrap());
        assert_eq!(store.read(&commit_path(0)).unwrap(), b"first\n");
        assert_eq!(store.list_log().unwrap(), ["00000000000000000000.json"]);
        store.put("_delta_log/_last_checkpoint", b"a").unwrap();
        store.put("_delta_log/_last_checkpoint", b"b").unwrap();
        assert_eq!(store.read("_delta_log/_last_checkpoint").unwrap(), b"b");
        store.delete("_delta_log/_last_checkpoint").unwrap();
        store.delete("_delta_log/_last_checkpoint").unwrap();
        let err = store.read(&commit_path(9)).unwrap_err();
        assert!(
            err.to_string().contains("00000000000000000009.json"),
            "{err}"
        );
    }
}
