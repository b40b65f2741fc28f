//! Files arrow-rs 60.1 wrote, read value for value (issue 34, items 1 to 3). They are
//! vendored with the harness that wrote them (testdata/alp/harness, a crate of its own that
//! the suite does not build):
//! - testdata/alp/alp_arrow_rs.parquet: FLOAT and DOUBLE columns in ALP pages (NaN with and
//!   without payload, infinities, -0.0, subnormals, nulls, several pages of two vectors),
//!   with the bits of every value in alp_arrow_rs.expected;
//! - testdata/orders/total_order_arrow_rs.parquet: FLOAT, DOUBLE and FLOAT16 statistics in
//!   IEEE 754 total order (arrow-rs's default), row groups of ordinary values, only NaNs,
//!   only +0.0, only -0.0, infinities;
//! - testdata/orders/int96_order_arrow_rs.parquet: INT96 statistics in chronological order.
//!
//! The same values written by this library with `WriterOptions::float_total_order` and
//! `int96_timestamp_order` give the same statistics and ColumnIndex bounds byte for byte.
//! `ours_for_arrow_rs` writes the ALP files the harness checks with arrow-rs (its output is
//! in the note of issue 34).

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use parquet_serde::__internals::column_index;
use parquet_serde::core::column::{ColumnBatch, DataPageVersion, Encoding, Scalar};
use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
use parquet_serde::core::values::ColumnValues;
use parquet_serde::filter::{col, FilterOptions};

fn testdata(path: &str) -> PathBuf {
    common::testdata().join(path)
}

fn open(path: &Path) -> FileReader<Vec<u8>> {
    FileReader::new(common::read(path)).unwrap()
}

fn alp() -> Encoding {
    "ALP".parse().unwrap()
}

/// The number of ALP data pages of leaf `column` in row group 0 (from the encoding stats).
fn alp_pages(file: &FileReader<Vec<u8>>, column: usize) -> i32 {
    let md = file.metadata();
    let chunk = md.row_group(0).unwrap().column(column).unwrap();
    chunk
        .encoding_stats()
        .unwrap()
        .iter()
        .filter(|(_, e, _)| *e == alp())
        .map(|(_, _, n)| n)
        .sum()
}

/// Every value of leaf `column` as bits (`None`: null), all row groups in order.
fn bits(file: &FileReader<Vec<u8>>, column: usize) -> Vec<Option<u64>> {
    let mut out = Vec::new();
    for rg in 0..file.metadata().num_row_groups() {
        let b = file.read_column(rg, column).unwrap();
        let values: Vec<u64> = match &b.values {
            ColumnValues::Float(v) => v.iter().map(|x| x.to_bits() as u64).collect(),
            ColumnValues::Double(v) => v.iter().map(|x| x.to_bits()).collect(),
            other => panic!("column {column}: {other:?}"),
        };
        let mut it = values.into_iter();
        if b.def_levels.is_empty() {
            out.extend(it.map(Some));
        } else {
            out.extend(
                b.def_levels
                    .iter()
                    .map(|&d| if d == 1 { it.next() } else { None }),
            );
        }
    }
    out
}

#[test]
fn alp_from_arrow_rs_value_for_value() {
    let file = open(&testdata("alp/alp_arrow_rs.parquet"));
    let expected = common::read_to_string(&testdata("alp/alp_arrow_rs.expected"));
    let parse = |s: &str| (s != "null").then(|| u64::from_str_radix(s, 16).unwrap());
    let (want32, want64): (Vec<_>, Vec<_>) = expected
        .lines()
        .map(|l| {
            let (a, b) = l.split_once(' ').unwrap();
            (parse(a), parse(b))
        })
        .unzip();
    assert_eq!(want32.len(), 4000);
    for c in 0..2 {
        assert!(alp_pages(&file, c) >= 2, "column {c}");
    }
    let (got32, got64) = (bits(&file, 0), bits(&file, 1));
    for (i, (g, w)) in got32.iter().zip(&want32).enumerate() {
        assert_eq!(g, w, "f32 row {i}");
    }
    for (i, (g, w)) in got64.iter().zip(&want64).enumerate() {
        assert_eq!(g, w, "f64 row {i}");
    }
    assert_eq!((got32.len(), got64.len()), (want32.len(), want64.len()));
    // The specials are there, bits and all.
    assert!(want64.contains(&Some(0x7ff8_0000_0000_0001)) && want64.contains(&Some(1 << 63)));
    assert!(want32.contains(&Some(0xffc0_0001)) && want32.contains(&None));
}

/// The f64 of row `i` of the files written for the harness (`None`: null): decimals ALP
/// keeps exact, and exceptions.
fn f64_value(i: usize) -> Option<f64> {
    if i % 19 == 4 {
        return None;
    }
    Some(match i % 89 {
        3 => f64::NAN,
        5 => f64::from_bits(0xfff8_0000_0000_00ff),
        7 => f64::INFINITY,
        11 => f64::NEG_INFINITY,
        13 => -0.0,
        23 => std::f64::consts::PI * i as f64,
        31 => -1e300,
        37 => f64::MIN_POSITIVE / 8.0,
        _ => (i as f64 * 53.0 % 20_000.0 - 9_000.0) / 1000.0,
    })
}

