//! Corrupt Iceberg tables (feature `iceberg`): a table written by pyiceberg (through
//! testdata/iceberg_tables.py), then its metadata JSON, manifest list or manifest truncated,
//! byte-flipped or given huge counts. Opening and reading it is a clear error naming the
//! damaged file, or (for damage that leaves a valid file) the same rows; never a panic, a
//! hang, or rows silently lost.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use parquet_serde::dataset::Dataset;
use parquet_serde::record::Value;

/// A pristine "plain" table (3 files of 50 rows), written once per test.
fn pristine() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let (root, _) = common::iceberg::write_table("plain", &dir.path().join("w"), 3);
    (dir, root)
}

/// A copy of the table at `root` into a new folder (the manifests name files by their
/// absolute paths below the table location, which the reader maps below the copy).
fn copy(root: &Path) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("t");
    copy_dir(root, &to);
    (dir, to)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// The metadata files of kind `suffix` of the table: the newest metadata JSON, the
/// current snapshot's manifest list (`snap-*.avro`), its manifests (the other `*.avro`).
fn newest(root: &Path, pick: &dyn Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root.join("metadata"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| pick(p.file_name().unwrap().to_str().unwrap()))
        .collect();
    v.sort();
    v
}

fn read(root: &Path) -> parquet_serde::Result<Vec<Value>> {
    Dataset::open(root)?.read_all()
}

