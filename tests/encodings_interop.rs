//! Files written with every value encoding, on every physical type it fits, in data pages
//! v1 and v2, alone and as the fallback after a dictionary fills up mid-chunk, are read by
//! our reader with exactly the values written (bit for bit), and by pyarrow and DuckDB with
//! the same values as ours. The rows hold the edge cases: a row group of one row, a row
//! group where optional columns are all null, pages without any value, `i64::MIN` next to
//! `i64::MAX`, NaN, infinities and -0.0, empty strings and byte arrays, long shared
//! prefixes, FLOAT16.
//!
//! ALP has no reader among the installed engines (pyarrow 26: "Unknown encoding type",
//! DuckDB 2.0: invalid data), so ALP files are checked with our reader here and against the
//! specification's examples in the unit tests of `encoding/alp.rs`; files arrow-rs 60 wrote
//! are read value for value in tests/arrow_rs_files.rs, whose ALP files the harness in
//! testdata/alp/harness reads with arrow-rs.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::Path;

use common::rows_json;
use parquet_serde::core::column::Encoding;
use parquet_serde::core::column::{ColumnBatch, DataPageVersion};
use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
use parquet_serde::core::page::PageType;
use parquet_serde::core::schema::PhysicalType as Type;
use parquet_serde::core::schema::{ColumnDescriptor, Schema};
use parquet_serde::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays};
use parquet_serde::{Compression, ReadOptions};
use serde_json::Value as J;

const SCHEMA: &str = "message encodings {
  optional boolean b_opt;
  required boolean b_req;
  required int32 i32_req;
  optional int32 i32_opt (INTEGER(32,true));
  required int64 i64_req;
  optional int64 i64_opt (TIMESTAMP(MICROS,true));
  optional float f32_opt;
  required double f64_req;
  optional binary str_opt (STRING);
  required binary bin_req;
  optional fixed_len_byte_array(16) flba_opt;
  optional fixed_len_byte_array(2) f16_opt (FLOAT16);
  optional group list_i64 (LIST) {
    repeated group list {
      optional int64 element;
    }
  }
}";

/// Row groups: one row; 300 rows with every optional column null; 2,700 rows of data with
/// a run of 400 null rows in the middle (whole pages without values).
const GROUPS: [(usize, usize); 3] = [(0, 1), (1, 301), (301, 3001)];

fn all_null(r: usize) -> bool {
    (1..301).contains(&r) || (1200..1600).contains(&r)
}

fn is_null(r: usize, k: usize) -> bool {
    all_null(r) || (r * 7 + k * 3).is_multiple_of(11)
}

fn i32_value(r: usize) -> i32 {
    match r % 50 {
        0 => i32::MIN,
        1 => i32::MAX,
        2 => 0,
        _ => (r as i32) * 7919 - 1_000_000,
    }
}

fn i64_value(r: usize) -> i64 {
    match r % 40 {
        0 => i64::MIN,
        1 => i64::MAX,
        2 => -1,
        _ => 1_700_000_000_000_000 + r as i64 * 1_000_003 + (r as i64 * 7919) % 977,
    }
}

fn f32_value(r: usize) -> f32 {
    match r % 97 {
        5 => f32::NAN,
        6 => -0.0,
        7 => f32::INFINITY,
        8 => f32::MIN_POSITIVE,
        _ => (r as f32) * 0.25 - 100.0,
    }
}

fn f64_value(r: usize) -> f64 {
    match r % 89 {
        3 => f64::NAN,
        4 => -0.0,
        5 => f64::NEG_INFINITY,
        6 => f64::MAX,
        k if k % 2 == 0 => (r as f64) / 100.0,
        _ => (r as f64) / 3.0,
    }
}

fn text(r: usize) -> String {
    match r % 13 {
        0 => String::new(),
        1 | 2 => format!("https://example.com/{}/shared/prefix/{r}", "a".repeat(300)),
        3 => "héllo \"wörld\"\n".to_string(),
        k => format!("value-{}", (r / 3) % 50 + k),
    }
}

fn bin(r: usize) -> Vec<u8> {
    (r as u32).to_be_bytes()[..r % 5].to_vec()
}

fn flba(r: usize) -> [u8; 16] {
    let mut v = [0u8; 16];
    v[8..].copy_from_slice(&(r as u64 * 0x0101_0101).to_be_bytes());
    v
}

