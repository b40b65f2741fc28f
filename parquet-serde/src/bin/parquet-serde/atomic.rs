//! Output files written whole or not at all: the bytes go to a temporary file in the target's
//! directory, which [`AtomicFile::commit`] syncs and renames over the target. Dropping an
//! uncommitted `AtomicFile` removes the temporary file, so a failed command leaves neither a
//! partial target nor a stray temporary file, and an existing target stays as it was.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use parquet_serde::Error;
use tempfile::NamedTempFile;

/// A file being written in place of `path`.
#[derive(Debug)]
pub struct AtomicFile {
    temp: NamedTempFile,
    path: PathBuf,
}

impl AtomicFile {
    /// Starts writing `path`: creates a temporary file `.NAME.XXXXXX.tmp` next to it.
    pub fn create(path: &Path) -> Result<Self, Error> {
        let context = |e: io::Error| Error::from(e).context(path.display());
        let name = path.file_name().ok_or_else(|| {
            Error::invalid_argument(format!("{}: not a file name", path.display()))
        })?;
        let dir = match path.parent() {
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
            // What `File::create` would give a new file (less the umask), not 0600.
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let temp = builder.tempfile_in(dir).map_err(context)?;
        Ok(AtomicFile {
            temp,
            path: path.to_path_buf(),
        })
    }

    /// Syncs the bytes written to disk and renames the temporary file over the target (then
    /// syncs the directory, so the rename survives a crash).
    pub fn commit(mut self) -> Result<(), Error> {
        let context = |e: io::Error| Error::from(e).context(self.path.display());
        self.temp.flush().map_err(context)?;
        self.temp.as_file().sync_all().map_err(context)?;
        let path = self.path.clone();
        self.temp
            .persist(&path)
            .map_err(|e| Error::from(e.error).context(path.display()))?;
        #[cfg(unix)]
        {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            File::open(dir)
                .and_then(|d| d.sync_all())
                .map_err(|e| Error::from(e).context(dir.display()))?;
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.temp.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.temp.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.temp.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn commit_replaces_drop_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.bin");
        std::fs::write(&out, b"old").unwrap();

        let mut f = AtomicFile::create(&out).unwrap();
        f.write_all(b"new bytes").unwrap();
        // Not visible before the commit.
        assert_eq!(std::fs::read(&out).unwrap(), b"old");
        assert_eq!(names(dir.path()).len(), 2);
        drop(f);
        assert_eq!(std::fs::read(&out).unwrap(), b"old");
        assert_eq!(names(dir.path()), vec!["out.bin"]);

        let mut f = AtomicFile::create(&out).unwrap();
        f.write_all(b"new bytes").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"new bytes");
        assert_eq!(names(dir.path()), vec!["out.bin"]);
    }

    #[test]
    fn missing_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let e = AtomicFile::create(&dir.path().join("no/such/dir/out.bin")).unwrap_err();
        assert_eq!(e.kind(), parquet_serde::ErrorKind::Io);
        assert!(AtomicFile::create(Path::new("/")).is_err());
    }
}
