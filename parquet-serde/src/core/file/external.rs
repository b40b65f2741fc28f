//! External column chunks: a `ColumnChunk` whose `file_path` names the file holding its
//! pages, resolved relative to the folder of the file whose footer names it.

use std::borrow::Cow;
use std::fs::File;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

use super::ChunkReader;

/// Where external column chunks may be read from (part of [`ReadOptions`](super::ReadOptions)).
#[derive(Debug, Clone, Default)]
pub(crate) struct ExternalFiles {
    /// The file being read.
    pub location: Option<PathBuf>,
    /// Absolute paths and paths leaving the file's folder are allowed.
    pub allow_any_path: bool,
}

impl ExternalFiles {
    /// The path of the file `file_path` names: relative to the folder of the file being
    /// read, and, unless allowed, neither absolute nor leaving that folder.
    pub fn resolve(&self, file_path: &str) -> Result<PathBuf> {
        let named = Path::new(file_path);
        if file_path.is_empty() || file_path.contains('\0') {
            return Err(Error::corrupt(format!(
                "column chunk file_path {file_path:?} is not a path"
            )));
        }
        let escapes = named.components().any(|c| {
            matches!(
                c,
                Component::RootDir | Component::Prefix(_) | Component::ParentDir
            )
        });
        if escapes && !self.allow_any_path {
            return Err(Error::unsupported(format!(
                "column chunk data in {file_path:?}: absolute paths and paths leaving the \
                 folder of the file being read are refused (ReadOptions::allow_external_paths \
                 allows them)"
            )));
        }
        if named.is_absolute() {
            return Ok(named.to_path_buf());
        }
        let Some(location) = &self.location else {
            return Err(Error::unsupported(format!(
                "column chunk data in {file_path:?}, relative to a file whose location is not \
                 known: open the file by path (from_path) or set ReadOptions::file_location"
            )));
        };
        let folder = location.parent().unwrap_or(Path::new(""));
        Ok(folder.join(named))
    }

    /// `len` bytes at `start` of the file `file_path` names.
    pub fn read(&self, file_path: &str, start: u64, len: usize) -> Result<Cow<'static, [u8]>> {
        let path = self.resolve(file_path)?;
        let context =
            |e: Error| e.context(format!("external column chunk file {}", path.display()));
        let file = File::open(&path).map_err(|e| context(Error::from(e)))?;
        let bytes = file.read_range(start, len).map_err(context)?;
        Ok(Cow::Owned(bytes.into_owned()))
    }
}