fn f16(r: usize) -> [u8; 2] {
    let bits: u16 = match r % 23 {
        0 => 0x7E00, // NaN
        1 => 0x8000, // -0.0
        2 => 0x7C00, // +inf
        3 => 0x3C00, // 1.0
        _ => 0x3000 + ((r * 37) % 0x2000) as u16,
    };
    bits.to_le_bytes()
}

fn batches(rows: std::ops::Range<usize>) -> Vec<ColumnBatch> {
    let def = |k: usize| {
        rows.clone()
            .map(|r| if is_null(r, k) { 0 } else { 1 })
            .collect::<Vec<i16>>()
    };
    let present = |k: usize| rows.clone().filter(move |&r| !is_null(r, k));
    let flat = |values, def_levels| ColumnBatch {
        values,
        def_levels,
        rep_levels: vec![],
    };
    let mut strs = ByteArrays::new();
    for r in present(5) {
        strs.push(text(r).as_bytes());
    }
    let mut bins = ByteArrays::new();
    for r in rows.clone() {
        bins.push(&bin(r));
    }
    let mut flbas = FixedLenByteArrays::new(16);
    for r in present(6) {
        flbas.push(&flba(r));
    }
    let mut halves = FixedLenByteArrays::new(2);
    for r in present(7) {
        halves.push(&f16(r));
    }
    let (mut lv, mut ld, mut lr) = (vec![], vec![], vec![]);
    for r in rows.clone() {
        if all_null(r) || r % 7 == 0 {
            ld.push(0);
            lr.push(0);
        } else if r % 7 == 1 {
            ld.push(1);
            lr.push(0);
        } else {
            for j in 0..r % 4 + 1 {
                lr.push(if j == 0 { 0 } else { 1 });
                if (r + j) % 5 == 0 {
                    ld.push(2);
                } else {
                    ld.push(3);
                    lv.push(i64_value(r * 3 + j));
                }
            }
        }
    }
    vec![
        flat(
            ColumnValues::Boolean(present(0).map(|r| r % 3 == 0).collect()),
            def(0),
        ),
        flat(
            ColumnValues::Boolean(rows.clone().map(|r| (r / 10) % 2 == 0).collect()),
            vec![],
        ),
        flat(
            ColumnValues::Int32(rows.clone().map(i32_value).collect()),
            vec![],
        ),
        flat(
            ColumnValues::Int32(present(1).map(i32_value).collect()),
            def(1),
        ),
        flat(
            ColumnValues::Int64(rows.clone().map(i64_value).collect()),
            vec![],
        ),
        flat(
            ColumnValues::Int64(
                present(2)
                    .map(|r| 1_700_000_000_000_000 + r as i64 * 1_000)
                    .collect(),
            ),
            def(2),
        ),
        flat(
            ColumnValues::Float(present(3).map(f32_value).collect()),
            def(3),
        ),
        flat(
            ColumnValues::Double(rows.clone().map(f64_value).collect()),
            vec![],
        ),
        flat(ColumnValues::ByteArray(strs), def(5)),
        flat(ColumnValues::ByteArray(bins), vec![]),
        flat(ColumnValues::FixedLenByteArray(flbas), def(6)),
        flat(ColumnValues::FixedLenByteArray(halves), def(7)),
        ColumnBatch {
            values: ColumnValues::Int64(lv),
            def_levels: ld,
            rep_levels: lr,
        },
    ]
}

/// Bitwise equality of values (NaN equals NaN with the same bits; -0.0 differs from 0.0).
fn same_values(a: &ColumnValues, b: &ColumnValues) -> bool {
    match (a, b) {
        (ColumnValues::Float(x), ColumnValues::Float(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits())
        }
        (ColumnValues::Double(x), ColumnValues::Double(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits())
        }
        _ => a == b,
    }
}

/// A file layout to test: a name, the encoding, and the columns it goes on (every column
/// it fits, or only FIXED_LEN_BYTE_ARRAY ones, or none of those).
struct Case {
    name: &'static str,
    encoding: Encoding,
    flba: Flba,
    /// The writer's choice (`auto_encoding`) instead of a fixed encoding.
    auto: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Flba {
    Also,
    Only,
    Not,
}

impl Case {
    /// Whether the case's encoding is asked for column `c` (as `WriterOptions::validate`
    /// accepts it for the column's physical type).
    fn applies(&self, schema: &Schema, c: &ColumnDescriptor) -> bool {
        let t = c.physical_type;
        if self.auto {
            return false;
        }
        let flba_ok = match self.flba {
            Flba::Also => true,
            Flba::Only => t == Type::FixedLenByteArray,
            Flba::Not => t != Type::FixedLenByteArray,
        };
        flba_ok
            && WriterOptions::default()
                .column_encoding(c.path.to_string(), self.encoding)
                .validate(schema)
                .is_ok()
    }

