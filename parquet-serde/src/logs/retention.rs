//! Retention: deletes the oldest final files under a log folder beyond a count, an age or
//! a total size. Files being written, journals and anything else are never touched.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::error::{Error, Result};

use super::names::{self, Kind};

/// How many final files to keep.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Retention {
    /// At most this many files.
    pub files: Option<usize>,
    /// Files made final at most this long ago.
    pub age: Option<Duration>,
    /// At most this many bytes in all.
    pub bytes: Option<u64>,
}

impl Retention {
    /// Whether any limit is set.
    pub fn is_set(&self) -> bool {
        self.files.is_some() || self.age.is_some() || self.bytes.is_some()
    }
}

/// A final file: its name (which starts with its UTC time), path, size and modification time.
pub(crate) struct Final {
    /// The file name.
    pub name: String,
    /// Its path.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// When it was last modified (made final).
    pub modified: SystemTime,
}

/// Every final file under `dir`, oldest first (by the time in its name).
pub(crate) fn final_files(dir: &Path) -> Result<Vec<Final>> {
    let mut out = Vec::new();
    names::walk(dir, |_, entry| {
        // Entries that cannot be read are left out (and so never deleted).
        let Ok((entry, Kind::Final)) = entry else {
            return Ok(());
        };
        let Ok(meta) = entry.metadata() else {
            return Ok(());
        };
        out.push(Final {
            name: entry.file_name().to_string_lossy().into_owned(),
            path: entry.path(),
            size: meta.len(),
            modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        });
        Ok(())
    })?;
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// The final files under `dir` that `keep` does not keep, oldest first.
pub(crate) fn select(dir: &Path, keep: &Retention) -> Result<Vec<Final>> {
    if !keep.is_set() {
        return Ok(Vec::new());
    }
    let files = final_files(dir)?;
    let now = SystemTime::now();
    let mut total: u64 = files.iter().map(|f| f.size).sum();
    let mut left = files.len();
    let mut out = Vec::new();
    for f in files {
        let too_old = keep
            .age
            .is_some_and(|age| now.duration_since(f.modified).is_ok_and(|d| d > age));
        let too_many = keep.files.is_some_and(|n| left > n);
        let too_big = keep.bytes.is_some_and(|n| total > n);
        if !(too_old || too_many || too_big) {
            continue;
        }
        total -= f.size;
        left -= 1;
        out.push(f);
    }
    Ok(out)
}

/// Deletes the final files under `dir` that `keep` does not keep; returns them. Folders
/// left empty below `dir` are removed too.
pub(crate) fn apply(dir: &Path, keep: &Retention) -> Result<Vec<PathBuf>> {
    let mut deleted = Vec::new();
    for f in select(dir, keep)? {
        std::fs::remove_file(&f.path)
            .map_err(|e| Error::from(e).context(format!("removing `{}`", f.path.display())))?;
        if let Some(parent) = f.path.parent() {
            remove_empty_up_to(parent, dir);
        }
        deleted.push(f.path);
    }
    Ok(deleted)
}

/// Removes `folder` and its parents while they are empty, stopping at `root`.
pub(crate) fn remove_empty_up_to(folder: &Path, root: &Path) {
    let mut at = folder;
    while at != root && at.starts_with(root) {
        // Fails (and stops) when the folder is not empty.
        if std::fs::remove_dir(at).is_err() {
            return;
        }
        match at.parent() {
            Some(p) => at = p,
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_and_never_touches_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |rel: &str, bytes: usize| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, vec![0u8; bytes]).unwrap();
        };
        write(
            "date=2026-01-01/part-20260101T000000.000000Z-1-a.parquet",
            100,
        );
        write(
            "date=2026-01-02/part-20260102T000000.000000Z-1-b.parquet",
            100,
        );
        write(
            "date=2026-01-03/part-20260103T000000.000000Z-1-c.parquet",
            100,
        );
        write(
            "date=2026-01-01/_part-20260101T000001.000000Z-1-d.journal",
            100,
        );
        write("notes.txt", 100);
        let gone = apply(
            root,
            &Retention {
                files: Some(2),
                ..Retention::default()
            },
        )
        .unwrap();
        assert_eq!(gone.len(), 1);
        assert!(gone[0].ends_with("part-20260101T000000.000000Z-1-a.parquet"));
        // The folder still holds the journal.
        assert!(root.join("date=2026-01-01").exists());
        let gone = apply(
            root,
            &Retention {
                bytes: Some(150),
                ..Retention::default()
            },
        )
        .unwrap();
        assert_eq!(gone.len(), 1);
        assert!(!root.join("date=2026-01-02").exists());
        assert!(root.join("notes.txt").exists());
        let last = root.join("date=2026-01-03/part-20260103T000000.000000Z-1-c.parquet");
        std::fs::File::options()
            .write(true)
            .open(&last)
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_secs(3600))
            .unwrap();
        let minute = Some(Duration::from_secs(60));
        let gone = apply(
            root,
            &Retention {
                age: minute,
                ..Retention::default()
            },
        )
        .unwrap();
        assert_eq!(gone.len(), 1);
        assert!(root.join("date=2026-01-01").exists());
        assert!(apply(root, &Retention::default()).unwrap().is_empty());
    }
}
