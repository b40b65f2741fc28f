//! Replays the checked-in fuzz corpus (`fuzz/corpus/<target>/`: inputs that once crashed or
//! hung a target, minimised, and a few small interesting ones) through the very target
//! bodies the AFL binaries run (`fuzz/targets.rs`): each must return, without a panic,
//! within a time bound.

#[path = "../fuzz/targets.rs"]
mod targets;

mod common;

use std::path::PathBuf;

fn corpus_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target)
}

#[test]
fn checked_in_fuzz_corpus_replays_cleanly() {
    let mut replayed = 0;
    for &(name, target) in targets::TARGETS {
        let dir = corpus_dir(name);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            panic!("no corpus for target {name} at {}", dir.display());
        };
        let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        assert!(!files.is_empty(), "empty corpus for target {name}");
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            let what = format!("{name} on {}", path.display());
            let panicked = common::panicked_without_hanging(&what, move || target(&bytes));
            assert!(!panicked, "{what} panicked");
            replayed += 1;
        }
    }
    assert!(replayed >= targets::TARGETS.len());
}

#[test]
fn typed_target_seeds_read_back_whole() {
    // The typed target's seeds are files the library writes from `typed_rows`: each must read
    // back into the same rows (so the fuzzer starts from inputs that get past the schema
    // match into row assembly), and into the two-column projection.
    let rows = targets::typed_rows(40);
    let seeds = targets::typed_seeds();
    assert_eq!(seeds.len(), 4);
    for (name, bytes) in &seeds {
        for threads in [1, 2] {
            let options = parquet_serde::ReadOptions::default().threads(threads);
            let back: Vec<targets::TypedRow> = parquet_serde::from_slice_with(bytes, options)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(back == rows, "{name} with {threads} threads");
        }
        let names: Vec<targets::TypedProjection> = parquet_serde::from_slice(bytes).unwrap();
        assert_eq!(names.len(), rows.len(), "{name}");
        assert!(names
            .iter()
            .zip(&rows)
            .all(|(p, r)| p.name == r.name && p.attrs == r.attrs));
        let panicked = common::panicked_without_hanging(name, {
            let bytes = bytes.clone();
            move || targets::typed(&bytes)
        });
        assert!(!panicked, "{name}");
    }
}
