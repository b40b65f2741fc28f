//! Checking, before any row is read, that what is left of a predicate applies to every
//! selected file's schema: a column it names is a leaf of the file, and each literal
//! compares with its column's type.

use std::fs::File;

use crate::error::Result;
use crate::file::{FileReader, ReadOptions};
use crate::filter::{bind_predicate, Predicate};

use super::list::DataFile;

/// Binds each file's predicate to the file's schema (reading only its footer). The first
/// predicate that cannot apply fails, with the file's path. A file that cannot be opened
/// is left to the reading, which reports it in its turn.
pub(crate) fn check_files(
    files: &[(DataFile, Option<Predicate>)],
    options: &ReadOptions,
) -> Result<()> {
    for (file, predicate) in files {
        let Some(p) = predicate else { continue };
        let Ok(f) = File::open(file.path()) else {
            continue;
        };
        let Ok(reader) = FileReader::with_options(f, options.clone()) else {
            continue;
        };
        bind_predicate(p, reader.schema()).map_err(|e| e.context(file.path().display()))?;
    }
    Ok(())
}
