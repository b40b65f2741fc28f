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

/// Corrupt Delta logs (feature `delta`): each is a clear error naming the file, never a
/// panic.
#[cfg(feature = "delta")]
mod delta {
    use std::path::Path;

    use parquet_serde::dataset::Dataset;
    use parquet_serde::record::Value;
    use parquet_serde::ParquetSchema;

    #[derive(serde::Serialize, ParquetSchema)]
    struct Row {
        id: i64,
        name: String,
    }

    const PROTOCOL: &str = r#"{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}"#;
    const METADATA: &str = r#"{"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}},{\"name\":\"name\",\"type\":\"string\",\"nullable\":false,\"metadata\":{}},{\"name\":\"part\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":["part"],"configuration":{}}}"#;

    /// The `add` line of data file `part=P/fN.parquet` of `size` bytes.
    fn add(part: &str, n: usize, size: u64) -> String {
        format!(
            r#"{{"add":{{"path":"part={part}/f{n}.parquet","partitionValues":{{"part":"{part}"}},"size":{size},"modificationTime":1,"dataChange":true,"stats":"{{\"numRecords\":3,\"minValues\":{{\"id\":{lo}}},\"maxValues\":{{\"id\":{hi}}},\"nullCount\":{{\"id\":0}}}}"}}}}"#,
            lo = n * 10,
            hi = n * 10 + 2
        )
    }

    /// A valid two-commit table in `root`: 3 rows in each of part=a/f0 and part=b/f1.
    pub fn table(root: &Path) {
        let mut sizes = Vec::new();
        for (n, part) in ["a", "b"].iter().enumerate() {
            let path = root.join(format!("part={part}/f{n}.parquet"));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let rows: Vec<Row> = (0..3)
                .map(|i| Row {
                    id: (n * 10 + i) as i64,
                    name: format!("r{i}"),
                })
                .collect();
            parquet_serde::to_path(&path, &rows).unwrap();
            sizes.push(std::fs::metadata(&path).unwrap().len());
        }
        let log = root.join("_delta_log");
        std::fs::create_dir_all(&log).unwrap();
        let c0 = format!("{PROTOCOL}\n{METADATA}\n{}\n", add("a", 0, sizes[0]));
        std::fs::write(log.join(commit(0)), c0).unwrap();
        std::fs::write(log.join(commit(1)), add("b", 1, sizes[1]) + "\n").unwrap();
    }

    pub fn commit(v: u64) -> String {
        format!("{v:020}.json")
    }

    pub fn read(root: &Path) -> parquet_serde::Result<Vec<Value>> {
        Dataset::open(root)?.read_all::<Value>()
    }

    /// `root`'s log file `name` with `from` replaced by `to` (which must occur).
    fn replace(root: &Path, name: &str, from: &str, to: &str) {
        let path = root.join("_delta_log").join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{name} holds no {from:?}");
        std::fs::write(path, text.replacen(from, to, 1)).unwrap();
    }

    type Corrupt = fn(&Path);

