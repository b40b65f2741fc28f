//! `#[parquet(assemble)]` on structs that borrow (`&'a str`, `&'a [u8]`, nested borrowing
//! structs, lists and maps of borrowed text) against serde's derive of the same struct: rows
//! of random values, written once, read through [`Batch::rows`] as both types; the rows
//! must be equal, and so must the errors (kind, message, location) of shapes the file does
//! not fit (another type, a null for a non-`Option`, a missing field).

#![allow(dead_code)]

use std::borrow::Cow;
use std::collections::BTreeMap;

use parquet_serde::{to_vec_with, ParquetSchema, Reader, WriterOptions};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Inner {
    name: String,
    n: i64,
}

/// The rows written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Owned {
    id: i64,
    text: String,
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    cow: String,
    maybe: Option<String>,
    f: f64,
    b: bool,
    n: Option<i32>,
    inner: Inner,
    tags: Vec<String>,
    spans: Option<Vec<Inner>>,
    attrs: BTreeMap<String, String>,
}

/// Each shape twice: `s` with serde's derive, `a` with `#[parquet(assemble)]`.
macro_rules! shapes {
    ($( $(#[$m:meta])* struct $name:ident<'a> { $( $(#[$fm:meta])* $f:ident : $t:ty ),* $(,)? } )*) => {
        mod s {
            use super::*;
            $(
                #[derive(Debug, Deserialize)]
                $(#[$m])*
                pub struct $name<'a> { $( $(#[$fm])* pub $f: $t ),* }
                impl Shape for $name<'static> {
                    type R<'b> = $name<'b>;
                }
            )*
        }
        mod a {
            use super::*;
            $(
                #[derive(Debug, Serialize, ParquetSchema)]
                #[parquet(assemble)]
                $(#[$m])*
                pub struct $name<'a> { $( $(#[$fm])* pub $f: $t ),* }
                impl Shape for $name<'static> {
                    type R<'b> = $name<'b>;
                }
            )*
        }
        /// Every shape read from `file` both ways; the shapes whose read failed.
        fn read_all(file: &[u8]) -> Vec<&'static str> {
            let mut failed = Vec::new();
            $(
                if !same::<s::$name<'static>, a::$name<'static>>(file, stringify!($name)) {
                    failed.push(stringify!($name));
                }
            )*
            failed
        }
    };
}

shapes! {
    struct InnerRef<'a> { name: &'a str, n: i64 }
    struct Flat<'a> {
        id: i64, text: &'a str, blob: &'a [u8], maybe: Option<&'a str>, f: f64, b: bool,
        n: Option<i32>,
    }
    struct Nested<'a> {
        id: i64,
        #[serde(borrow)] inner: InnerRef<'a>,
        #[serde(borrow)] tags: Vec<&'a str>,
        #[serde(borrow)] spans: Option<Vec<InnerRef<'a>>>,
        #[serde(borrow)] attrs: BTreeMap<&'a str, &'a str>,
    }
    #[serde(rename_all = "camelCase")]
    struct Renamed<'a> {
        #[serde(rename = "text")] the_text: &'a str,
        #[serde(alias = "id")] ident: i64,
        #[serde(default)] absent: Option<&'a str>,
        #[serde(skip)] skipped: i32,
    }
    struct Cows<'a> { cow: Cow<'a, str>, text: &'a str, maybe: Option<Cow<'a, str>> }
    struct Reordered<'a> { text: &'a str, maybe: Option<&'a str>, id: i64 }
    struct Wider<'a> { id: i32, text: &'a str }
    struct WrongType<'a> { id: &'a str }
    struct NullInto<'a> { maybe: &'a str }
    struct Missing<'a> { text: &'a str, nowhere: &'a str }
    struct MissingOpt<'a> { text: &'a str, nowhere: Option<&'a str> }
}

/// A borrowing row type, at any lifetime.
trait Shape {
    type R<'b>: Deserialize<'b> + std::fmt::Debug;
}

