//! Helpers shared by the unit tests.

use std::path::PathBuf;

/// The parquet-testing corpus: `$PARQUET_TESTING`, else `shared/parquet-testing` next to the
/// workspace (where CI puts it), else the shared copy of the development machines.
pub(crate) fn corpus_dir() -> Option<PathBuf> {
    [
        std::env::var_os("PARQUET_TESTING").map(PathBuf::from),
        Some(PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/parquet-testing"
        ))),
        Some(PathBuf::from("/work/shared/parquet-testing")),
    ]
    .into_iter()
    .flatten()
    .find(|p| p.join("data").is_dir())
}
