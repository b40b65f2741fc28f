//! Malformed input: every file in parquet-testing/bad_data, every truncation and many
//! corruptions of valid files give `Err` (or, for corruptions the format cannot detect,
//! some rows) — never a panic or a hang.

mod common;

use std::time::{Duration, Instant};

use common::{corpus, rows_json};
use parquet_serde::ReadOptions;

fn read_everything(bytes: Vec<u8>) -> parquet_serde::Result<usize> {
    rows_json(bytes, ReadOptions::default()).map(|rows| rows.len())
}

/// Bad files that are valid by the specification's letter, read as pyarrow and DuckDB read
/// them, with the reason.
const READABLE: &[(&str, &str)] = &[(
    "ARROW-GH-43605.parquet",
    "dictionary indices with bit width 0 (all index 0): pyarrow and DuckDB read 21186 zeros, and \
     arrow-rs itself writes width 0 for one-entry dictionaries, so rejecting it would reject theirs",
)];

#[test]
fn bad_data_files_are_errors() {
    let dir = corpus().join("bad_data");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("bad_data") {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("parquet") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if READABLE.iter().any(|(n, _)| *n == name) {
            let rows = rows_json(bytes, ReadOptions::default()).unwrap();
            assert_eq!(rows.len(), 21186);
            assert!(rows.iter().all(|r| r == r#"{"min_fl":0}"#));
            continue;
        }
        let start = Instant::now();
        let result = read_everything(bytes);
        assert!(
            result.is_err(),
            "{} read without error: {result:?}",
            path.display()
        );
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{} took {:?}",
            path.display(),
            start.elapsed()
        );
        println!(
            "{}: {}",
            path.file_name().unwrap().to_string_lossy(),
            result.unwrap_err()
        );
        n += 1;
    }
    assert!(n >= 7, "only {n} bad files");
}

#[test]
fn every_truncation_is_an_error() {
    for name in [
        "alltypes_plain.parquet",
        "nested_lists.snappy.parquet",
        "page_v2_empty_compressed.parquet",
    ] {
        let bytes = std::fs::read(corpus().join("data").join(name)).unwrap();
        assert!(
            read_everything(bytes.clone()).is_ok(),
            "{name} itself must read"
        );
        for len in 0..bytes.len() {
            let r = read_everything(bytes[..len].to_vec());
            assert!(r.is_err(), "{name} cut to {len} bytes read without error");
        }
    }
}

/// Flipping any byte of a file must not panic or hang; CRCs catch most page damage, the
/// rest is either an error or different values.
#[test]
fn byte_flips_never_panic() {
    for name in [
        "alltypes_plain.parquet",
        "nested_maps.snappy.parquet",
        "nullable.impala.parquet",
        "datapage_v2.snappy.parquet",
    ] {
        let bytes = std::fs::read(corpus().join("data").join(name)).unwrap();
        let start = Instant::now();
        for i in 0..bytes.len() {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] ^= mask;
                let _ = rows_json(b.clone(), ReadOptions::default());
                let _ = rows_json(b, ReadOptions::default().verify_checksums(false));
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{name}: {:?}",
            start.elapsed()
        );
    }
}
