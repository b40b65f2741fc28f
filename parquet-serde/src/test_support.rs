//! Helpers shared by the unit tests.

use std::path::PathBuf;

/// The parquet-testing corpus: `$PARQUET_TESTING`, else `../shared/parquet-testing` beside
/// the repository (where CI and every checkout of the project put it).
pub(crate) fn corpus_dir() -> Option<PathBuf> {
    [
        std::env::var_os("PARQUET_TESTING").map(PathBuf::from),
        Some(PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/parquet-testing"
        ))),
    ]
    .into_iter()
    .flatten()
    .find(|p| p.join("data").is_dir())
}