    /// Each corruption, with what its error must say.
    const CASES: &[(&str, Corrupt, &str)] = &[
        (
            "truncated commit",
            |r| {
                let p = r.join("_delta_log").join(commit(1));
                let b = std::fs::read(&p).unwrap();
                std::fs::write(&p, &b[..b.len() / 2]).unwrap();
            },
            "00000000000000000001.json, line 1",
        ),
        (
            "not JSON",
            |r| std::fs::write(r.join("_delta_log").join(commit(1)), "hello\n").unwrap(),
            "00000000000000000001.json, line 1: not a Delta action",
        ),
        (
            "not UTF-8",
            |r| std::fs::write(r.join("_delta_log").join(commit(1)), [0xff, 0xfe]).unwrap(),
            "00000000000000000001.json: commit is not UTF-8",
        ),
        (
            "wrong types",
            |r| replace(r, &commit(1), r#""size":"#, r#""size":"big","x":"#),
            "00000000000000000001.json, line 1",
        ),
        (
            "missing protocol",
            |r| replace(r, &commit(0), PROTOCOL, ""),
            "no protocol action up to version 1",
        ),
        (
            "missing metaData",
            |r| replace(r, &commit(0), METADATA, ""),
            "no metaData action up to version 1",
        ),
        (
            "gap in versions",
            |r| {
                let log = r.join("_delta_log");
                std::fs::rename(log.join(commit(1)), log.join(commit(2))).unwrap();
            },
            "00000000000000000001.json is missing from _delta_log/",
        ),
        (
            "huge size",
            |r| {
                replace(
                    r,
                    &commit(1),
                    r#""size":"#,
                    r#""size":9223372036854775807,"x":"#,
                )
            },
            "f1.parquet is",
        ),
        (
            "negative size",
            |r| replace(r, &commit(1), r#""size":"#, r#""size":-5,"x":"#),
            "00000000000000000001.json: add `part=b/f1.parquet`: negative size -5",
        ),
        (
            "path outside the table",
            |r| replace(r, &commit(1), "part=b/f1", "../f1"),
            "add `../f1.parquet`: the path leaves the table root",
        ),
        (
            "missing data file",
            |r| std::fs::remove_file(r.join("part=b/f1.parquet")).unwrap(),
            "f1.parquet listed in the log",
        ),
        (
            "data file not Parquet",
            |r| {
                let p = r.join("part=b/f1.parquet");
                let n = std::fs::metadata(&p).unwrap().len() as usize;
                std::fs::write(&p, vec![b'x'; n]).unwrap();
            },
            "f1.parquet",
        ),
        (
            "a deletion vector the protocol does not declare",
            |r| replace(r, &commit(1), r#""size":"#, r#""deletionVector":{"storageType":"u","pathOrInlineDv":"x","sizeInBytes":1,"cardinality":1},"size":"#),
            "add `part=b/f1.parquet`: the file has a deletion vector (the reader feature `deletionVectors`)",
        ),
        (
            "stats not JSON",
            |r| replace(r, &commit(1), r#""stats":"{"#, r#""stats":"nope","x":"{"#),
            "add `part=b/f1.parquet`: stats are not Delta statistics",
        ),
        (
            "missing partition value",
            |r| {
                replace(
                    r,
                    &commit(1),
                    r#""partitionValues":{"part":"b"}"#,
                    r#""partitionValues":{}"#,
                )
            },
            "add `part=b/f1.parquet`: no value for partition column \"part\"",
        ),
        (
            "partition value not of its type",
            |r| {
                replace(
                    r,
                    &commit(0),
                    r#"\"part\",\"type\":\"string\""#,
                    r#"\"part\",\"type\":\"long\""#,
                )
            },
            "partition column \"part\"",
        ),
        (
            "schemaString not JSON",
            |r| {
                replace(
                    r,
                    &commit(0),
                    r#""schemaString":"{"#,
                    r#""schemaString":"{{"#,
                )
            },
            "metaData.schemaString is not JSON",
        ),
        (
            "reader version we lack",
            |r| {
                replace(
                    r,
                    &commit(0),
                    r#""minReaderVersion":1"#,
                    r#""minReaderVersion":9"#,
                )
            },
            "needs reader version 9",
        ),
        (
            "checkpoint not Parquet",
            |r| {
                let p = r.join("_delta_log/00000000000000000000.checkpoint.parquet");
                std::fs::write(p, b"PAR1 garbage PAR1").unwrap();
            },
            "00000000000000000000.checkpoint.parquet: not a readable Delta checkpoint",
        ),
        (
            "checkpoint of no actions",
            |r| {
                let p = r.join("_delta_log/00000000000000000000.checkpoint.parquet");
                std::fs::copy(r.join("part=a/f0.parquet"), p).unwrap();
            },
            "00000000000000000000.checkpoint.parquet: the checkpoint holds no protocol action",
        ),
    ];

    #[test]
    fn corrupt_logs_are_errors_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        table(dir.path());
        assert_eq!(read(dir.path()).unwrap().len(), 6);
        for (what, corrupt, needle) in CASES {
            let dir = tempfile::tempdir().unwrap();
            table(dir.path());
            corrupt(dir.path());
            let e = match read(dir.path()) {
                Ok(rows) => panic!("{what}: read {} rows", rows.len()),
                Err(e) => e.to_string(),
            };
            assert!(e.contains(needle), "{what}: {e}");
            assert!(e.contains(&dir.path().display().to_string()), "{what}: {e}");
        }
    }

    #[cfg(feature = "proptest")]
    mod mutations {
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

            /// Commit bytes flipped, cut or with bytes inserted: an error or rows, never a
            /// panic.
            #[test]
            fn mutated_commits_never_panic(
                which in 0u64..2,
                flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
                cut in proptest::option::of(any::<prop::sample::Index>()),
                insert in proptest::option::of((any::<prop::sample::Index>(), "[0-9\\-\\[\\]{}\",:a-z]{1,8}")),
            ) {
                let dir = tempfile::tempdir().unwrap();
                super::table(dir.path());
                let path = dir.path().join("_delta_log").join(super::commit(which));
                let mut bytes = std::fs::read(&path).unwrap();
                for (at, b) in flips {
                    let i = at.index(bytes.len());
                    bytes[i] = b;
                }
                if let Some((at, text)) = insert {
                    let i = at.index(bytes.len());
                    bytes.splice(i..i, text.bytes());
                }
                if let Some(at) = cut {
                    bytes.truncate(at.index(bytes.len()));
                }
                std::fs::write(&path, &bytes).unwrap();
                if let Err(e) = super::read(dir.path()) {
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
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
