//! Predicates on paths inside an unshredded VARIANT column (`fields.b.c >= 2.5`), compared
//! with DuckDB (run as a subprocess) on the same file: random rows whose paths hold every
//! variant type, missing paths and nulls, and random predicates from the whole grammar.
//! DuckDB's side is `TRY_CAST(variant_extract(..) AS T)` with `T` the literal's type, as the
//! filter documents; its one documented difference (objects and arrays never equal a text
//! literal) is written into the oracle's SQL.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::fmt::Write as _;

use parquet_serde::core::file::FileReader;
use parquet_serde::record::Value;
use parquet_serde::variant::Variant;
use parquet_serde::{col, ParquetSchema, Predicate, WriterOptions};
use serde::{Deserialize, Serialize};
use serde_json::Value as J;

#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
struct Row {
    id: i64,
    fields: Option<Variant>,
}

/// xorshift64*: reproducible without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

const STRINGS: &[&str] = &[
    "500",
    " 500 ",
    "-5",
    "+5",
    "00012",
    "0x10",
    "0b101",
    "2.5",
    "1e2",
    " 1.5",
    "1.5 ",
    ".5",
    "nan",
    "inf",
    "true",
    "T",
    "yes",
    "no",
    "f",
    "1",
    "abc",
    "",
    "2026-01-02",
    "1_000",
];

/// A scalar of any variant type, drawn near the literals below so that tests match.
fn scalar(r: &mut Rng) -> Variant {
    let int = *r.pick(&[0i64, 1, 2, 3, 5, -1, 500, 70_000, 5_000_000_000, i64::MIN]);
    match r.below(20) {
        0 => Variant::Int8(int as i8),
        1 => Variant::Int16(int as i16),
        2 => Variant::Int32(int as i32),
        3 => Variant::Int64(int),
        4 => Variant::Float(*r.pick(&[1.5f32, 2.0, 0.1, 1e20, -0.5, f32::NAN])),
        5 | 6 => Variant::Double(*r.pick(&[
            2.5,
            3.5,
            -0.5,
            500.0,
            1e300,
            0.1,
            f64::NAN,
            f64::INFINITY,
            -0.0,
        ])),
        7 => Variant::Decimal4 {
            unscaled: *r.pick(&[150, 250, -250, 249, 50_000, 5]),
            scale: *r.pick(&[0, 1, 2]),
        },
        8 => Variant::Decimal8 {
            unscaled: *r.pick(&[123_456_789, 25, 5_000_000_000]),
            scale: *r.pick(&[0, 1, 9]),
        },
        9 => Variant::Decimal16 {
            unscaled: *r.pick(&[1_234_567_890_123_456_789_012_345i128, 25, -5]),
            scale: *r.pick(&[0, 1, 20]),
        },
        10..=12 => Variant::String(r.pick(STRINGS).to_string()),
        13 => Variant::Bool(r.below(2) == 0),
        14 => Variant::Null,
        15 => Variant::Date(*r.pick(&[0, 20_455, -1])),
        // No timestamp with time zone in nanoseconds: DuckDB cannot write one back as the
        // shredded copy below.
        16 => match r.below(4) {
            0 => Variant::TimestampMicros(1_767_323_045_120_000),
            1 => Variant::TimestampNtzMicros(1_767_323_045_000_000),
            2 => Variant::TimestampNtzNanos(1_767_323_045_000_000_001),
            _ => Variant::Time(11_045_000_100),
        },
        17 => Variant::Uuid([0xab; 16]),
        18 => Variant::Binary(vec![0, 0xff, b'a', b'b']),
        _ => Variant::Array(vec![Variant::Int8(1)]),
    }
}