    /// DuckDB 2.0 refuses BYTE_STREAM_SPLIT on FIXED_LEN_BYTE_ARRAY ("only supported for
    /// FLOAT, DOUBLE, INT32 or INT64 data"); pyarrow reads it.
    fn duckdb_reads(&self) -> bool {
        !(self.encoding == Encoding::ByteStreamSplit && self.flba == Flba::Only)
    }
}

fn cases() -> Vec<Case> {
    let case = |name, encoding, flba| Case {
        name,
        encoding,
        flba,
        auto: false,
    };
    vec![
        case("plain", Encoding::Plain, Flba::Also),
        case("rle", Encoding::Rle, Flba::Also),
        case(
            "delta_binary_packed",
            Encoding::DeltaBinaryPacked,
            Flba::Also,
        ),
        case(
            "delta_length_byte_array",
            Encoding::DeltaLengthByteArray,
            Flba::Also,
        ),
        case("delta_byte_array", Encoding::DeltaByteArray, Flba::Also),
        case("byte_stream_split", Encoding::ByteStreamSplit, Flba::Not),
        case(
            "byte_stream_split_flba",
            Encoding::ByteStreamSplit,
            Flba::Only,
        ),
        case("alp", alp(), Flba::Also),
        Case {
            auto: true,
            ..case("auto", Encoding::Plain, Flba::Not)
        },
    ]
}

/// Options with the case's encoding on its columns (others PLAIN), optionally after a
/// dictionary that fills up mid-chunk.
fn options(
    schema: &Schema,
    case: &Case,
    version: DataPageVersion,
    fallback: bool,
) -> WriterOptions {
    let mut o = WriterOptions::default()
        .data_page_version(version)
        .compression(Compression::Zstd(3))
        .page_size(2048)
        .page_row_limit(128)
        .dictionary(fallback)
        .dictionary_page_size_limit(300)
        .auto_encoding(case.auto);
    for c in schema.columns() {
        let path = c.path.to_string();
        if case.applies(schema, c) {
            o = o.column_encoding(path.clone(), case.encoding);
            if fallback {
                o = o.column_dictionary(path, true);
            }
        }
    }
    o
}

fn write_file(path: &Path, options: WriterOptions) -> Vec<Vec<ColumnBatch>> {
    let schema: Schema = SCHEMA.parse().unwrap();
    let mut writer = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut written = Vec::new();
    for (start, end) in GROUPS {
        let batches = batches(start..end);
        let mut chunks = Vec::new();
        for (c, b) in batches.iter().enumerate() {
            let mut w = writer.column_writer(c).unwrap();
            w.write(b).unwrap();
            chunks.push(w.close().unwrap());
        }
        writer.write_row_group(chunks).unwrap();
        written.push(batches);
    }
    std::fs::write(path, writer.close().unwrap().0).unwrap();
    written
}

/// The encodings of the data pages of every chunk of a file, by column.
fn data_page_encodings(path: &Path) -> Vec<Vec<Encoding>> {
    let reader = FileReader::new(std::fs::read(path).unwrap()).unwrap();
    let mut out = vec![Vec::new(); reader.schema().num_columns()];
    for rg in 0..reader.num_row_groups() {
        for (c, encs) in out.iter_mut().enumerate() {
            let chunk = reader.column_chunk(rg, c).unwrap();
            let mut pages = chunk.pages(reader.options());
            while let Some(p) = pages.next_raw().unwrap() {
                let e = match p.page_type() {
                    PageType::DataPage | PageType::DataPageV2 => p.encoding().unwrap(),
                    _ => continue,
                };
                if !encs.contains(&e) {
                    encs.push(e);
                }
            }
        }
    }
    out
}

/// JSON equality where numbers compare by value and the sign of zero counts. Fields of
/// FLOAT and FLOAT16 columns compare as `f32` (engines print them as doubles or shortest
/// floats).
fn strict_eq(a: &J, b: &J) -> bool {
    eq(a, b, false)
}

fn eq(a: &J, b: &J, single: bool) -> bool {
    match (a, b) {
        (J::Number(x), J::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(p), Some(q)) => p == q,
            _ => match (x.as_f64(), y.as_f64()) {
                (Some(p), Some(q)) if single => {
                    p as f32 == q as f32 && p.is_sign_negative() == q.is_sign_negative()
                }
                (Some(p), Some(q)) => p == q && p.is_sign_negative() == q.is_sign_negative(),
                _ => false,
            },
        },
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| eq(p, q, single))
        }
        (J::Object(x), J::Object(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    let single = single || k == "f32_opt" || k == "f16_opt";
                    y.get(k).is_some_and(|w| eq(v, w, single))
                })
        }
        _ => a == b,
    }
}

