//! Statistics written by the library, validated by other engines, for every physical and
//! logical type it writes: a file written with page statistics, the page index and
//! statistics truncation (8 bytes) on. pyarrow reads every column chunk's min/max/null count
//! and they equal what the data and the truncation rule give (byte strings cut and raised,
//! FIXED_LEN_BYTE_ARRAYs rounded within their width); DuckDB's filtered counts (which skip
//! row groups and pages by those statistics) equal its full-scan counts for every column,
//! for pivots across each column's range and every comparison.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::Path;

use common::testdata;
use parquet_serde::__internals::format;
use parquet_serde::__internals::format::FileMetaData;
use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::column::Encoding;
use parquet_serde::core::file::{FileReader, FileWriter, StatisticsLevel, WriterOptions};
use parquet_serde::core::schema::Schema;
use parquet_serde::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays, Int96};
use serde_json::{json, Value as J};

const ROWS: usize = 1200;
const PER_GROUP: usize = 400;
const TRUNCATE: usize = 8;

/// How a column's values are built, compared and printed.
#[derive(Clone, Copy)]
enum Kind {
    Bool,
    I32,
    I64,
    F32,
    F64,
    F16,
    Bytes,
    Fixed(usize),
    /// A DECIMAL in any physical type (signed order, never truncated).
    Decimal,
    I96,
}

/// One typed value (ints as their logical value, decimals as unscaled).
#[derive(Clone, PartialEq, PartialOrd)]
enum V {
    B(bool),
    I(i128),
    F(f64),
    Bytes(Vec<u8>),
}

struct Col {
    name: &'static str,
    /// The schema line's type part, e.g. `int32 (INTEGER(8,true))`.
    ty: &'static str,
    kind: Kind,
    /// The value of row `r` from its base `x` (about -20000..24500, rising with r).
    value: fn(i64, usize) -> V,
}

fn base(r: usize, c: usize) -> i64 {
    r as i64 * 37 + ((r * 7919 + c * 31) % 101) as i64 - 20_000
}

fn null(r: usize, c: usize) -> bool {
    (r * 31 + c * 7).is_multiple_of(11)
}

/// Half-precision bits of a small odd integer (exact).
fn f16_bits(n: i32) -> u16 {
    let sign = if n < 0 { 0x8000 } else { 0 };
    let m = n.unsigned_abs();
    let e = 31 - m.leading_zeros();
    let mantissa = ((m << (10 - e)) & 0x3ff) as u16;
    sign | (((e + 15) as u16) << 10) | mantissa
}