/// A row's `fields`: null, a variant null, a scalar, or an object whose paths `a`, `b.c`,
/// `arr[1]`, `arr[2]` and `s` are each sometimes missing or of another shape.
fn fields(r: &mut Rng) -> Option<Variant> {
    match r.below(20) {
        0 => return None,
        1 => return Some(Variant::Null),
        2 => return Some(scalar(r)),
        _ => {}
    }
    let mut f: Vec<(&str, Variant)> = Vec::new();
    if r.below(5) > 0 {
        f.push(("a", scalar(r)));
    }
    match r.below(4) {
        0 => {}
        1 => f.push(("b", scalar(r))),
        _ => {
            let mut inner = Vec::new();
            if r.below(5) > 0 {
                inner.push(("c", scalar(r)));
            }
            f.push(("b", Variant::object(inner)));
        }
    }
    match r.below(4) {
        0 => {}
        1 => f.push(("arr", scalar(r))),
        _ => {
            let n = r.below(3);
            f.push(("arr", Variant::Array((0..n).map(|_| scalar(r)).collect())));
        }
    }
    if r.below(2) == 0 {
        f.push(("s", Variant::String(r.pick(STRINGS).to_string())));
    }
    Some(Variant::object(f))
}

/// A path: our text, DuckDB's expression.
const PATHS: &[(&str, &str)] = &[
    ("fields.a", "variant_extract(fields, 'a')"),
    (
        "fields.b.c",
        "variant_extract(variant_extract(fields, 'b'), 'c')",
    ),
    ("fields.b", "variant_extract(fields, 'b')"),
    (
        "fields.arr[1]",
        "variant_extract(variant_extract(fields, 'arr'), 1)",
    ),
    (
        "fields.arr[2]",
        "variant_extract(variant_extract(fields, 'arr'), 2)",
    ),
    ("fields.s", "variant_extract(fields, 's')"),
    ("fields.zz", "variant_extract(fields, 'zz')"),
    ("fields", "fields"),
];

/// A literal: our text, DuckDB's literal, the type it casts to.
fn literal(r: &mut Rng) -> (String, String, &'static str) {
    match r.below(4) {
        0 => {
            let i = *r.pick(&[0i128, 1, 2, 3, 5, -1, 500, 70_000, 5_000_000_000, 1 << 70]);
            let ty = if i64::try_from(i).is_ok() {
                "BIGINT"
            } else {
                "HUGEINT"
            };
            (i.to_string(), format!("{i}::{ty}"), ty)
        }
        1 => {
            let f = *r.pick(&[2.5f64, 1.5, -0.5, 500.0, 0.1, 1e20, 3.0, 100.0, 1e300]);
            (format!("{f:?}"), format!("{f:?}::DOUBLE"), "DOUBLE")
        }
        2 => {
            let s = *r.pick(&[
                "500",
                "abc",
                "true",
                "2.5",
                "1.5",
                "0.1",
                "2026-01-02",
                "-5",
                "0x10",
                "",
                "2026-01-02 03:04:05.12+00",
                "03:04:05.0001",
                "nan",
                "1e+20",
                "\\x00\\xFFab",
                "abababab-abab-abab-abab-abababababab",
                "0",
                "2026-01-02 03:04:05.000000001+00",
                ".05",
                "-0.0",
            ]);
            let q = format!("'{}'", s.replace('\'', "''"));
            (q.clone(), q, "VARCHAR")
        }
        _ => {
            let b = if r.below(2) == 0 { "true" } else { "false" };
            (b.into(), b.into(), "BOOLEAN")
        }
    }
}

/// DuckDB's value of `expr` cast to `ty` (objects and arrays are no text here).
fn cast(expr: &str, ty: &str) -> String {
    if ty == "VARCHAR" {
        format!(
            "(CASE WHEN variant_typeof({expr}) LIKE 'OBJECT%' OR variant_typeof({expr}) LIKE 'ARRAY%' \
             THEN NULL ELSE TRY_CAST({expr} AS VARCHAR) END)"
        )
    } else {
        format!("TRY_CAST({expr} AS {ty})")
    }
}

