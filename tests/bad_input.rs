//! Malformed input: every file in parquet-testing/bad_data, every truncation and many
//! corruptions of valid files give `Err` (or, for corruptions the format cannot detect,
//! some rows) — never a panic or a hang.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::rows_json;
use parquet_serde::record::Value;
use parquet_serde::ReadOptions;

fn read_everything(bytes: Vec<u8>) -> parquet_serde::Result<usize> {
    rows_json(bytes, ReadOptions::default()).map(|rows| rows.len())
}

/// Every row through the typed reader (`Value` rows) with `threads` threads: 1 decodes on
/// the calling thread, more pipeline the decoding on helper threads.
fn read_typed(bytes: &[u8], threads: usize) -> parquet_serde::Result<Vec<Value>> {
    parquet_serde::from_slice_with(bytes, ReadOptions::default().threads(threads))
}

/// The typed reader with 1 and 2 threads: the same rows, or both an error; with
/// `same_error`, the same error (a file with several defects may show the threads another
/// one first: the pipelined reader decodes columns side by side).
fn read_typed_both(bytes: &[u8], same_error: bool) -> parquet_serde::Result<Vec<Value>> {
    let one = read_typed(bytes, 1);
    let two = read_typed(bytes, 2);
    match (&one, &two) {
        (Ok(a), Ok(b)) => assert!(a == b, "1 and 2 threads read different rows"),
        (Err(a), Err(b)) if same_error => assert_eq!(a.to_string(), b.to_string()),
        (Err(_), Err(_)) => {}
        _ => panic!("1 thread: {one:?}\n2 threads: {two:?}"),
    }
    one
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
    let dir = common::corpus_dir("bad_data");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("parquet") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if READABLE.iter().any(|(n, _)| *n == name) {
            assert_eq!(read_typed_both(&bytes, true).unwrap().len(), 21186);
            let rows = rows_json(bytes, ReadOptions::default()).unwrap();
            assert_eq!(rows.len(), 21186);
            assert!(rows.iter().all(|r| r == r#"{"min_fl":0}"#));
            continue;
        }
        let start = Instant::now();
        assert!(
            read_typed_both(&bytes, true).is_err(),
            "{} read typed",
            path.display()
        );
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
        let bytes = common::corpus_file(name);
        assert!(
            read_everything(bytes.clone()).is_ok(),
            "{name} itself must read"
        );
        assert!(
            read_typed_both(&bytes, true).is_ok(),
            "{name} itself must read typed"
        );
        for len in 0..bytes.len() {
            let r = read_everything(bytes[..len].to_vec());
            assert!(r.is_err(), "{name} cut to {len} bytes read without error");
            assert!(
                read_typed_both(&bytes[..len], true).is_err(),
                "{name} cut to {len} bytes, typed"
            );
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
        let bytes = common::corpus_file(name);
        let start = Instant::now();
        for i in 0..bytes.len() {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] ^= mask;
                let _ = rows_json(b.clone(), ReadOptions::default());
                // The typed reader agrees with itself across thread counts on damaged input.
                let _ = read_typed_both(&b, false);
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

/// GROUP_VAR_INT pages (INT32 and INT64, every group remainder at page ends), damaged: every
/// truncation is an error and no byte flip panics, with CRCs off so the decoder sees the
/// damage (a header announcing bytes past the end, a group cut short).
#[test]
fn group_var_int_damage_is_an_error() {
    #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
    struct Row {
        a: i32,
        b: Option<i64>,
    }
    let rows: Vec<Row> = (0..203i64)
        .map(|i| Row {
            a: (i * 7919 - 500_000) as i32,
            b: (i % 3 != 0).then_some(i.wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64) >> (i % 60)),
        })
        .collect();
    let gvi: parquet_serde::core::column::Encoding = "GROUP_VAR_INT".parse().unwrap();
    let options = parquet_serde::WriterOptions::default()
        .compression(parquet_serde::Compression::Uncompressed)
        .checksums(false)
        .page_row_limit(37)
        .column_encoding("a", gvi)
        .column_encoding("b", gvi);
    let bytes = parquet_serde::to_vec_with(&rows, options).unwrap();
    let back: Vec<Value> = parquet_serde::from_slice(&bytes).unwrap();
    assert_eq!(back.len(), rows.len());
    for len in 0..bytes.len() {
        assert!(
            read_everything(bytes[..len].to_vec()).is_err(),
            "cut to {len}"
        );
    }
    let mut errors = 0;
    for i in 4..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0xff;
        errors += usize::from(read_typed_both(&b, false).is_err());
    }
    assert!(errors > 0);
}