#[test]
fn every_encoding_read_back_by_us_pyarrow_and_duckdb() {
    let dir = tempfile::tempdir().unwrap();
    let schema: Schema = SCHEMA.parse().unwrap();
    let mut files = Vec::new();
    let mut pyarrow_only = Vec::new();
    let mut alp_files = Vec::new();
    let mut fitted = 0;
    for case in cases() {
        let (name, encoding) = (case.name, case.encoding);
        for (v, version) in [("v1", DataPageVersion::V1), ("v2", DataPageVersion::V2)] {
            for fallback in [false, true] {
                let path = dir.path().join(format!(
                    "{name}-{v}{}.parquet",
                    if fallback { "-fallback" } else { "" }
                ));
                let written = write_file(&path, options(&schema, &case, version, fallback));
                // Our reader: exactly the batches written.
                let reader = FileReader::new(std::fs::read(&path).unwrap()).unwrap();
                for (rg, batches) in written.iter().enumerate() {
                    for (c, b) in batches.iter().enumerate() {
                        let got = reader.read_column(rg, c).unwrap();
                        let col = &schema.columns()[c].path;
                        assert!(
                            same_values(&got.values, &b.values),
                            "{path:?} rg {rg} {col}: values"
                        );
                        assert_eq!(got.def_levels, b.def_levels, "{path:?} rg {rg} {col}: def");
                        assert_eq!(got.rep_levels, b.rep_levels, "{path:?} rg {rg} {col}: rep");
                    }
                }
                // The pages use the encoding asked for wherever it fits.
                for (c, encs) in data_page_encodings(&path).iter().enumerate() {
                    let descr = &schema.columns()[c];
                    if case.applies(&schema, descr) {
                        assert!(
                            encs.contains(&encoding),
                            "{path:?} {}: {encs:?}",
                            descr.path
                        );
                        if fallback && descr.physical_type != Type::Boolean {
                            assert!(
                                encs.contains(&Encoding::RleDictionary),
                                "{path:?} {}: {encs:?}",
                                descr.path
                            );
                        }
                        fitted += 1;
                    }
                }
                if encoding == alp() {
                    alp_files.push(path);
                } else if case.duckdb_reads() {
                    files.push(path);
                } else {
                    pyarrow_only.push(path);
                }
            }
        }
    }
    assert!(
        fitted >= 100,
        "{fitted} columns used the encoding asked for"
    );
    let mut checked = 0;
    let mut failures = Vec::new();
    for engine in ["pyarrow", "duckdb"] {
        let mut files = files.clone();
        if engine == "pyarrow" {
            files.extend(pyarrow_only.iter().cloned());
        }
        let results = common::read_with(engine, &files);
        assert_eq!(results.len(), files.len(), "{engine} read every file");
        for (file, rows) in results {
            let rows = match rows {
                Ok(rows) => rows,
                Err(e) => {
                    failures.push(format!("{engine} failed on {file}: {e}"));
                    continue;
                }
            };
            let ours: Vec<J> = rows_json(std::fs::read(&file).unwrap(), ReadOptions::default())
                .unwrap()
                .iter()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            if rows.len() != ours.len() {
                failures.push(format!(
                    "{engine} {file}: {} rows, ours {}",
                    rows.len(),
                    ours.len()
                ));
                continue;
            }
            if let Some((i, (got, want))) = rows
                .iter()
                .zip(&ours)
                .enumerate()
                .find(|(_, (g, w))| !strict_eq(g, w))
            {
                failures.push(format!(
                    "{engine} {file} row {i}:\n  {engine} {got}\n  ours {want}"
                ));
                continue;
            }
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!(
        "{checked} file reads by pyarrow and DuckDB equal to ours; {} ALP files read back by us",
        alp_files.len()
    );
}

/// The ALP encoding, by the name `Encoding` parses (no variant of its own yet).
fn alp() -> Encoding {
    "ALP".parse().unwrap()
}