/// A random test: our text and DuckDB's SQL.
fn test(r: &mut Rng) -> (String, String) {
    let (path, expr) = *r.pick(PATHS);
    match r.below(11) {
        10 => {
            let pat = *r.pick(&["5%", "%0", "_", "%.%", "a%", "%", "2026%", "-%", "%e+%"]);
            let not = if r.below(3) == 0 { " not" } else { "" };
            (
                format!("{path}{not} like '{pat}'"),
                format!(
                    "{}{} LIKE '{pat}'",
                    cast(expr, "VARCHAR"),
                    not.to_uppercase()
                ),
            )
        }
        0 => {
            let not = if r.below(2) == 0 { "" } else { " not" };
            (
                format!("{path} is{not} null"),
                format!("{expr} IS{} NULL", not.to_uppercase()),
            )
        }
        1 => {
            let (a, sa, ta) = literal(r);
            let (b, sb, tb) = literal(r);
            (
                format!("{path} between {a} and {b}"),
                format!(
                    "({} >= {sa} AND {} <= {sb})",
                    cast(expr, ta),
                    cast(expr, tb)
                ),
            )
        }
        2 => {
            let n = 1 + r.below(3);
            let items: Vec<_> = (0..n).map(|_| literal(r)).collect();
            let ours: Vec<&str> = items.iter().map(|x| x.0.as_str()).collect();
            let sql: Vec<String> = items
                .iter()
                .map(|(_, s, t)| format!("{} = {s}", cast(expr, t)))
                .collect();
            let not = r.below(2) == 0;
            (
                format!(
                    "{path}{} in ({})",
                    if not { " not" } else { "" },
                    ours.join(", ")
                ),
                format!("{}({})", if not { "NOT " } else { "" }, sql.join(" OR ")),
            )
        }
        _ => {
            let (op, sop) = *r.pick(&[
                ("=", "="),
                ("!=", "<>"),
                ("<", "<"),
                ("<=", "<="),
                (">", ">"),
                (">=", ">="),
            ]);
            let (l, sl, t) = literal(r);
            (
                format!("{path} {op} {l}"),
                format!("{} {sop} {sl}", cast(expr, t)),
            )
        }
    }
}

/// A random predicate: tests under `not`, `and`, `or`.
fn predicate(r: &mut Rng, depth: usize) -> (String, String) {
    match if depth > 1 { 3 } else { r.below(6) } {
        0 => {
            let (a, sa) = predicate(r, depth + 1);
            (format!("not ({a})"), format!("NOT ({sa})"))
        }
        1 | 2 => {
            let (a, sa) = predicate(r, depth + 1);
            let (b, sb) = predicate(r, depth + 1);
            let (op, sop) = if r.below(2) == 0 {
                ("and", "AND")
            } else {
                ("or", "OR")
            };
            (format!("({a}) {op} ({b})"), format!("({sa}) {sop} ({sb})"))
        }
        _ => test(r),
    }
}

/// Runs each WHERE clause of the JSON list in argv[2] on argv[1], after writing argv[1]
/// again, shredded by DuckDB, to argv[3]; prints one JSON line per clause.
const DUCKDB_WHERE: &str = r#"
import duckdb, json, sys
con = duckdb.connect()
con.execute("SET TimeZone = 'UTC'")
con.execute(f"COPY (SELECT * FROM read_parquet('{sys.argv[1]}')) TO '{sys.argv[3]}' (FORMAT parquet, ROW_GROUP_SIZE 150)")
for w in json.load(open(sys.argv[2])):
    try:
        ids = [r[0] for r in con.execute(f"SELECT id FROM read_parquet('{sys.argv[1]}') WHERE {w} ORDER BY id").fetchall()]
        print(json.dumps(ids))
    except Exception as e:
        print(json.dumps({"error": str(e)}))
"#;

/// Our selected ids for `text`.
fn ours(bytes: &[u8], text: &str) -> Vec<i64> {
    let p = Predicate::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let reader = FileReader::new(bytes.to_vec()).unwrap();
    let filter = reader.filter(p).unwrap_or_else(|e| panic!("{text}: {e}"));
    filter
        .read_rows(&["id"])
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .iter()
        .map(|r| match r.get("id") {
            Some(Value::Int(i)) => *i,
            other => panic!("id {other:?}"),
        })
        .collect()
}

