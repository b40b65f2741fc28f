//! All-or-nothing files: write to a temporary file beside the destination, rename it over
//! the destination on success, remove it otherwise.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// A temporary file that becomes `dest` on [`commit`](Self::commit) and is removed when
/// dropped uncommitted.
#[derive(Debug)]
pub(crate) struct PendingFile {
    temp: PathBuf,
    dest: PathBuf,
    /// A second handle to the temporary file, to sync it before the rename.
    handle: File,
    committed: bool,
}

impl PendingFile {
    /// Creates the temporary file in `dest`'s directory; returns it with a handle to write.
    pub fn create(dest: &Path) -> Result<(PendingFile, File)> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let name = dest.file_name().ok_or_else(|| {
            Error::invalid_argument(format!("`{}` does not name a file", dest.display()))
        })?;
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut last_err = None;
        for _ in 0..16 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let mut temp_name = std::ffi::OsString::from(".");
            temp_name.push(name);
            temp_name.push(format!(".{}-{n}.tmp", std::process::id()));
            let temp = dir.join(temp_name);
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    let handle = file.try_clone().inspect_err(|_| {
                        let _ = std::fs::remove_file(&temp);
                    })?;
                    let pending = PendingFile {
                        temp,
                        dest: dest.to_path_buf(),
                        handle,
                        committed: false,
                    };
                    return Ok((pending, file));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last_err = Some(e),
                Err(e) => {
                    return Err(Error::from(e)
                        .context(format!("creating a temporary file in `{}`", dir.display())))
                }
            }
        }
        let e = last_err.unwrap_or_else(|| std::io::Error::other("no free temporary name"));
        Err(Error::from(e).context(format!("creating a temporary file in `{}`", dir.display())))
    }

    /// Syncs the temporary file and renames it to the destination.
    pub fn commit(mut self) -> Result<()> {
        self.handle.sync_all()?;
        std::fs::rename(&self.temp, &self.dest).map_err(|e| {
            Error::from(e).context(format!(
                "renaming the finished file to `{}`",
                self.dest.display()
            ))
        })?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        if !self.committed {
            // Best effort: the error of the write that failed is what the caller sees.
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn commit_renames_and_drop_removes() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("out.bin");
        let (pending, mut file) = PendingFile::create(&dest).unwrap();
        file.write_all(b"abc").unwrap();
        drop(file);
        assert!(!dest.exists());
        pending.commit().unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"abc");
        let (pending, _file) = PendingFile::create(&dest).unwrap();
        let temp = pending.temp.clone();
        assert!(temp.exists());
        drop(pending);
        assert!(!temp.exists());
        assert_eq!(std::fs::read(&dest).unwrap(), b"abc");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
