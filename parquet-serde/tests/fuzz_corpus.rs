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
