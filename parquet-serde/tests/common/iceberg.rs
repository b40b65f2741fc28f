//! pyiceberg 0.12 as a subprocess, through testdata/iceberg_tables.py: tables it writes
//! (SqlCatalog on SQLite) and what it reads of any table (the newest metadata file of a
//! folder, as `StaticTable`): rows, snapshots, files, scan plans.

use std::path::{Path, PathBuf};

/// Runs testdata/iceberg_tables.py with `args`; its output lines. Fails the test with
/// Python's stderr unless it succeeds.
pub fn pyiceberg(args: &[&str]) -> Vec<String> {
    let out = std::process::Command::new(super::python())
        .arg(super::testdata().join("iceberg_tables.py"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "iceberg_tables.py {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A table of `kind` (see the script) written by pyiceberg with random data from `seed`
/// into `warehouse`: its root and snapshot ids.
pub fn write_table(kind: &str, warehouse: &Path, seed: u64) -> (PathBuf, Vec<u64>) {
    let out = pyiceberg(&[
        "write",
        kind,
        &warehouse.display().to_string(),
        &seed.to_string(),
    ]);
    let info: serde_json::Value = serde_json::from_str(out.last().unwrap()).unwrap();
    let snapshots = info["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    (PathBuf::from(info["root"].as_str().unwrap()), snapshots)
}

/// The rows pyiceberg scans of the table at `root` at `snapshot` (the current one when
/// `None`), in the `cat` JSON mapping, in scan order.
pub fn rows(root: &Path, snapshot: Option<u64>) -> Vec<serde_json::Value> {
    let root = root.display().to_string();
    let s = snapshot.map(|v| v.to_string());
    let mut args = vec!["rows", root.as_str()];
    args.extend(s.as_deref());
    pyiceberg(&args)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// What pyiceberg sees of the table at `root`: its snapshots as `(id, operation)` and the
/// current snapshot's data files (URIs, sorted).
pub fn info(root: &Path) -> (Vec<(u64, String)>, Vec<String>) {
    let out = pyiceberg(&["info", &root.display().to_string()]);
    let v: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    let snapshots = v["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_u64().unwrap(),
                s["operation"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let files = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    (snapshots, files)
}
