//! Helpers shared by the crate's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The parquet-testing corpus: `$PARQUET_TESTING`, else `shared/parquet-testing` beside the
/// workspace (where CI puts it), else the shared copy of the development machines.
pub fn corpus() -> PathBuf {
    if let Some(p) = std::env::var_os("PARQUET_TESTING") {
        return PathBuf::from(p);
    }
    let beside = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/parquet-testing"
    ));
    if beside.is_dir() {
        return beside;
    }
    PathBuf::from("/work/shared/parquet-testing")
}

/// The path of `data/<name>` in the corpus.
pub fn corpus_path(name: &str) -> PathBuf {
    corpus().join("data").join(name)
}

/// The bytes of `data/<name>` in the corpus.
pub fn corpus_file(name: &str) -> Vec<u8> {
    let path = corpus_path(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A Python with pyarrow and duckdb: `$PARQUET_SERDE_PYTHON`, else the workspace's `.venv`
/// (made by `bash .ci/run`), else the main checkout's.
pub fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("PARQUET_SERDE_PYTHON") {
        return PathBuf::from(p);
    }
    let candidates = [
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.venv/bin/python")),
        PathBuf::from("/work/main/.venv/bin/python"),
    ];
    candidates.into_iter().find(|p| p.exists()).unwrap_or_else(|| {
        panic!("these tests need Python with pyarrow and duckdb: create .venv (bash .ci/run) or set PARQUET_SERDE_PYTHON")
    })
}

/// Runs a Python script that writes a Parquet file to `sys.argv[1]`; the file's bytes.
pub fn python_file(script: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.parquet");
    let out = Command::new(python())
        .arg("-c")
        .arg(script)
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&path).unwrap()
}

/// Runs `f` on a thread of its own and says whether it panicked; fails (naming `what`) when
/// `f` has not returned within two minutes, so that a hang fails the test instead of
/// blocking it.
pub fn panicked_without_hanging<R>(what: &str, f: impl FnOnce() -> R + Send + 'static) -> bool {
    let (done, wait) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        let _ = done.send(run.is_err());
    });
    wait.recv_timeout(std::time::Duration::from_secs(120))
        .unwrap_or_else(|_| panic!("{what} hangs"))
}
