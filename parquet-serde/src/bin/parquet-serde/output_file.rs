//! All-or-nothing output files for `concat` and `rewrite`: the tool writes a temporary file
//! beside the destination and renames it over the destination only once it is complete, so a
//! failed run leaves no output file and an existing one as it was.

use std::fs::File;
use std::path::{Path, PathBuf};

use parquet_serde::Error;
use tempfile::NamedTempFile;

/// A temporary file that becomes `dest` on [`commit`](Self::commit); dropped uncommitted, it
/// is removed.
pub struct OutputFile {
    temp: NamedTempFile,
    dest: PathBuf,
}

impl OutputFile {
    /// Creates the temporary file in `dest`'s directory; returns it with a handle to write.
    /// On Unix the file gets the mode a plain `File::create` would, not `tempfile`'s `0o600`.
    pub fn create(dest: &Path) -> Result<(OutputFile, File), Error> {
        if dest.file_name().is_none() {
            return Err(Error::invalid_argument(format!(
                "`{}` does not name a file",
                dest.display()
            )));
        }
        let dir = directory_of(dest);
        let in_dir = |e: std::io::Error| {
            Error::from(e).context(format!("creating a temporary file in `{}`", dir.display()))
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".parquet-serde.").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let temp = builder.tempfile_in(dir).map_err(in_dir)?;
        let file = temp.as_file().try_clone().map_err(in_dir)?;
        let dest = dest.to_path_buf();
        Ok((OutputFile { temp, dest }, file))
    }

    /// Syncs the temporary file, then renames it to the destination; on failure the temporary
    /// file is removed and the destination is left as it was.
    pub fn commit(self) -> Result<(), Error> {
        self.temp.as_file().sync_all()?;
        let dest = self.dest;
        self.temp.persist(&dest).map_err(|e| {
            Error::from(e.error).context(format!(
                "renaming the finished file to `{}`",
                dest.display()
            ))
        })?;
        #[cfg(unix)]
        {
            let dir = directory_of(&dest);
            File::open(dir)
                .and_then(|d| d.sync_all())
                .map_err(|e| Error::from(e).context(format!("syncing `{}`", dir.display())))?;
        }
        Ok(())
    }
}

/// The directory `dest` sits in (`.` for a bare file name).
fn directory_of(dest: &Path) -> &Path {
    match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}