/// Writes `ours_alp_v1.parquet`, `ours_alp_v2.parquet` and their PLAIN twin
/// `ours_plain.parquet` into `dir`: FLOAT and DOUBLE columns of 5000 rows, several pages.
fn write_ours(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    use parquet_serde::record::{Value, ValueWriter};
    let schema: parquet_serde::core::schema::Schema =
        "message m { optional float f32; optional double f64; }"
            .parse()
            .unwrap();
    let rows: Vec<Value> = (0..5000)
        .map(|i| {
            let f = |v: Option<f64>, single: bool| match v {
                None => Value::Null,
                Some(x) if single => Value::Float(x as f32),
                Some(x) => Value::Double(x),
            };
            Value::Group(vec![
                ("f32".into(), f(f64_value(i + 7), true)),
                ("f64".into(), f(f64_value(i), false)),
            ])
        })
        .collect();
    let plain = dir.join("ours_plain.parquet");
    // Uncompressed: the harness builds arrow-rs without codecs (ALP is the point here).
    let base = WriterOptions::default()
        .dictionary(false)
        .page_row_limit(1500)
        .compression(parquet_serde::core::compression::Compression::Uncompressed);
    let write = |path: &Path, options: WriterOptions| {
        let mut w = ValueWriter::new(Vec::new(), schema.clone(), options).unwrap();
        w.write_all(&rows).unwrap();
        std::fs::write(path, w.into_inner().unwrap()).unwrap();
    };
    write(&plain, base.clone().auto_encoding(false));
    let mut pairs = Vec::new();
    for (name, version) in [
        ("ours_alp_v1.parquet", DataPageVersion::V1),
        ("ours_alp_v2.parquet", DataPageVersion::V2),
    ] {
        let path = dir.join(name);
        write(
            &path,
            base.clone()
                .data_page_version(version)
                .column_encoding("f32", alp())
                .column_encoding("f64", alp()),
        );
        pairs.push((path, plain.clone()));
    }
    pairs
}

/// Our ALP files, for the harness: `cargo run --release -- check ALP PLAIN` on each pair
/// printed here. The test itself checks they read back equal to their PLAIN twin.
#[test]
fn ours_for_arrow_rs() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("alp-ours");
    std::fs::create_dir_all(&dir).unwrap();
    for (alp_file, plain) in write_ours(&dir) {
        let (a, p) = (open(&alp_file), open(&plain));
        for c in 0..2 {
            assert!(alp_pages(&a, c) >= 3, "{} column {c}", alp_file.display());
            assert_eq!(
                bits(&a, c),
                bits(&p, c),
                "{} column {c}",
                alp_file.display()
            );
        }
        println!("{} {}", alp_file.display(), plain.display());
    }
}

/// Raw statistics of a chunk: (min_value, max_value, nan_count, null_count).
type Raw = (Option<Vec<u8>>, Option<Vec<u8>>, Option<i64>, Option<i64>);

fn raw(file: &FileReader<Vec<u8>>, rg: usize, c: usize) -> Raw {
    let s = file
        .metadata()
        .row_group(rg)
        .unwrap()
        .column(c)
        .unwrap()
        .raw_statistics()
        .unwrap();
    (
        s.min_value().map(<[u8]>::to_vec),
        s.max_value().map(<[u8]>::to_vec),
        s.nan_count(),
        s.null_count(),
    )
}

/// A ColumnIndex: (null_pages, min_values, max_values, nan_counts).
type Index = (Vec<bool>, Vec<Vec<u8>>, Vec<Vec<u8>>, Option<Vec<i64>>);

/// The ColumnIndex of a chunk.
fn index(file: &FileReader<Vec<u8>>, rg: usize, c: usize) -> Option<Index> {
    column_index(file, rg, c)
        .unwrap()
        .map(|ci| (ci.null_pages, ci.min_values, ci.max_values, ci.nan_counts))
}

/// `file`'s values rewritten by this library, row group by row group, with `options`.
fn rewrite(file: &FileReader<Vec<u8>>, options: WriterOptions) -> FileReader<Vec<u8>> {
    let md = file.metadata();
    let mut w = FileWriter::new(Vec::new(), md.schema().clone(), options).unwrap();
    for rg in 0..md.num_row_groups() {
        let mut chunks = Vec::new();
        for c in 0..md.schema().columns().len() {
            let batch: ColumnBatch = file.read_column(rg, c).unwrap();
            let mut cw = w.column_writer(c).unwrap();
            cw.write(&batch).unwrap();
            chunks.push(cw.close().unwrap());
        }
        w.write_row_group(chunks).unwrap();
    }
    FileReader::new(w.close().unwrap().0).unwrap()
}

