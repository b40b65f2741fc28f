//! Outputs that appear only complete: written to a temporary file beside the destination,
//! synced, then renamed over it; an error or an early exit leaves the destination as it was.

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};

use parquet_serde::Error;
use tempfile::NamedTempFile;

/// A temporary file that becomes `dest` on [`commit`](Self::commit).
pub struct AtomicOutput {
    temp: NamedTempFile,
    dest: PathBuf,
}

impl AtomicOutput {
    /// Creates `.NAME.XXXXXX.tmp` in `dest`'s folder (mode 0o666 less the umask, as a plain
    /// create would give the destination); returns it with a handle to write.
    pub fn create(dest: &Path) -> parquet_serde::Result<(AtomicOutput, File)> {
        let name = dest.file_name().ok_or_else(|| {
            Error::invalid_argument(format!("`{}` does not name a file", dest.display()))
        })?;
        let dir = folder_of(dest);
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
        let file = temp.as_file().try_clone().map_err(in_dir)?;
        let dest = dest.to_path_buf();
        Ok((AtomicOutput { temp, dest }, file))
    }

    /// Syncs the file, renames it to the destination and syncs the folder's entry.
    pub fn commit(self) -> parquet_serde::Result<()> {
        self.temp.as_file().sync_all()?;
        let dest = self.dest;
        self.temp.persist(&dest).map_err(|e| {
            Error::from(e.error).context(format!("renaming the output to `{}`", dest.display()))
        })?;
        #[cfg(unix)]
        {
            let dir = folder_of(&dest);
            File::open(dir)
                .and_then(|d| d.sync_all())
                .map_err(|e| Error::from(e).context(format!("syncing `{}`", dir.display())))?;
        }
        Ok(())
    }
}

fn folder_of(dest: &Path) -> &Path {
    match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}
