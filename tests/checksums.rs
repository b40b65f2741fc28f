//! Page CRC32 checksums: verified by default, errors name column and page.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use parquet_serde::core::file::FileReader;
use parquet_serde::{ErrorKind, ReadOptions};

fn read(name: &str, options: ReadOptions) -> Vec<(String, Result<usize, parquet_serde::Error>)> {
    let bytes = common::corpus_file(name);
    let reader = FileReader::with_options(bytes, options).unwrap();
    let mut out = Vec::new();
    for rg in 0..reader.num_row_groups() {
        for c in 0..reader.schema().num_columns() {
            let path = reader.schema().columns()[c].path.to_string();
            out.push((path, reader.read_column(rg, c).map(|b| b.num_levels())));
        }
    }
    out
}

#[test]
fn corrupt_data_pages_fail_exactly_where_the_crc_is_wrong() {
    let results = read(
        "datapage_v1-corrupt-checksum.parquet",
        ReadOptions::default(),
    );
    assert_eq!(results.len(), 2);
    let a = results[0].1.as_ref().unwrap_err();
    assert_eq!(a.kind(), ErrorKind::Checksum);
    assert_eq!(a.location().column.as_deref(), Some("a"));
    assert_eq!(a.location().page, Some(0));
    let b = results[1].1.as_ref().unwrap_err();
    assert_eq!(b.kind(), ErrorKind::Checksum);
    assert_eq!(b.location().column.as_deref(), Some("b"));
    assert_eq!(b.location().page, Some(1));
    assert!(
        a.to_string().contains("column a") && a.to_string().contains("page 0"),
        "{a}"
    );

    // With verification off the same file decodes (5120 values per column).
    let results = read(
        "datapage_v1-corrupt-checksum.parquet",
        ReadOptions::default().verify_checksums(false),
    );
    for (path, r) in results {
        assert_eq!(r.unwrap(), 5120, "{path}");
    }
}

#[test]
fn corrupt_dictionary_pages_fail() {
    for (path, r) in read(
        "rle-dict-uncompressed-corrupt-checksum.parquet",
        ReadOptions::default(),
    ) {
        let e = r.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Checksum, "{path}: {e}");
        assert_eq!(
            e.location().page,
            Some(0),
            "{path}: the dictionary page is page 0"
        );
    }
    for (path, r) in read(
        "rle-dict-uncompressed-corrupt-checksum.parquet",
        ReadOptions::default().verify_checksums(false),
    ) {
        assert_eq!(r.unwrap(), 1000, "{path}");
    }
}

#[test]
fn valid_checksums_pass() {
    for name in [
        "datapage_v1-uncompressed-checksum.parquet",
        "datapage_v1-snappy-compressed-checksum.parquet",
        "plain-dict-uncompressed-checksum.parquet",
        "rle-dict-snappy-checksum.parquet",
    ] {
        for (path, r) in read(name, ReadOptions::default()) {
            assert!(r.unwrap() > 0, "{name} {path}");
        }
    }
}