/// The file the current snapshot reads of each kind: the newest metadata JSON, its
/// current manifest list, and one manifest of it.
fn targets(root: &Path) -> Vec<(&'static str, PathBuf)> {
    let metadata = newest(root, &|n| n.ends_with(".metadata.json"))
        .pop()
        .unwrap();
    let text = std::fs::read_to_string(&metadata).unwrap();
    let m: serde_json::Value = serde_json::from_str(&text).unwrap();
    let current = m["current-snapshot-id"].as_i64().unwrap();
    let snap = m["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["snapshot-id"].as_i64() == Some(current))
        .unwrap();
    let list_name = Path::new(snap["manifest-list"].as_str().unwrap())
        .file_name()
        .unwrap()
        .to_owned();
    let list = root.join("metadata").join(list_name);
    // A manifest of the current snapshot: the table's three appends each wrote one, and
    // the current manifest list lists all three.
    let manifest = newest(root, &|n| n.ends_with(".avro") && !n.starts_with("snap-"))
        .into_iter()
        .next()
        .unwrap();
    vec![
        ("metadata", metadata),
        ("manifest list", list),
        ("manifest", manifest),
    ]
}

/// Asserts that reading the table is an error naming `file` (its file name), or, when
/// `may_read` and the damage left a valid file, exactly the 150 rows.
fn assert_named(root: &Path, file: &Path, what: &str, may_read: bool) {
    let name = file.file_name().unwrap().to_str().unwrap();
    let damaged = root.to_path_buf();
    let run = common::panicked_without_hanging(what, move || read(&damaged).map(|r| r.len()));
    assert!(!run, "{what}: panicked");
    match read(root) {
        Ok(n) => {
            assert!(may_read, "{what}: read {} rows, no error", n.len());
            assert_eq!(n.len(), 150, "{what}: rows lost or added without an error");
        }
        Err(e) => assert!(e.to_string().contains(name), "{what}: {e}"),
    }
}

#[test]
fn truncated_metadata_manifest_lists_and_manifests_are_errors_naming_the_file() {
    let (_keep, root) = pristine();
    assert_eq!(read(&root).unwrap().len(), 150);
    for (kind, _) in targets(&root) {
        let len = {
            let (_d, r) = copy(&root);
            let t = targets(&r);
            std::fs::metadata(&t.iter().find(|x| x.0 == kind).unwrap().1)
                .unwrap()
                .len()
        };
        let step = (len / 40).max(1);
        let mut cut = 0;
        while cut < len {
            let (_d, r) = copy(&root);
            let t = targets(&r);
            let file = &t.iter().find(|x| x.0 == kind).unwrap().1;
            let bytes = std::fs::read(file).unwrap();
            std::fs::write(file, &bytes[..cut as usize]).unwrap();
            // A metadata JSON cut anywhere is invalid JSON; an Avro file cut at a block
            // boundary is valid, with fewer records, which the counts catch: an error too.
            assert_named(&r, file, &format!("{kind} cut at {cut} of {len}"), false);
            cut += step;
        }
    }
}

#[test]
fn flipped_bytes_never_panic_and_errors_name_the_file() {
    let (_keep, root) = pristine();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for (kind, _) in targets(&root) {
        for round in 0..40 {
            let (_d, r) = copy(&root);
            let t = targets(&r);
            let file = t.iter().find(|x| x.0 == kind).unwrap().1.clone();
            let mut bytes = std::fs::read(&file).unwrap();
            for _ in 0..1 + next() % 4 {
                let i = (next() % bytes.len() as u64) as usize;
                bytes[i] ^= 1 << (next() % 8);
            }
            std::fs::write(&file, &bytes).unwrap();
            // A flip inside a value may leave a valid file that reads (a timestamp, a
            // size that does not match: then the data file is named); otherwise the error
            // names the damaged file or a data file it points at.
            let what = format!("{kind}: flip round {round}");
            let damaged = r.clone();
            assert!(
                !common::panicked_without_hanging(&what, move || read(&damaged).map(|v| v.len())),
                "{what}: panicked"
            );
            if let Err(e) = read(&r) {
                let text = e.to_string();
                let name = file.file_name().unwrap().to_str().unwrap();
                assert!(
                    text.contains(name) || text.contains(".parquet") || text.contains("metadata"),
                    "{what}: {e}"
                );
            }
        }
    }
}

/// An Avro block count or a length made huge: an error naming the file, without
/// allocating what the count claims.
#[test]
fn huge_counts_in_avro_files_are_errors_naming_the_file() {
    let (_keep, root) = pristine();
    for (kind, _) in targets(&root) {
        if kind == "metadata" {
            continue;
        }
        let (_d, r) = copy(&root);
        let t = targets(&r);
        let file = t.iter().find(|x| x.0 == kind).unwrap().1.clone();
        let bytes = std::fs::read(&file).unwrap();
        // The first data block follows the header's 16-byte sync marker; the marker
        // appears again after each block. Its count is the zigzag varint right after.
        let sync = &bytes[bytes.len() - 16..];
        let first = bytes
            .windows(16)
            .position(|w| w == sync)
            .expect("a sync marker")
            + 16;
        for huge in [
            // Zigzag varints: 2^62 records; then a byte size of 2^62.
            vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
            vec![
                0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
            ],
        ] {
            let mut damaged = bytes[..first].to_vec();
            damaged.extend_from_slice(&huge);
            damaged.extend_from_slice(&bytes[first + 2..]);
            std::fs::write(&file, &damaged).unwrap();
            assert_named(&r, &file, &format!("{kind}: huge count {huge:02x?}"), false);
        }
    }
}

#[test]
fn a_metadata_file_that_is_not_json_or_names_a_missing_snapshot_is_an_error() {
    let (_keep, root) = pristine();
    let (_d, r) = copy(&root);
    let t = targets(&r);
    let metadata = &t[0].1;
    let text = std::fs::read_to_string(metadata).unwrap();
    std::fs::write(metadata, "hello").unwrap();
    assert_named(&r, metadata, "not JSON", false);
    // `current-snapshot-id` naming no snapshot.
    let m: serde_json::Value = serde_json::from_str(&text).unwrap();
    let current = m["current-snapshot-id"].as_i64().unwrap();
    std::fs::write(
        metadata,
        text.replace(
            &format!("\"current-snapshot-id\": {current}"),
            "\"current-snapshot-id\": 7",
        )
        .replace(
            &format!("\"current-snapshot-id\":{current}"),
            "\"current-snapshot-id\":7",
        ),
    )
    .unwrap();
    assert_named(&r, metadata, "a missing current snapshot", false);
    // A data file removed: the error names it.
    std::fs::write(metadata, &text).unwrap();
    let first = Dataset::open(&r).unwrap().files()[0].path().to_path_buf();
    std::fs::remove_file(&first).unwrap();
    let e = read(&r).unwrap_err();
    assert!(e.to_string().contains(&first.display().to_string()), "{e}");
}
