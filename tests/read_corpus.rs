//! Reads every file of the parquet-testing corpus and compares every value with what
//! pyarrow reads (testdata/expected/*.jsonl, made by testdata/make_expectations.py).

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::io::Read;

use common::{json_eq, rows_json, testdata};
use parquet_serde::{ErrorKind, ReadOptions};

/// Files that need a feature of a later issue, with that issue; each must fail with an
/// `Unsupported` error until then (and this test fails once one passes, so the list shrinks).
const LATER: &[(&str, &str)] = &[];

/// Files with a special expected outcome.
const SPECIAL: &[(&str, &str)] = &[
    (
        "datapage_v1-corrupt-checksum.parquet",
        "wrong CRCs: read by checksums.rs",
    ),
    (
        "rle-dict-uncompressed-corrupt-checksum.parquet",
        "wrong CRCs: read by checksums.rs",
    ),
    (
        "large_string_map.brotli.parquet",
        "over 2 GB decoded: pyarrow cannot read it; see large_string_map below",
    ),
    (
        "incorrect_map_schema.parquet",
        "pyarrow refuses it; values checked against DuckDB below",
    ),
];

fn expected(name: &str) -> Option<Vec<String>> {
    let dir = testdata().join("expected");
    if let Ok(text) = std::fs::read_to_string(dir.join(format!("{name}.jsonl"))) {
        return Some(text.lines().map(str::to_string).collect());
    }
    let gz = std::fs::read(dir.join(format!("{name}.jsonl.gz"))).ok()?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut text)
        .expect("gzip expectation");
    Some(text.lines().map(str::to_string).collect())
}

fn compare(name: &str, ours: &[String], theirs: &[String]) -> Result<(), String> {
    if ours.len() != theirs.len() {
        return Err(format!(
            "{name}: {} rows, pyarrow {}",
            ours.len(),
            theirs.len()
        ));
    }
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        let pa: serde_json::Value =
            serde_json::from_str(a).map_err(|e| format!("{name} row {i}: our JSON {e}: {a}"))?;
        let pb: serde_json::Value = serde_json::from_str(b).expect("expectation JSON");
        if !json_eq(&pa, &pb) {
            return Err(format!("{name} row {i}:\n  ours    {a}\n  pyarrow {b}"));
        }
    }
    Ok(())
}

#[test]
fn corpus_matches_pyarrow() {
    let data = common::corpus_dir("data");
    let mut names: Vec<String> = std::fs::read_dir(&data)
        .unwrap_or_else(|e| panic!("{}: {e}", data.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".parquet"))
        .collect();
    names.sort();
    let (mut checked, mut values, mut failures) = (0, 0usize, Vec::new());
    for name in &names {
        if SPECIAL.iter().any(|(n, _)| n == name) {
            continue;
        }
        let bytes = std::fs::read(data.join(name)).unwrap();
        let result = rows_json(bytes, ReadOptions::default());
        if let Some((_, why)) = LATER.iter().find(|(n, _)| n == name) {
            match result {
                Err(e) if e.kind() == ErrorKind::Unsupported => continue,
                Err(e) => failures.push(format!("{name} ({why}): expected Unsupported, got {e}")),
                Ok(_) => failures.push(format!("{name} now reads: remove it from LATER ({why})")),
            }
            continue;
        }
        let Some(theirs) = expected(name) else {
            failures.push(format!(
                "{name}: no expectation in testdata/expected (rerun make_expectations.py)"
            ));
            continue;
        };
        match result {
            Ok(ours) => match compare(name, &ours, &theirs) {
                Ok(()) => {
                    checked += 1;
                    values += ours.len();
                }
                Err(e) => failures.push(e),
            },
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!(
        "{checked} files equal to pyarrow ({values} rows); {} later; {} special",
        LATER.len(),
        SPECIAL.len()
    );
    assert!(
        failures.is_empty(),
        "{} files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 50, "only {checked} files checked");
}

/// pyarrow refuses this file (optional map keys); DuckDB reads
/// `{'parent': 'another', 'name': 'report'}` and so must we.
#[test]
fn incorrect_map_schema_matches_duckdb() {
    let bytes = common::corpus_file("incorrect_map_schema.parquet");
    let rows = rows_json(bytes, ReadOptions::default()).unwrap();
    assert_eq!(
        rows,
        vec![r#"{"my_map":[{"key":"parent","value":"another"},{"key":"name","value":"report"}]}"#]
    );
}

/// Its dictionary page inflates to over 1 GiB (2 GiB for the chunk): with the default page
/// limit the reader says so clearly instead of allocating.
#[test]
fn large_string_map_fails_clearly() {
    let bytes = common::corpus_file("large_string_map.brotli.parquet");
    let err = rows_json(bytes, ReadOptions::default()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.to_string().contains("max_page_size"), "{err}");
    assert_eq!(err.location().column.as_deref(), Some("arr.key_value.key"));
}
