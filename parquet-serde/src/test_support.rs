//! Helpers shared by the unit tests.

use std::path::{Path, PathBuf};

/// What the corpus folder is, for the message of a test that cannot find a file in it.
const CORPUS: &str = "the parquet-testing corpus: the files of apache/parquet-testing the suite \
                      reads, vendored in the repository under testdata/parquet-testing (see its \
                      README.md), or a fuller copy named by $PARQUET_TESTING";

/// The parquet-testing corpus: `$PARQUET_TESTING` when set (a fuller copy, same layout),
/// else `testdata/parquet-testing` in the repository. Fails the test, naming the folder, when
/// it has no `data/`.
pub(crate) fn corpus_dir() -> PathBuf {
    let dir = match std::env::var_os("PARQUET_TESTING") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the crate sits in the workspace")
            .join("testdata/parquet-testing"),
    };
    assert!(
        dir.join("data").is_dir(),
        "{}: no data/ folder; expected {CORPUS}",
        dir.display()
    );
    dir
}

/// The bytes of `relative` (such as `data/alltypes_plain.parquet`) in the corpus; fails the
/// test naming the path when it cannot be read.
pub(crate) fn corpus_file(relative: &str) -> Vec<u8> {
    let path = corpus_dir().join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}; expected {CORPUS}", path.display()))
}

/// The files of `dir` (a folder of the corpus, such as `data/aes256`), sorted; fails the test
/// naming the folder when it cannot be listed.
pub(crate) fn corpus_files(relative: &str) -> Vec<PathBuf> {
    let dir = corpus_dir().join(relative);
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}; expected {CORPUS}", dir.display()));
    let mut out: Vec<PathBuf> = entries
        .map(|e| e.expect("a corpus folder's entry").path())
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}
