//! The reader table of issue 34 (item 1, item 2): what pyarrow and DuckDB do with the
//! statistics of a file that declares IEEE 754 total order for its floating point columns
//! (`WriterOptions::float_total_order`) or chronological order for its INT96 column
//! (`WriterOptions::int96_timestamp_order`), against the same file in `TYPE_ORDER`.
//!
//! Each cell is observed, not assumed: the file has four row groups whose values rise with
//! the row group, and the predicate `column >= threshold` only the last one meets. A copy of
//! the file has the column chunks of the first three row groups overwritten with garbage: a
//! reader answers on it only if it skipped them by their statistics (testdata/
//! column_order_readers.py). The table below is the one the note gives; a reader that
//! changes its behaviour fails this test.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::Path;

use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
use parquet_serde::core::schema::Schema;
use parquet_serde::core::values::{ColumnValues, FixedLenByteArrays, Int96};
use serde_json::Value as J;

const GROUPS: usize = 4;
const ROWS: usize = 50;
const DAY: i64 = 86_400_000_000_000;

/// (reader, column, minmax visible, prunes) for a file in `TYPE_ORDER` (`orders` false) or in
/// total / chronological order (`orders` true).
fn expected(orders: bool) -> Vec<(&'static str, &'static str, bool, bool)> {
    if !orders {
        vec![
            ("pyarrow", "d", true, true),
            ("pyarrow", "f", true, true),
            // pyarrow 26 compares no half floats: the predicate goes through a cast, which
            // its pruning does not see through, in either order.
            ("pyarrow", "h", true, false),
            // INT96 in TYPE_ORDER: no min/max written (the specification's rule).
            ("pyarrow", "t", false, false),
            ("duckdb", "d", true, true),
            ("duckdb", "f", true, true),
            ("duckdb", "h", true, true),
            ("duckdb", "t", false, false),
        ]
    } else {
        vec![
            ("pyarrow", "d", false, false),
            ("pyarrow", "f", false, false),
            ("pyarrow", "h", false, false),
            ("pyarrow", "t", false, false),
            ("duckdb", "d", true, true),
            ("duckdb", "f", true, true),
            ("duckdb", "h", true, true),
            ("duckdb", "t", true, true),
        ]
    }
}

/// The value of row `k` of row group `g`: rising with the row group.
fn x(g: usize, k: usize) -> i64 {
    (g * 100 + k) as i64
}

/// Bits of a half-precision float of a small non-negative integer (exact below 2048).
fn f16_bits(n: i64) -> u16 {
    if n == 0 {
        return 0;
    }
    let e = 63 - n.leading_zeros();
    let mantissa = ((n << (10 - e)) & 0x3ff) as u16;
    (((e + 15) as u16) << 10) | mantissa
}

fn write(orders: bool) -> Vec<u8> {
    let schema: Schema = "message m { required double d; required float f; \
        required fixed_len_byte_array(2) h (FLOAT16); required int96 t; }"
        .parse()
        .unwrap();
    let options = WriterOptions::default()
        .dictionary(false)
        .float_total_order(orders)
        .int96_timestamp_order(orders);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    for g in 0..GROUPS {
        let xs: Vec<i64> = (0..ROWS).map(|k| x(g, k)).collect();
        let mut h = FixedLenByteArrays::new(2);
        for &v in &xs {
            h.push(&f16_bits(v).to_le_bytes());
        }
        let columns = vec![
            ColumnValues::Double(xs.iter().map(|&v| v as f64).collect()),
            ColumnValues::Float(xs.iter().map(|&v| v as f32).collect()),
            ColumnValues::FixedLenByteArray(h),
            ColumnValues::Int96(xs.iter().map(|&v| Int96::from_nanos(v * DAY)).collect()),
        ];
        let mut chunks = Vec::new();
        for (c, values) in columns.into_iter().enumerate() {
            let mut cw = w.column_writer(c).unwrap();
            cw.write(&ColumnBatch {
                values,
                def_levels: vec![],
                rep_levels: vec![],
            })
            .unwrap();
            chunks.push(cw.close().unwrap());
        }
        w.write_row_group(chunks).unwrap();
    }
    w.close().unwrap().0
}

/// `bytes` with every column chunk of every row group but the last overwritten with 0xA5.
fn broken(bytes: &[u8]) -> Vec<u8> {
    let file = FileReader::new(bytes.to_vec()).unwrap();
    let md = file.metadata();
    let mut out = bytes.to_vec();
    for g in 0..GROUPS - 1 {
        let rg = md.row_group(g).unwrap();
        for c in 0..md.schema().columns().len() {
            let (start, len) = rg.column(c).unwrap().byte_range().unwrap();
            out[start as usize..(start + len) as usize].fill(0xA5);
        }
    }
    out
}

fn observe(orders: bool, dir: &Path) -> Vec<J> {
    let bytes = write(orders);
    let md = FileReader::new(bytes.clone()).unwrap();
    let names = ["d", "f", "h", "t"];
    let want = if orders {
        [
            "IEEE_754_TOTAL_ORDER",
            "IEEE_754_TOTAL_ORDER",
            "IEEE_754_TOTAL_ORDER",
            "INT96_TIMESTAMP_ORDER",
        ]
    } else {
        ["TYPE_ORDER"; 4]
    };
    for (c, w) in want.iter().enumerate() {
        assert_eq!(
            md.metadata().column_order_name(c),
            Some(*w),
            "column {}",
            names[c]
        );
    }
    let (file, bad) = (
        dir.join(format!("{orders}.parquet")),
        dir.join(format!("{orders}.broken.parquet")),
    );
    std::fs::write(&file, &bytes).unwrap();
    std::fs::write(&bad, broken(&bytes)).unwrap();
    let threshold = x(GROUPS - 1, 0);
    let script = common::testdata().join("column_order_readers.py");
    let args = [
        script.into_os_string(),
        file.into_os_string(),
        bad.into_os_string(),
        format!("d={threshold}").into(),
        format!("f={threshold}").into(),
        format!("h={threshold}").into(),
        format!("t={}", threshold * DAY).into(),
    ];
    common::python_json_lines(&args)
}

fn check(orders: bool) {
    let dir = tempfile::tempdir().unwrap();
    let got = observe(orders, dir.path());
    let mut table = Vec::new();
    for row in &got {
        // Whatever the statistics, the answer is the last row group's rows.
        assert_eq!(row["rows"], J::from(ROWS), "{row}");
        table.push((
            row["reader"].as_str().unwrap().to_string(),
            row["column"].as_str().unwrap().to_string(),
            row["minmax"].as_bool().unwrap(),
            row["prunes"].as_bool().unwrap(),
        ));
    }
    table.sort();
    let mut want: Vec<_> = expected(orders)
        .into_iter()
        .map(|(r, c, m, p)| (r.to_string(), c.to_string(), m, p))
        .collect();
    want.sort();
    assert_eq!(table, want, "(reader, column, min/max visible, prunes)");
}

#[test]
fn readers_with_type_order_statistics() {
    check(false);
}

#[test]
fn readers_with_total_order_and_int96_order_statistics() {
    check(true);
}