fn f16_value(bits: u16) -> f64 {
    let e = ((bits >> 10) & 0x1f) as i32;
    let m = (bits & 0x3ff) as f64;
    let v = (1.0 + m / 1024.0) * 2f64.powi(e - 15);
    if bits & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

const ENUMS: [&str; 5] = [
    "ALPHA",
    "BRAVO",
    "CHARLIE_LONG_NAME",
    "DELTA",
    "ECHO_ECHO_ECHO",
];

fn columns() -> Vec<Col> {
    vec![
        Col {
            name: "c_bool",
            ty: "boolean",
            kind: Kind::Bool,
            value: |x, _| V::B(x % 3 == 0),
        },
        Col {
            name: "c_i8",
            ty: "int32 (INTEGER(8,true))",
            kind: Kind::I32,
            value: |x, _| V::I((x / 200) as i128),
        },
        Col {
            name: "c_u8",
            ty: "int32 (INTEGER(8,false))",
            kind: Kind::I32,
            value: |x, _| V::I((x / 200 + 100) as i128),
        },
        Col {
            name: "c_i16",
            ty: "int32 (INTEGER(16,true))",
            kind: Kind::I32,
            value: |x, _| V::I(x as i128),
        },
        Col {
            name: "c_u16",
            ty: "int32 (INTEGER(16,false))",
            kind: Kind::I32,
            value: |x, _| V::I((x + 20_000) as i128),
        },
        Col {
            name: "c_i32",
            ty: "int32",
            kind: Kind::I32,
            value: |x, _| V::I(x as i128 * 1000),
        },
        Col {
            name: "c_u32",
            ty: "int32 (INTEGER(32,false))",
            kind: Kind::I32,
            value: |x, _| V::I((x + 20_000) as i128 * 90_000),
        },
        Col {
            name: "c_i64",
            ty: "int64",
            kind: Kind::I64,
            value: |x, _| V::I(x as i128 * 1_000_000_000_000),
        },
        Col {
            name: "c_u64",
            ty: "int64 (INTEGER(64,false))",
            kind: Kind::I64,
            value: |x, _| V::I(u64::MAX as i128 - (x + 20_000) as i128 * 1_000_000_000_000),
        },
        Col {
            name: "c_date",
            ty: "int32 (DATE)",
            kind: Kind::I32,
            value: |x, _| V::I(19_000 + x as i128 / 10),
        },
        Col {
            name: "c_time_ms",
            ty: "int32 (TIME(MILLIS,true))",
            kind: Kind::I32,
            value: |x, _| V::I((x + 20_000) as i128 * 1000),
        },
        Col {
            name: "c_time_us",
            ty: "int64 (TIME(MICROS,false))",
            kind: Kind::I64,
            value: |x, _| V::I((x + 20_000) as i128 * 1_000_000),
        },
        Col {
            name: "c_time_ns",
            ty: "int64 (TIME(NANOS,true))",
            kind: Kind::I64,
            value: |x, _| V::I((x + 20_000) as i128 * 1_000_000_000),
        },
        Col {
            name: "c_ts_ms",
            ty: "int64 (TIMESTAMP(MILLIS,true))",
            kind: Kind::I64,
            value: |x, _| V::I(1_700_000_000_000 + x as i128 * 1000),
        },
        Col {
            name: "c_ts_us",
            ty: "int64 (TIMESTAMP(MICROS,false))",
            kind: Kind::I64,
            value: |x, _| V::I(1_700_000_000_000_000 + x as i128 * 1_000_000),
        },
        Col {
            name: "c_ts_ns",
            ty: "int64 (TIMESTAMP(NANOS,true))",
            kind: Kind::I64,
            value: |x, _| V::I(1_700_000_000_000_000_000 + x as i128 * 1_000_000_000),
        },
        Col {
            name: "c_f32",
            ty: "float",
            kind: Kind::F32,
            value: |x, _| V::F(((2 * x + 1) as f32 / 4.0) as f64),
        },
        Col {
            name: "c_f64",
            ty: "double",
            kind: Kind::F64,
            value: |x, _| V::F((2 * x + 1) as f64 / 8.0),
        },
        Col {
            name: "c_f16",
            ty: "fixed_len_byte_array(2) (FLOAT16)",
            kind: Kind::F16,
            value: |x, _| V::F(f16_value(f16_bits(2 * (x / 500) as i32 + 1))),
        },
        Col {
            name: "c_str",
            ty: "binary (STRING)",
            kind: Kind::Bytes,
            value: |x, r| {
                let s = if r % 5 == 0 {
                    format!("s{:06}", x + 20_000)
                } else {
                    format!("s{:06}-long tail {r}", x + 20_000)
                };
                V::Bytes(s.into_bytes())
            },
        },
        Col {
            name: "c_enum",
            ty: "binary (ENUM)",
            kind: Kind::Bytes,
            value: |x, _| {
                V::Bytes(
                    ENUMS[((x + 20_000) / 9000) as usize % 5]
                        .as_bytes()
                        .to_vec(),
                )
            },
        },
        Col {
            name: "c_json",
            ty: "binary (JSON)",
            kind: Kind::Bytes,
            value: |x, _| V::Bytes(format!("{{\"k\":{}}}", x + 20_000).into_bytes()),
        },
        Col {
            name: "c_bin",
            ty: "binary",
            kind: Kind::Bytes,
            value: |x, r| {
                let mut b = ((x + 20_000) as u32).to_be_bytes().to_vec();
                b.extend(std::iter::repeat_n(0xffu8, (r % 3) * 4));
                V::Bytes(b)
            },
        },
        Col {
            name: "c_uuid",
            ty: "fixed_len_byte_array(16) (UUID)",
            kind: Kind::Fixed(16),
            value: |x, r| {
                V::Bytes(
                    (((x + 20_000) as u128) << 64 | (r as u128 * 0x9e37_79b9))
                        .to_be_bytes()
                        .to_vec(),
                )
            },
        },
        Col {
            name: "c_flba",
            ty: "fixed_len_byte_array(20)",
            kind: Kind::Fixed(20),
            value: |x, r| {
                let mut b = ((x + 20_000) as u64).to_be_bytes().to_vec();
                b.extend((0..12).map(|i| (r * 7 + i) as u8));
                V::Bytes(b)
            },
        },
        Col {
            name: "c_dec32",
            ty: "int32 (DECIMAL(9,2))",
            kind: Kind::Decimal,
            value: |x, _| V::I(x as i128 * 100 + 3),
        },
        Col {
            name: "c_dec64",
            ty: "int64 (DECIMAL(18,3))",
            kind: Kind::Decimal,
            value: |x, _| V::I(x as i128 * 1_000_000_000),
        },
        Col {
            name: "c_decfl",
            ty: "fixed_len_byte_array(12) (DECIMAL(27,4))",
            kind: Kind::Decimal,
            value: |x, _| V::I(x as i128 * 100_000_000_000_000_000_000),
        },
        Col {
            name: "c_decbin",
            ty: "binary (DECIMAL(30,5))",
            kind: Kind::Decimal,
            value: |x, _| V::I(x as i128 * 10_000_000_000_000_000_000_000),
        },
        Col {
            name: "c_i96",
            ty: "int96",
            kind: Kind::I96,
            value: |x, _| V::I(x as i128),
        },
    ]
}

/// The physical type name a column's `ty` starts with, and the FLBA width.
fn physical(c: &Col) -> (&str, usize) {
    let word = c.ty.split([' ', '(']).next().unwrap();
    let width = match c.kind {
        Kind::Fixed(w) => w,
        _ => {
            c.ty.strip_prefix("fixed_len_byte_array(")
                .map_or(0, |t| t.split(')').next().unwrap().parse().unwrap())
        }
    };
    (word, width)
}

/// The stored bytes of a decimal in `physical` (FLBA of `width`, or 16-byte BYTE_ARRAY).
fn decimal_bytes(v: i128, width: usize) -> Vec<u8> {
    v.to_be_bytes()[16 - width..].to_vec()
}

fn batch(c: &Col, idx: usize, rows: &[usize]) -> ColumnBatch {
    let (phys, width) = physical(c);
    let mut def = Vec::new();
    let present: Vec<V> = rows
        .iter()
        .filter_map(|&r| {
            let n = null(r, idx);
            def.push(if n { 0 } else { 1 });
            (!n).then(|| (c.value)(base(r, idx), r))
        })
        .collect();
    let ints = || {
        present.iter().map(|v| match v {
            V::I(i) => *i,
            _ => unreachable!(),
        })
    };
    let values = match (c.kind, phys) {
        (Kind::Bool, _) => {
            ColumnValues::Boolean(present.iter().map(|v| v == &V::B(true)).collect())
        }
        (_, "int32") => ColumnValues::Int32(ints().map(|i| i as u32 as i32).collect()),
        (_, "int64") => ColumnValues::Int64(ints().map(|i| i as u64 as i64).collect()),
        (Kind::I96, _) => ColumnValues::Int96(
            ints()
                .map(|i| Int96::from_nanos(i as i64 * 1_000_003))
                .collect(),
        ),
        (Kind::F32, _) => ColumnValues::Float(
            present
                .iter()
                .map(|v| match v {
                    V::F(f) => *f as f32,
                    _ => 0.0,
                })
                .collect(),
        ),
        (Kind::F64, _) => ColumnValues::Double(
            present
                .iter()
                .map(|v| match v {
                    V::F(f) => *f,
                    _ => 0.0,
                })
                .collect(),
        ),
        (Kind::F16, _) => {
            let mut f = FixedLenByteArrays::new(2);
            for v in &present {
                let V::F(x) = v else { unreachable!() };
                f.push(&f16_bits(*x as i32).to_le_bytes());
            }
            ColumnValues::FixedLenByteArray(f)
        }
        (Kind::Decimal, "fixed_len_byte_array") => {
            let mut f = FixedLenByteArrays::new(width);
            for i in ints() {
                f.push(&decimal_bytes(i, width));
            }
            ColumnValues::FixedLenByteArray(f)
        }
        (Kind::Decimal, _) => {
            let mut b = ByteArrays::new();
            for i in ints() {
                b.push(&decimal_bytes(i, 16));
            }
            ColumnValues::ByteArray(b)
        }
        (Kind::Fixed(w), _) => {
            let mut f = FixedLenByteArrays::new(w);
            for v in &present {
                let V::Bytes(b) = v else { unreachable!() };
                f.push(b);
            }
            ColumnValues::FixedLenByteArray(f)
        }
        _ => {
            let mut b = ByteArrays::new();
            for v in &present {
                let V::Bytes(x) = v else { unreachable!() };
                b.push(x);
            }
            ColumnValues::ByteArray(b)
        }
    };
    ColumnBatch {
        values,
        def_levels: def,
        rep_levels: vec![],
    }
}

/// The list column: `[]`, null, or up to 3 optional int64 elements rising with the row.
fn list_batch(rows: &[usize]) -> (ColumnBatch, Vec<i64>, usize) {
    let (mut v, mut d, mut rep, mut nulls) = (Vec::new(), Vec::new(), Vec::new(), 0);
    for &r in rows {
        if r % 17 == 0 {
            d.push(0);
            rep.push(0);
            nulls += 1;
            continue;
        }
        let n = r % 4;
        if n == 0 {
            d.push(1);
            rep.push(0);
            nulls += 1;
        }
        for j in 0..n {
            rep.push((j > 0) as i16);
            if (r + j) % 5 == 0 {
                d.push(2);
                nulls += 1;
            } else {
                d.push(3);
                v.push(r as i64 * 10 + j as i64 - 5000);
            }
        }
    }
    let values = v.clone();
    (
        ColumnBatch {
            values: ColumnValues::Int64(v),
            def_levels: d,
            rep_levels: rep,
        },
        values,
        nulls,
    )
}

fn schema_text(cols: &[Col]) -> String {
    let mut s = String::from("message all_types {\n");
    for c in cols {
        let (phys, _) = physical(c);
        let rest = c.ty.strip_prefix(phys).unwrap().trim();
        let (width, ann) = match rest.strip_prefix('(') {
            Some(t) if phys == "fixed_len_byte_array" => {
                let (w, a) = t.split_once(')').unwrap();
                (format!("({w})"), a.trim().to_string())
            }
            _ => (String::new(), rest.to_string()),
        };
        s += &format!("  optional {phys}{width} {} {ann};\n", c.name);
    }
    s += "  optional group c_list (LIST) { repeated group list { optional int64 element; } }\n}";
    s
}

fn write(path: &Path, cols: &[Col]) {
    write_with(path, cols, false)
}

/// [`write`], with the writer choosing every column's encoding when `auto`.
fn write_with(path: &Path, cols: &[Col], auto: bool) {
    let schema: Schema = schema_text(cols).parse().unwrap();
    let options = WriterOptions::default()
        .statistics(StatisticsLevel::Page)
        .page_index(true)
        .statistics_truncate_length(Some(TRUNCATE))
        .page_row_limit(100)
        .auto_encoding(auto);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    for g in 0..ROWS / PER_GROUP {
        let rows: Vec<usize> = (g * PER_GROUP..(g + 1) * PER_GROUP).collect();
        let mut chunks = Vec::new();
        for (i, c) in cols.iter().enumerate() {
            let mut cw = w.column_writer(i).unwrap();
            cw.write(&batch(c, i, &rows)).unwrap();
            chunks.push(cw.close().unwrap());
        }
        let mut cw = w.column_writer(cols.len()).unwrap();
        cw.write(&list_batch(&rows).0).unwrap();
        chunks.push(cw.close().unwrap());
        w.write_row_group(chunks).unwrap();
    }
    std::fs::write(path, w.close().unwrap().0).unwrap();
}

fn hex(b: &[u8]) -> J {
    json!({ "hex": b.iter().map(|x| format!("{x:02x}")).collect::<String>() })
}

/// The bounds the truncation rule gives for byte strings (unsigned order).
fn truncated(min: &[u8], max: &[u8], fixed: bool) -> (Vec<u8>, Vec<u8>) {
    if fixed {
        let mut lo = min.to_vec();
        let mut hi = max.to_vec();
        if lo.len() > TRUNCATE {
            lo[TRUNCATE..].fill(0);
            hi[TRUNCATE..].fill(0xff);
        }
        return (lo, hi);
    }
    let lo = min[..min.len().min(TRUNCATE)].to_vec();
    let hi = if max.len() > TRUNCATE {
        let mut p = max[..TRUNCATE].to_vec();
        while p.last() == Some(&0xff) {
            p.pop();
        }
        *p.last_mut().unwrap() += 1;
        p
    } else {
        max.to_vec()
    };
    (lo, hi)
}

/// The (min, max) pyarrow should report for column `c` over `rows`, as stats_with.py prints
/// them; `None` for INT96 (bounds in INT96_TIMESTAMP_ORDER, which pyarrow does not read).
fn expected(c: &Col, idx: usize, rows: &[usize]) -> Option<(J, J)> {
    let vals: Vec<V> = rows
        .iter()
        .filter(|&&r| !null(r, idx))
        .map(|&r| (c.value)(base(r, idx), r))
        .collect();
    let (mut lo, mut hi) = (vals[0].clone(), vals[0].clone());
    for v in &vals {
        if v.partial_cmp(&lo) == Some(std::cmp::Ordering::Less) {
            lo = v.clone();
        }
        if v.partial_cmp(&hi) == Some(std::cmp::Ordering::Greater) {
            hi = v.clone();
        }
    }
    let j = |v: &V| match v {
        V::B(b) => json!(b),
        V::I(i) => json!(i.to_string()),
        V::F(f) => json!(f),
        V::Bytes(b) => hex(b),
    };
    match (c.kind, &lo, &hi) {
        (Kind::I96, _, _) => None,
        (Kind::Bytes, V::Bytes(a), V::Bytes(b)) => {
            let (a, b) = truncated(a, b, false);
            Some((hex(&a), hex(&b)))
        }
        (Kind::Fixed(_), V::Bytes(a), V::Bytes(b)) => {
            let (a, b) = truncated(a, b, true);
            Some((hex(&a), hex(&b)))
        }
        _ => Some((j(&lo), j(&hi))),
    }
}

fn run_py(script: &str, args: &[&str]) -> Vec<J> {
    let mut all = vec!["-c", script];
    all.extend_from_slice(args);
    common::python_json_lines(&all)
}

fn stats_with(args: &[&str]) -> Vec<J> {
    let script = testdata().join("stats_with.py");
    let mut all = vec![script.as_os_str()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    common::python_json_lines(&all)
}

fn same(a: &J, b: &J) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

#[test]
fn pyarrow_reads_the_statistics_of_every_type() {
    let cols = columns();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("all.parquet");
    write(&path, &cols);
    let p = path.to_str().unwrap();
    let stats = stats_with(&["pyarrow", p]);
    assert_eq!(
        stats.len(),
        (cols.len() + 1) * ROWS / PER_GROUP,
        "pyarrow reads every chunk"
    );
    let mut failures = Vec::new();
    for s in &stats {
        let rg = s["rg"].as_u64().unwrap() as usize;
        let c = s["col"].as_u64().unwrap() as usize;
        let rows: Vec<usize> = (rg * PER_GROUP..(rg + 1) * PER_GROUP).collect();
        let (want, nulls) = match cols.get(c) {
            Some(col) => (
                expected(col, c, &rows),
                rows.iter().filter(|&&r| null(r, c)).count(),
            ),
            None => {
                let (_, v, nulls) = list_batch(&rows);
                let (lo, hi) = (v.iter().min().unwrap(), v.iter().max().unwrap());
                (Some((json!(lo.to_string()), json!(hi.to_string()))), nulls)
            }
        };
        let at = format!("row group {rg} {}", s["path"]);
        assert_eq!(s["null_count"], json!(nulls), "{at}");
        // INT96 has a ColumnIndex too (INT96_TIMESTAMP_ORDER), whose bounds pyarrow 26 does
        // not read (it does not know the order).
        let int96 = cols.get(c).is_some_and(|col| matches!(col.kind, Kind::I96));
        assert_eq!(
            s["has_column_index"],
            json!(want.is_some() || int96),
            "{at}"
        );
        assert_eq!(s["has_offset_index"], json!(true), "{at}");
        match want {
            None => assert_eq!(s["has_min_max"], json!(false), "{at}"),
            Some((lo, hi)) => {
                if s["has_min_max"] != json!(true) || !same(&s["min"], &lo) || !same(&s["max"], &hi)
                {
                    failures.push(format!(
                        "{at}: pyarrow {} {} expected {lo} {hi}",
                        s["min"], s["max"]
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Our own reader agrees on the FLBA widths (chunk and page index).
    let reader = FileReader::new(std::fs::read(&path).unwrap()).unwrap();
    for (c, d) in reader.schema().columns().iter().enumerate() {
        if d.type_length > 0 {
            let ci = parquet_serde::__internals::column_index(&reader, 0, c)
                .unwrap()
                .unwrap();
            for b in ci.min_values.iter().chain(&ci.max_values) {
                assert_eq!(b.len(), d.type_length as usize, "{} page index", d.path);
            }
        }
    }
}

const DUCKDB_COUNTS: &str = r#"
import json, sys, duckdb
path, names = sys.argv[1], sys.argv[2].split(",")
con = duckdb.connect()
src = "read_parquet('%s')" % path.replace("'", "''")
for c in names:
    # Pivots as text, cast back to the column's type in the query: constants DuckDB can
    # push into the scan (and no Python conversion of its types).
    typ = con.execute(f"select typeof({c}) from {src} limit 1").fetchone()[0]
    nn = f"(select {c} from {src} where {c} is not null)"
    pivots = []
    for off in (0, 137, 401, 777, 1000):
        pivots += [r[0] for r in con.execute(
            f"select {c}::varchar from {nn} limit 1 offset {off}").fetchall()]
    pivots += list(con.execute(f"select min({c})::varchar, max({c})::varchar from {src}").fetchone())
    for v in pivots:
        lit = f"CAST(? AS {typ})"
        for op in ("<", "<=", "=", ">=", ">"):
            pushed = con.execute(f"select count(*) from {src} where {c} {op} {lit}", [v]).fetchone()[0]
            full = con.execute(
                f"select count(*) from (select {c}, row_number() over () as rn from {src}) "
                f"where {c} {op} {lit}", [v]).fetchone()[0]
            print(json.dumps({"column": c, "type": typ, "op": op, "value": v,
                              "filtered": pushed, "full": full}))
"#;

/// Auto encoding picks DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT and the delta byte-array
/// encodings here; DuckDB filters every column of it right (it once refused
/// DELTA_LENGTH_BYTE_ARRAY on the BYTE_ARRAY DECIMAL column).
#[test]
fn duckdb_filters_auto_encoded_columns() {
    let cols = columns();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("auto.parquet");
    write_with(&path, &cols, true);
    let r = FileReader::new(std::fs::read(&path).unwrap()).unwrap();
    let mut encodings = Vec::new();
    for c in r.metadata().row_group(0).unwrap().columns() {
        assert!(c.has_metadata());
        encodings.extend(c.encodings().iter().copied());
    }
    for e in [
        Encoding::DeltaBinaryPacked,
        Encoding::ByteStreamSplit,
        Encoding::DeltaByteArray,
    ] {
        assert!(encodings.contains(&e), "{e:?} in {encodings:?}");
    }
    let names = "c_i64,c_ts_us,c_f64,c_str,c_json,c_bin,c_uuid,c_flba,c_dec64,c_decfl,c_decbin";
    let rows = run_py(DUCKDB_COUNTS, &[path.to_str().unwrap(), names]);
    let failures: Vec<String> = rows
        .iter()
        .filter(|r| r["filtered"] != r["full"])
        .map(|r| r.to_string())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(rows.len(), names.split(',').count() * 7 * 5);
}

#[test]
fn duckdb_filtered_counts_equal_full_scans() {
    let cols = columns();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("all.parquet");
    write(&path, &cols);
    let names: Vec<&str> = cols.iter().map(|c| c.name).collect();
    let rows = run_py(DUCKDB_COUNTS, &[path.to_str().unwrap(), &names.join(",")]);
    let mut failures = Vec::new();
    let mut selective = 0;
    for r in &rows {
        if r["filtered"] != r["full"] {
            failures.push(r.to_string());
        }
        let f = r["full"].as_u64().unwrap();
        if f > 0 && f < (ROWS as u64) / 2 {
            selective += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
    assert_eq!(
        rows.len(),
        cols.len() * 7 * 5,
        "every column, pivot and comparison"
    );
    // DuckDB does skip by these statistics (so wrong ones would show): the same file with
    // row group 0's c_i32 maximum lowered to its minimum loses rows in filtered counts.
    let bytes = std::fs::read(&path).unwrap();
    let len = u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
    let start = bytes.len() - 8 - len as usize;
    let (mut meta, _) = format::decode::<FileMetaData>(&bytes[start..bytes.len() - 8]).unwrap();
    let c = cols.iter().position(|c| c.name == "c_i32").unwrap();
    let s = meta.row_groups[0].columns[c]
        .meta_data
        .as_mut()
        .unwrap()
        .statistics
        .as_mut()
        .unwrap();
    s.max_value = s.min_value.clone();
    s.max = s.min.clone();
    let mut wrong = bytes[..start].to_vec();
    let mut footer = Vec::new();
    format::encode(&meta, &mut footer);
    wrong.extend_from_slice(&footer);
    wrong.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    wrong.extend_from_slice(b"PAR1");
    let wrong_path = dir.path().join("wrong.parquet");
    std::fs::write(&wrong_path, wrong).unwrap();
    let rows_wrong = run_py(DUCKDB_COUNTS, &[wrong_path.to_str().unwrap(), "c_i32"]);
    assert!(
        rows_wrong.iter().any(|r| r["filtered"] != r["full"]),
        "DuckDB ignores the statistics: this test could not see wrong ones"
    );
    // The pivots cut the columns: many comparisons select a part of the rows, where
    // skipping by statistics matters.
    assert!(
        selective > rows.len() / 4,
        "{selective} selective comparisons"
    );
}