/// Rows of `file` as `T` through batches, or the error (kind and message).
fn rows<T: Shape>(file: &[u8]) -> Result<Vec<String>, String> {
    let err = |e: parquet_serde::Error| format!("{:?}: {e}", e.kind());
    let reader = Reader::<_, T::R<'static>>::new(file).map_err(err)?;
    let mut out = Vec::new();
    for batch in reader.batches() {
        let batch = batch.map_err(err)?;
        let rows: Vec<T::R<'_>> = batch.rows().map_err(err)?;
        out.extend(rows.iter().map(|r| format!("{r:?}")));
        // A slice of the batch too (rows from the middle of its pages).
        let half = batch.num_rows() / 2;
        let part: Vec<T::R<'_>> = batch.rows_in(half..batch.num_rows()).map_err(err)?;
        let whole = &out[out.len() - rows.len() + half..];
        let part: Vec<String> = part.iter().map(|r| format!("{r:?}")).collect();
        assert_eq!(part, whole);
    }
    Ok(out)
}

/// Reads `file` as `S` and as `A`; panics when they differ. Whether the read succeeded.
fn same<S: Shape, A: Shape>(file: &[u8], shape: &str) -> bool {
    let s = rows::<S>(file);
    let a = rows::<A>(file);
    assert_eq!(s, a, "file read as {shape}");
    s.is_ok()
}

fn text(r: &mut u64, max: u64) -> String {
    *r ^= *r << 13;
    *r ^= *r >> 7;
    *r ^= *r << 17;
    let words = ["", "a", "héllo", "日本", "x y", "0"];
    (0..*r % max)
        .map(|k| words[((*r >> (k * 3)) % 6) as usize])
        .collect::<Vec<_>>()
        .join("-")
}

fn owned(seed: u64, n: usize) -> Vec<Owned> {
    let mut r = seed | 1;
    (0..n)
        .map(|i| {
            let i = i as i64;
            let inner = |r: &mut u64| Inner {
                name: text(r, 3),
                n: *r as i64 >> 3,
            };
            Owned {
                id: i * 7 - 20,
                text: text(&mut r, 4),
                blob: text(&mut r, 3).into_bytes(),
                cow: text(&mut r, 2),
                maybe: (!r.is_multiple_of(3)).then(|| text(&mut r, 3)),
                f: (r % 1000) as f64 / 8.0,
                b: r.is_multiple_of(2),
                n: (!r.is_multiple_of(5)).then_some((r % 100_000) as i32),
                inner: inner(&mut r),
                tags: (0..r % 4).map(|_| text(&mut r, 2)).collect(),
                spans: (!r.is_multiple_of(4)).then(|| (0..r % 3).map(|_| inner(&mut r)).collect()),
                attrs: (0..r % 3)
                    .map(|k| (format!("k{k}"), text(&mut r, 2)))
                    .collect(),
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Every shape, from random rows in one or several row groups: the assembled
    /// borrowing rows are serde's, values and errors.
    #[test]
    fn assembled_borrowed_rows_equal_serde_rows(seed in any::<u64>(), n in 1usize..60, group in 1usize..40) {
        let rows = owned(seed, n);
        let file = to_vec_with(&rows, WriterOptions::default().row_group_rows(group)).unwrap();
        let failed = read_all(&file);
        // Every shape reads but `InnerRef` (a nested shape: the file's top level has no
        // `name`), `WrongType` and `Missing`, and `NullInto` when a row has a null `maybe`.
        let mut expected = vec!["InnerRef", "WrongType", "NullInto", "Missing"];
        if rows.iter().all(|r| r.maybe.is_some()) {
            expected.retain(|&s| s != "NullInto");
        }
        prop_assert_eq!(failed, expected);
    }
}

/// A null into a `&str` fails the same way, naming the column: the assembled read falls
/// back to serde's path at that value.
#[test]
fn a_null_into_a_borrowed_str_fails_as_serde_does() {
    let rows = owned(3, 10);
    assert!(rows.iter().any(|r| r.maybe.is_none()));
    let file = to_vec_with(&rows, WriterOptions::default()).unwrap();
    let a = rows_of_null(&file);
    assert!(a.contains("maybe"), "{a}");
}

fn rows_of_null(file: &[u8]) -> String {
    rows::<a::NullInto<'static>>(file).unwrap_err()
}