#[test]
fn total_order_statistics_as_arrow_rs() {
    let theirs = open(&testdata("orders/total_order_arrow_rs.parquet"));
    let md = theirs.metadata();
    assert_eq!(md.num_row_groups(), 5);
    for c in 0..3 {
        assert_eq!(
            md.column_order_name(c),
            Some("IEEE_754_TOTAL_ORDER"),
            "column {c}"
        );
    }
    let ours = rewrite(
        &theirs,
        WriterOptions::default()
            .dictionary(false)
            .float_total_order(true),
    );
    for c in 0..3 {
        assert_eq!(
            ours.metadata().column_order_name(c),
            Some("IEEE_754_TOTAL_ORDER")
        );
    }
    for rg in 0..md.num_row_groups() {
        for c in 0..3 {
            assert_eq!(
                raw(&ours, rg, c),
                raw(&theirs, rg, c),
                "row group {rg} column {c}"
            );
            assert_eq!(
                index(&ours, rg, c),
                index(&theirs, rg, c),
                "ColumnIndex of row group {rg} column {c}"
            );
        }
    }
    // Reading arrow-rs's statistics: NaN bounds (row group 1, only NaNs) are dropped, the
    // zeros keep their sign, the counts are there.
    let st = |rg: usize, c: usize| md.column_statistics(rg, c).unwrap();
    for c in 0..3 {
        assert_eq!(
            (st(1, c).min, st(1, c).max, st(1, c).nan_count),
            (None, None, Some(3))
        );
        let zeros = (st(2, c).min.unwrap(), st(3, c).max.unwrap());
        match zeros {
            (Scalar::Float(plus), Scalar::Float(minus)) => {
                assert!(
                    plus == 0.0
                        && plus.is_sign_positive()
                        && minus == 0.0
                        && minus.is_sign_negative()
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(st(0, c).nan_count, Some(1));
    }
    // Pruning with them keeps SQL's order (NaN = NaN and greatest, -0.0 = +0.0): the
    // counts equal a scan without pruning, on theirs and ours.
    for file in [&theirs, &ours] {
        for name in ["f32", "f64", "f16"] {
            for (p, n) in [
                // Zeros: two in row group 0, two +0.0 in 2, one -0.0 in 3.
                (col(name).eq(0.0), 5),
                (col(name).eq(-0.0), 5),
                (col(name).lt(0.0), 2),
                // NaN: one in row group 0, three in 1, one in 4; and greatest.
                (col(name).eq(f64::NAN), 5),
                (col(name).gt(4.0), 6),
                (col(name).ge(f64::INFINITY), 6),
                (col(name).le(f64::NEG_INFINITY), 1),
            ] {
                let fast = file
                    .filter(p.clone())
                    .unwrap()
                    .select()
                    .unwrap()
                    .row_count();
                let slow = file
                    .filter(p.clone())
                    .unwrap()
                    .with_options(FilterOptions::none())
                    .select()
                    .unwrap()
                    .row_count();
                assert_eq!((fast, slow), (n, n), "{p}");
            }
        }
    }
}

#[test]
fn int96_order_as_arrow_rs() {
    let theirs = open(&testdata("orders/int96_order_arrow_rs.parquet"));
    let md = theirs.metadata();
    assert_eq!(md.column_order_name(0), Some("INT96_TIMESTAMP_ORDER"));
    let ours = rewrite(
        &theirs,
        WriterOptions::default()
            .dictionary(false)
            .int96_timestamp_order(true),
    );
    assert_eq!(
        ours.metadata().column_order_name(0),
        Some("INT96_TIMESTAMP_ORDER")
    );
    for rg in 0..md.num_row_groups() {
        assert_eq!(raw(&ours, rg, 0), raw(&theirs, rg, 0), "row group {rg}");
        assert_eq!(
            index(&ours, rg, 0),
            index(&theirs, rg, 0),
            "ColumnIndex of row group {rg}"
        );
    }
    // Bounds read as nanoseconds since the epoch: 1969-12-31T23:59:59.999999999 to
    // 1970-01-02, then 1899-12-31 to 2000-01-01T12:00.
    let day = 86_400_000_000_000i128;
    let st = |rg: usize| {
        let s = md.column_statistics(rg, 0).unwrap();
        (s.min.unwrap(), s.max.unwrap())
    };
    assert_eq!(st(0), (Scalar::Int(-1), Scalar::Int(day)));
    assert_eq!(
        st(1),
        (
            Scalar::Int((2415021 - 2440588) * day),
            Scalar::Int(10957 * day + day / 2)
        )
    );
    // A predicate prunes the first row group by them, and answers as a full scan does.
    for file in [&theirs, &ours] {
        let p = col("ts").ge("1999-01-01T00:00:00");
        let f = file.filter(p.clone()).unwrap().select().unwrap();
        let slow = file
            .filter(p)
            .unwrap()
            .with_options(FilterOptions::none())
            .select()
            .unwrap();
        assert_eq!((f.row_count(), slow.row_count()), (2, 2));
        assert_eq!(f.report.pruned_by_statistics, 1);
    }
}
