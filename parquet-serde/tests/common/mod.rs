//! Helpers shared by every integration test of the workspace: the tests of
//! `parquet-serde/tests/` declare it with `mod common;`, those of the root package's `tests/`
//! with `#[path = "../parquet-serde/tests/common/mod.rs"] mod common;`.
//!
//! Where tests live: a test that needs only the library (and data it builds itself) is in
//! `parquet-serde/tests/`; a test that needs anything outside the crate (the vendored
//! parquet-testing corpus or regression files under `testdata/`, or a reference engine such
//! as pyarrow or DuckDB run as a subprocess) is in `tests/`. Tests that run the
//! `parquet-serde` binary are in `parquet-serde/tests/` whatever they read, because Cargo
//! builds a binary only for its own package's tests.
//!
//! Fixture files are in the repository, so a clone runs the suite:
//! - `testdata/parquet-testing/`: the files of apache/parquet-testing (Apache-2.0) the suite
//!   reads, unmodified ([`corpus`]; its README.md says which, the origin and the keys of the
//!   encrypted files). `$PARQUET_TESTING` may name a fuller copy with the same layout.
//! - `testdata/regressions/`: files that once broke the library ([`regressions`]).
//!
//! A missing fixture fails the test with the path it looked at and what that folder is: no
//! test skips for want of one.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use parquet_serde::core::file::{FileReader, ReadOptions};
use parquet_serde::record::Value;

pub mod iceberg;
pub mod logs;
pub mod moto;

/// Every file below `dir`, in every folder under it (paths that start with `dir`), in no
/// particular order.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(f) = folders.pop() {
        for e in std::fs::read_dir(&f).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                folders.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Whether `path` names a final log file (`part-*.parquet`), not a journal or a temporary
/// file.
pub fn is_final_log_file(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    name.starts_with("part-") && name.ends_with(".parquet")
}

/// Every file of a log folder (`logs::LogWriter`, the tracing layer), in every partition
/// below `dir`, sorted by file name (oldest first); fails on a file that is not final (a
/// journal or a temporary file left behind).
pub fn final_log_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = files_below(dir);
    for p in &out {
        assert!(
            is_final_log_file(p),
            "a file that is not final is left: {}",
            p.display()
        );
    }
    out.sort_by_key(|p| p.file_name().unwrap().to_owned());
    out
}

/// What the corpus folder is, for the message of a test that cannot find a file in it.
const CORPUS: &str = "the parquet-testing corpus: the files of apache/parquet-testing the suite \
                      reads, vendored in the repository under testdata/parquet-testing (see its \
                      README.md), or a fuller copy named by $PARQUET_TESTING";

/// What the regressions folder is, for the same purpose.
const REGRESSIONS: &str = "the regression files: files that once broke the library, in the \
                           repository under testdata/regressions (see its README.md)";

/// The repository's root (the workspace), whichever package includes this module.
pub fn repo() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if manifest.join("Cargo.lock").exists() {
        manifest
    } else {
        manifest
            .parent()
            .expect("a package of the workspace sits in the repository")
            .to_path_buf()
    }
}

/// The parquet-testing corpus: `$PARQUET_TESTING` when set (a fuller copy, same layout),
/// else `testdata/parquet-testing` in the repository, where the files the suite reads are
/// vendored. Fails the test, naming the folder, when it has no `data/`.
pub fn corpus() -> PathBuf {
    let dir = match std::env::var_os("PARQUET_TESTING") {
        Some(p) => PathBuf::from(p),
        None => testdata().join("parquet-testing"),
    };
    assert!(
        dir.join("data").is_dir(),
        "{}: no data/ folder; expected {CORPUS}",
        dir.display()
    );
    dir
}

/// The folder `relative` of the corpus (such as `bad_data` or `data/geospatial`); fails the
/// test, naming the path, when it is not there.
pub fn corpus_dir(relative: &str) -> PathBuf {
    let dir = corpus().join(relative);
    assert!(
        dir.is_dir(),
        "{}: no such folder; expected {CORPUS}",
        dir.display()
    );
    dir
}

/// The path of `data/<name>` in the corpus.
pub fn corpus_path(name: &str) -> PathBuf {
    corpus().join("data").join(name)
}

/// The bytes of `data/<name>` in the corpus.
pub fn corpus_file(name: &str) -> Vec<u8> {
    read(&corpus_path(name))
}

/// The regressions folder: `testdata/regressions` in the repository.
pub fn regressions() -> PathBuf {
    testdata().join("regressions")
}

