//! Errors that help: an error about a file names the file; a type mismatch names the
//! column, the row (when one row is at fault), the Parquet type and the Rust type, and
//! quotes a value only when it came from the file; a folder where a file is expected points
//! to `Dataset`.

use std::path::{Path, PathBuf};

use parquet_serde::dataset::Dataset;
use parquet_serde::{ErrorKind, ParquetSchema, ReadOptions, Reader};
use serde::{Deserialize, Deserializer, Serialize};

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct Item {
    id: u32,
    name: String,
}

/// The same columns, `name` read as a number.
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct NameAsNumber {
    id: u32,
    name: i64,
}

/// An even number: rejects the schema probe's stand-in (1), so the probe learns nothing
/// and the mismatch of `name` shows only when a row is read.
#[derive(Debug)]
struct Even(#[allow(dead_code)] u32);

impl<'de> Deserialize<'de> for Even {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u32::deserialize(d)?;
        if n % 2 == 1 {
            return Err(serde::de::Error::custom(format!("{n} is odd")));
        }
        Ok(Even(n))
    }
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct EvenNameAsNumber {
    id: Even,
    name: i64,
}

fn items(dir: &Path, name: &str, ids: std::ops::Range<u32>) -> PathBuf {
    let path = dir.join(name);
    let rows: Vec<Item> = ids
        .map(|id| Item {
            id,
            name: format!("item-{id}"),
        })
        .collect();
    parquet_serde::to_path(&path, &rows).unwrap();
    path
}

/// A copy of `good` with its footer length damaged.
fn bad_footer(good: &Path, dir: &Path) -> PathBuf {
    let mut bytes = std::fs::read(good).unwrap();
    let n = bytes.len();
    bytes[n - 8..n - 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let path = dir.join("bad-footer.parquet");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A copy of `good` with its first page header overwritten (the footer is intact).
fn bad_page(good: &Path, dir: &Path) -> PathBuf {
    let mut bytes = std::fs::read(good).unwrap();
    for b in &mut bytes[4..40] {
        *b = 0x55;
    }
    let path = dir.join("bad-page.parquet");
    std::fs::write(&path, bytes).unwrap();
    path
}

fn names(message: &str, path: &Path) -> bool {
    message.contains(&path.display().to_string())
}

#[test]
fn corrupt_files_read_by_path_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = items(dir.path(), "good.parquet", 0..50_000);
    let footer = bad_footer(&good, dir.path());
    let e = parquet_serde::from_path::<Item>(&footer).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Corrupt);
    assert!(names(&e.to_string(), &footer), "{e}");
    assert!(e.to_string().contains("footer length"), "{e}");
    let e = Reader::<_, Item>::from_path(&footer).unwrap_err();
    assert!(names(&e.to_string(), &footer), "{e}");

    let page = bad_page(&good, dir.path());
    // Opening succeeds (the footer is fine); the rows fail, naming the file, whichever way
    // they are read.
    for threads in [1, 4] {
        let options = ReadOptions::default().threads(threads);
        let e = parquet_serde::from_path_with::<Item>(&page, options).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Corrupt, "{e}");
        assert!(names(&e.to_string(), &page), "threads {threads}: {e}");
        assert_eq!(e.to_string().matches("bad-page.parquet").count(), 1, "{e}");
        assert!(e.to_string().contains("page header"), "{e}");
    }
    let e = Reader::<_, Item>::from_path(&page)
        .unwrap()
        .find_map(Result::err)
        .unwrap();
    assert!(names(&e.to_string(), &page), "{e}");
    // Named once, not once per layer.
    assert_eq!(e.to_string().matches("bad-page.parquet").count(), 1, "{e}");

    let missing = dir.path().join("missing.parquet");
    let e = parquet_serde::from_path::<Item>(&missing).unwrap_err();
    assert!(names(&e.to_string(), &missing), "{e}");
}

#[test]
fn corrupt_files_of_a_dataset_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = items(dir.path(), "a.parquet", 0..10);
    let page = bad_page(&good, dir.path());
    let e = Dataset::open(dir.path())
        .unwrap()
        .read_all::<Item>()
        .unwrap_err();
    assert!(names(&e.to_string(), &page), "{e}");
    assert_eq!(e.to_string().matches("bad-page.parquet").count(), 1, "{e}");
    let e = Dataset::open(dir.path())
        .unwrap()
        .rows::<Item>()
        .find_map(Result::err)
        .unwrap();
    assert!(names(&e.to_string(), &page), "{e}");
}

#[test]
fn a_folder_where_a_file_is_expected_points_to_dataset() {
    let dir = tempfile::tempdir().unwrap();
    items(dir.path(), "a.parquet", 0..3);
    let e = parquet_serde::from_path::<Item>(dir.path()).unwrap_err();
    let text = e.to_string();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{text}");
    assert!(text.contains("is a folder"), "{text}");
    assert!(text.contains("Dataset::open"), "{text}");
    assert!(names(&text, dir.path()), "{text}");
    assert!(!text.contains("os error"), "{text}");
    let e = Reader::<_, Item>::from_path(dir.path()).unwrap_err();
    assert!(e.to_string().contains("Dataset::open"), "{e}");
    // A folder opened as a file and handed to a reader: the same advice, not an I/O
    // error at an offset.
    let folder = std::fs::File::open(dir.path()).unwrap();
    let e = parquet_serde::from_reader::<Item, _>(folder).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{e}");
    assert!(e.to_string().contains("Dataset::open"), "{e}");
    assert!(!e.to_string().contains("os error"), "{e}");
}

#[test]
fn a_type_mismatch_found_by_the_schema_probe_quotes_no_value() {
    let dir = tempfile::tempdir().unwrap();
    let path = items(dir.path(), "items.parquet", 0..5);
    let e = parquet_serde::from_path::<NameAsNumber>(&path).unwrap_err();
    let text = e.to_string();
    assert_eq!(e.kind(), ErrorKind::Schema, "{text}");
    assert_eq!(e.location().column.as_deref(), Some("name"), "{text}");
    assert!(text.contains("BYTE_ARRAY (UTF-8 text)"), "{text}");
    assert!(text.contains("expects i64"), "{text}");
    assert!(names(&text, &path), "{text}");
    // The probe's stand-in value is not in the file: it must not be quoted.
    assert!(!text.contains('"'), "{text}");
    // Found before any row is read: no row is to blame.
    assert_eq!(e.location().row, None, "{text}");
}

#[test]
fn a_type_mismatch_found_in_a_row_quotes_the_files_value_and_names_the_row() {
    let dir = tempfile::tempdir().unwrap();
    let path = items(dir.path(), "items.parquet", 2..5);
    let e = parquet_serde::from_path::<EvenNameAsNumber>(&path).unwrap_err();
    let text = e.to_string();
    assert_eq!(e.kind(), ErrorKind::Schema, "{text}");
    assert_eq!(e.location().column.as_deref(), Some("name"), "{text}");
    assert_eq!(e.location().row, Some(0), "{text}");
    assert!(text.contains("BYTE_ARRAY (UTF-8 text)"), "{text}");
    assert!(text.contains("string \"item-2\""), "{text}");
    assert!(text.contains("expects i64"), "{text}");
    assert!(names(&text, &path), "{text}");
}
