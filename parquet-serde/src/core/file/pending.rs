//! All-or-nothing files: write to a temporary file beside the destination (`tempfile`), sync
//! it and rename it over the destination on success, remove it otherwise. The destination
//! appears only complete, and an existing file there is replaced only by a complete one.

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::error::{Error, Result};

/// A temporary file that becomes `dest` on [`commit`](Self::commit) and is removed when
/// dropped uncommitted: what [`to_path`](crate::to_path) and compaction write
/// through, so that a failed write leaves no file and an existing one stays as it was.
#[derive(Debug)]
pub(crate) struct PendingFile {
    temp: NamedTempFile,
    dest: PathBuf,
}

impl PendingFile {
    /// Creates the temporary file (`.NAME.XXXXXX.tmp`) in `dest`'s directory; returns it with
    /// a handle to write. On Unix the file gets the mode a plain `File::create` would
    /// (`0o666` less the umask), not `tempfile`'s private `0o600`, since it becomes the
    /// destination.
    ///
    /// Fails when `dest` names no file (`/`, `..`) or its directory does not exist.
    pub fn create(dest: &Path) -> Result<(PendingFile, File)> {
        let name = dest.file_name().ok_or_else(|| {
            Error::invalid_argument(format!("`{}` does not name a file", dest.display()))
        })?;
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut prefix = OsString::from(".");
        prefix.push(name);
        prefix.push(".");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let in_dir = |e: std::io::Error| {
            Error::from(e).context(format!("creating a temporary file in `{}`", dir.display()))
        };
        let temp = builder.tempfile_in(dir).map_err(in_dir)?;
        // Dropping `temp` on the error path removes the file.
        let file = temp.as_file().try_clone().map_err(in_dir)?;
        Ok((
            PendingFile {
                temp,
                dest: dest.to_path_buf(),
            },
            file,
        ))
    }

    /// Syncs the temporary file to disk, then renames it to the destination. On failure the
    /// temporary file is removed and the destination is left as it was.
    pub fn commit(self) -> Result<()> {
        self.temp.as_file().sync_all()?;
        let dest = self.dest;
        // A failed persist hands the temporary file back; dropping it removes it.
        self.temp.persist(&dest).map_err(|e| {
            Error::from(e.error).context(format!(
                "renaming the finished file to `{}`",
                dest.display()
            ))
        })?;
        // The rename survives a crash once the directory's entry is on disk too.
        #[cfg(unix)]
        {
            let dir = match dest.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            File::open(dir)
                .and_then(|d| d.sync_all())
                .map_err(|e| Error::from(e).context(format!("syncing `{}`", dir.display())))?;
        }
        Ok(())
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
        let temp = pending.temp.path().to_path_buf();
        assert!(temp.exists());
        let temp_name = temp.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            temp_name.starts_with(".out.bin.") && temp_name.ends_with(".tmp"),
            "{temp_name}"
        );
        drop(pending);
        assert!(!temp.exists());
        assert_eq!(std::fs::read(&dest).unwrap(), b"abc");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn missing_directory_or_no_file_name_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let e = PendingFile::create(&dir.path().join("no/such/dir/out.bin")).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Io);
        assert!(PendingFile::create(Path::new("/")).is_err());
    }

    #[test]
    fn failed_commit_leaves_the_destination_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // A directory in the way: the rename fails.
        let dest = dir.path().join("taken");
        std::fs::create_dir(&dest).unwrap();
        std::fs::write(dest.join("inside"), b"x").unwrap();
        let (pending, mut file) = PendingFile::create(&dest).unwrap();
        file.write_all(b"abc").unwrap();
        assert!(pending.commit().is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![OsString::from("taken")]);
        assert!(dest.is_dir());
    }

    #[test]
    fn bad_destinations_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let e = PendingFile::create(Path::new("/")).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::InvalidArgument);
        let missing = dir.path().join("no").join("such").join("f");
        assert!(PendingFile::create(&missing).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn the_file_gets_the_mode_of_a_created_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        File::create(&plain).unwrap();
        let dest = dir.path().join("atomic");
        let (pending, _file) = PendingFile::create(&dest).unwrap();
        pending.commit().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dest), mode(&plain));
    }
}