#[test]
fn variant_paths_select_the_rows_duckdb_selects() {
    let dir = tempfile::tempdir().unwrap();
    let mut total = 0;
    let mut matched_some = 0;
    let mut shredded_total = 0;
    for seed in [0x5eed_u64, 0xfeed_beef, 0x1234_5678_9abc] {
        let mut r = Rng(seed);
        let rows: Vec<Row> = (0..600)
            .map(|id| Row {
                id,
                fields: fields(&mut r),
            })
            .collect();
        let options = WriterOptions::default().row_group_rows(150);
        let bytes = parquet_serde::to_vec_with(&rows, options).unwrap();
        let file = dir.path().join(format!("v{seed:x}.parquet"));
        std::fs::write(&file, &bytes).unwrap();
        let preds: Vec<(String, String)> = (0..400).map(|_| predicate(&mut r, 0)).collect();
        let wheres = dir.path().join(format!("w{seed:x}.json"));
        let sql: Vec<&str> = preds.iter().map(|p| p.1.as_str()).collect();
        std::fs::write(&wheres, serde_json::to_string(&sql).unwrap()).unwrap();
        let shredded_file = dir.path().join(format!("s{seed:x}.parquet"));
        let stdout = common::run_python(DUCKDB_WHERE, &[&file, &wheres, &shredded_file]);
        let shredded = std::fs::read(&shredded_file).unwrap();
        let schema = FileReader::new(shredded.clone())
            .unwrap()
            .schema()
            .to_string();
        assert!(
            schema.contains("typed_value"),
            "DuckDB did not shred: {schema}"
        );
        let theirs: Vec<J> = String::from_utf8(stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(theirs.len(), preds.len());
        let mut diffs = String::new();
        for ((text, sql), want) in preds.iter().zip(&theirs) {
            let want: Vec<i64> = match want {
                J::Array(ids) => ids.iter().map(|i| i.as_i64().unwrap()).collect(),
                other => panic!("DuckDB on {sql}: {other}"),
            };
            let got = ours(&bytes, text);
            // The same rows, read through the columns DuckDB shredded them into (paths
            // through shredded arrays are refused, so those are left out).
            let got_shredded = if text.contains("arr[") {
                want.clone()
            } else {
                shredded_total += 1;
                ours(&shredded, text)
            };
            if got_shredded != want {
                let _ = writeln!(
                    diffs,
                    "{text} (shredded by DuckDB)\n  ours {got_shredded:?}\n  DuckDB {want:?}"
                );
            }
            total += 1;
            matched_some += usize::from(!want.is_empty());
            if got != want {
                let only_ours: Vec<_> = got.iter().filter(|i| !want.contains(i)).take(5).collect();
                let only_theirs: Vec<_> =
                    want.iter().filter(|i| !got.contains(i)).take(5).collect();
                let _ = writeln!(
                    diffs,
                    "{text}\n  SQL {sql}\n  only ours {only_ours:?} only DuckDB's {only_theirs:?}"
                );
            }
        }
        assert!(diffs.is_empty(), "seed {seed:x}:\n{diffs}");
    }
    // The random predicates are not vacuous.
    assert_eq!(total, 1200);
    assert!(shredded_total > 700, "{shredded_total}");
    assert!(matched_some > 400, "{matched_some} of {total} select rows");
}

/// The typed API names the same paths: `col("fields").field(..)` and dotted text.
#[test]
fn typed_paths_equal_parsed_paths() {
    let rows: Vec<Row> = (0..50)
        .map(|id| Row {
            id,
            fields: Some(Variant::object([
                (
                    "status",
                    Variant::Int16(if id % 5 == 0 { 500 } else { 200 }),
                ),
                ("http", Variant::object([("route", Variant::from("/a"))])),
            ])),
        })
        .collect();
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    let reader = FileReader::new(bytes.clone()).unwrap();
    let typed = reader
        .filter(col("fields").field("status").eq(500))
        .unwrap()
        .select()
        .unwrap();
    assert_eq!(typed.row_count(), 10);
    assert_eq!(ours(&bytes, "fields.status = 500").len(), 10);
    assert_eq!(ours(&bytes, "fields.status = '500'").len(), 10);
    assert_eq!(ours(&bytes, "fields.http.route = '/a'").len(), 50);
    let nested = reader
        .filter(col("fields").field("http").field("route").eq("/a"))
        .unwrap()
        .select()
        .unwrap();
    assert_eq!(nested.row_count(), 50);
    let e = reader.filter(col("fields.status[0]").eq(1)).unwrap_err();
    assert!(e.message().contains("start at 1"), "{e}");
}