/// The path of `<name>` in the regressions folder.
pub fn regression_path(name: &str) -> PathBuf {
    regressions().join(name)
}

/// The bytes of `<name>` in the regressions folder.
pub fn regression_file(name: &str) -> Vec<u8> {
    read(&regression_path(name))
}

/// The bytes of the fixture at `path`; fails the test naming the path and, for a file of
/// the corpus or of the regressions, what that folder is.
pub fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}{}", path.display(), what(path)))
}

/// The text of the fixture at `path`; fails as [`read`] does.
pub fn read_to_string(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}{}", path.display(), what(path)))
}

/// What the folder holding `path` is, as the end of a failure message.
fn what(path: &Path) -> String {
    let corpus = std::env::var_os("PARQUET_TESTING")
        .map(PathBuf::from)
        .unwrap_or_else(|| testdata().join("parquet-testing"));
    if path.starts_with(&corpus) {
        format!("; expected {CORPUS}")
    } else if path.starts_with(regressions()) {
        format!("; expected {REGRESSIONS}")
    } else {
        String::new()
    }
}

/// The project's testdata directory.
pub fn testdata() -> PathBuf {
    repo().join("testdata")
}

/// The Python interpreter with pyarrow and duckdb: `$PARQUET_SERDE_PYTHON`, else the
/// project's `.venv`. Panics with the setup command when neither exists.
pub fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("PARQUET_SERDE_PYTHON") {
        return PathBuf::from(p);
    }
    let venv = repo().join(".venv/bin/python");
    assert!(
        venv.exists(),
        "interop tests need Python with pyarrow and duckdb: run `bash .ci/run` once (it creates .venv), \
         or set PARQUET_SERDE_PYTHON"
    );
    venv
}

/// Runs the project's Python with `args` (a script file, or `-c` and a script, then its
/// arguments) and parses the JSON lines it prints; fails the test with Python's stderr
/// unless it succeeds.
pub fn python_json_lines<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(
    args: &[S],
) -> Vec<serde_json::Value> {
    let out = Command::new(python()).args(args).output().expect("python");
    assert!(
        out.status.success(),
        "python {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Runs the project's Python on `script` (as `-c`) with `args` as `sys.argv[1..]`; its
/// standard output. Fails the test with Python's stderr unless the script succeeds.
pub fn run_python<S: AsRef<std::ffi::OsStr>>(script: &str, args: &[S]) -> Vec<u8> {
    let out = Command::new(python())
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs a Python script that writes a Parquet file to `sys.argv[1]`; the file's bytes.
pub fn python_file(script: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.parquet");
    run_python(script, &[&path]);
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

/// Every row of `bytes` as JSON lines (the `cat` mapping), reading all columns.
pub fn rows_json(bytes: Vec<u8>, options: ReadOptions) -> parquet_serde::Result<Vec<String>> {
    let reader = FileReader::with_options(bytes, options)?;
    let mut lines = Vec::new();
    for row in parquet_serde::Reader::<_, Value>::from_file_reader(reader)? {
        let mut s = String::new();
        row?.write_json(&mut s);
        lines.push(s);
    }
    Ok(lines)
}

/// JSON equality where numbers compare by value (1 == 1.0) and everything else exactly.
pub fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (a, b) {
        (J::Number(x), J::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(p), Some(q), _, _) => p == q,
            (_, _, Some(p), Some(q)) => p == q,
            _ => x.as_f64() == y.as_f64(),
        },
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (J::Object(x), J::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k1, v1), (k2, v2))| k1 == k2 && json_eq(v1, v2))
        }
        _ => a == b,
    }
}

/// Rows of `files` as read by `engine` ("pyarrow" or "duckdb") through
/// testdata/read_with.py, in the `cat` JSON mapping: one entry per file, with its rows or
/// the engine's error.
pub fn read_with(
    engine: &str,
    files: &[PathBuf],
) -> Vec<(String, Result<Vec<serde_json::Value>, String>)> {
    let out = std::process::Command::new(python())
        .arg(testdata().join("read_with.py"))
        .arg(engine)
        .args(files)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "{engine}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut result: Vec<(String, Result<Vec<serde_json::Value>, String>)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("== ") {
            match rest.split_once(" ERROR ") {
                Some((f, e)) => result.push((f.to_string(), Err(e.to_string()))),
                None => result.push((rest.to_string(), Ok(vec![]))),
            }
        } else if let Some((_, Ok(rows))) = result.last_mut() {
            rows.push(serde_json::from_str(line).unwrap());
        }
    }
    result
}
