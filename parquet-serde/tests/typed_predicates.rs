//! Predicates typed by the column's logical type (issue 28), checked against DuckDB as the
//! oracle: a file written by pyarrow with DECIMAL on INT32, INT64 and FIXED_LEN_BYTE_ARRAY,
//! timestamps of every unit (UTC-adjusted or local), DATE, TIME, FLOAT16, UUID, unsigned
//! integers, booleans and strings, with nulls, several row groups and small pages with the
//! page index. Each predicate is run through `Predicate::parse` with every pruning on and
//! with none, and through DuckDB's `WHERE` (TimeZone UTC); the selected ids must agree.
//! The cases are the findings of the issue: whole and fractional literals on DECIMAL,
//! literals finer than a timestamp's unit on every operator, `in` with null, a date-only
//! literal on a timestamp, a timestamp literal on DATE, `a = 1.0` on an integer column,
//! INT96, LIKE, booleans, column against column. A Hive folder whose predicate cannot
//! apply to one file fails before any row.

mod common;

use std::fs::File;
use std::path::Path;

use parquet_serde::core::file::FileReader;
use parquet_serde::dataset::Dataset;
use parquet_serde::filter::{col, FilterOptions, Predicate};
use parquet_serde::record::Value;
use parquet_serde::Reader;
use serde::Deserialize;

const WRITE: &str = r#"
import sys, datetime, decimal, uuid, struct
import pyarrow as pa, pyarrow.parquet as pq
n = 3000
def half(vals, valid):
    bits = bytes(sum(1 << j for j in range(8) if i + j < len(valid) and valid[i + j]) for i in range(0, len(valid), 8))
    data = struct.pack(f"<{len(vals)}e", *vals)
    return pa.Array.from_buffers(pa.float16(), len(vals), [pa.py_buffer(bits), pa.py_buffer(data)])
D = decimal.Decimal
def cents(i):
    if i < 300:
        return i - 150
    return (i * 7919173) % 12000000 - 2000000
def nul(i, v, k=13):
    return None if i % k == 5 else v
base = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
ids = list(range(n))
t = pa.table({
    "id": pa.array(ids, pa.int32()),
    "i": pa.array([nul(i, (i % 7) - 3) for i in ids], pa.int32()),
    "u64": pa.array([nul(i, (2**64 - 1 - i) if i % 2 else i) for i in ids], pa.uint64()),
    "d32": pa.array([nul(i, D(cents(i) % 10**9).scaleb(-2)) for i in ids], pa.decimal128(9, 2)),
    "d64": pa.array([nul(i, D(cents(i)).scaleb(-2), 11) for i in ids], pa.decimal128(12, 2)),
    "dfix": pa.array([nul(i, D(cents(i) * 10**20 + i).scaleb(-4)) for i in ids], pa.decimal128(30, 4)),
    "f32": pa.array([nul(i, [0.1, 0.5, -2.25, float('nan'), 1e10][i % 5]) for i in ids], pa.float32()),
    "f64": pa.array([nul(i, [0.1, 0.5, -2.25, float('nan'), 1.5][i % 5]) for i in ids], pa.float64()),
    "ts_ms": pa.array([nul(i, base + datetime.timedelta(milliseconds=19000 + i)) for i in ids], pa.timestamp("ms", tz="UTC")),
    "ts_us": pa.array([nul(i, (base + datetime.timedelta(microseconds=19830000 + 7 * i)).replace(tzinfo=None)) for i in ids], pa.timestamp("us")),
    "ts_ns": pa.array([nul(i, 1704067200_000000000 + 19_833_999_000 + 250 * i) for i in ids], pa.timestamp("ns", tz="UTC")),
    "day": pa.array([nul(i, datetime.date(2024, 1, 1) + datetime.timedelta(days=i // 100)) for i in ids], pa.date32()),
    "tod": pa.array([nul(i, 19_833_000 + i) for i in ids], pa.time64("us")),
    "tms": pa.array([nul(i, 19_000 + i) for i in ids], pa.time32("ms")),
    "h": half([[0.5, 1.5, -2.0, 65504.0, 0.099975586][i % 5] for i in ids], [i % 13 != 5 for i in ids]),
    "flag": pa.array([nul(i, i % 3 == 0, 7) for i in ids], pa.bool_()),
    "s": pa.array([nul(i, ["abc", "abd", "b_c", "", "zz%", "é!"][i % 6] + str(i % 4)) for i in ids], pa.string()),
    "id2": pa.array([nul(i, uuid.UUID(int=i * 7919).bytes) for i in ids], pa.uuid()),
})
pq.write_table(t, sys.argv[1], row_group_size=700, data_page_size=512, write_page_index=True,
               store_decimal_as_integer=True, write_statistics=True)
"#;

const WRITE_INT96: &str = r#"
import sys, datetime
import pyarrow as pa, pyarrow.parquet as pq
n = 1000
t = pa.table({
    "id": pa.array(range(n), pa.int32()),
    "old": pa.array([None if i % 9 == 4 else 1704067200_000000000 + 19_833_000_000 + 1000 * i for i in range(n)], pa.timestamp("ns")),
})
pq.write_table(t, sys.argv[1], row_group_size=300, use_deprecated_int96_timestamps=True)
"#;

/// DuckDB's ids for each predicate: argv[1] the file, argv[2..] the WHERE clauses.
const DUCKDB: &str = r#"
import sys, json, duckdb
c = duckdb.connect()
c.execute("SET TimeZone = 'UTC'")
for w in sys.argv[2:]:
    try:
        ids = [r[0] for r in c.execute(f"SELECT id FROM read_parquet('{sys.argv[1]}') WHERE {w} ORDER BY id").fetchall()]
        print(json.dumps({"ok": ids}))
    except Exception as e:
        print(json.dumps({"error": str(e)}))
"#;

#[derive(Deserialize)]
struct Id {
    id: i32,
}

fn ours(path: &Path, p: &Predicate, options: FilterOptions) -> parquet_serde::Result<Vec<i64>> {
    let reader = FileReader::new(File::open(path)?)?;
    let rows =
        Reader::<_, Id>::from_file_reader(reader)?.filter_with_options(p.clone(), options)?;
    let mut ids = rows
        .map(|r| r.map(|r| r.id as i64))
        .collect::<parquet_serde::Result<Vec<_>>>()?;
    ids.sort();
    Ok(ids)
}

fn duckdb(path: &Path, wheres: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec![
        "-c".to_string(),
        DUCKDB.to_string(),
        path.display().to_string(),
    ];
    args.extend(wheres.iter().map(|w| w.to_string()));
    common::python_json_lines(&args)
}

/// Runs every predicate (ours as `parse` reads it; DuckDB's text may differ) and returns
/// the disagreements, with the number of rows each selected.
fn compare(path: &Path, cases: &[(&str, &str)]) -> (Vec<String>, Vec<usize>) {
    let duck: Vec<&str> = cases.iter().map(|(_, d)| *d).collect();
    let expected = duckdb(path, &duck);
    let mut bad = Vec::new();
    let mut counts = Vec::new();
    for ((text, d), want) in cases.iter().zip(expected) {
        let Some(want) = want.get("ok") else {
            bad.push(format!("{text}: DuckDB refused {d}: {want}"));
            continue;
        };
        let want: Vec<i64> = want
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        counts.push(want.len());
        let p = match Predicate::parse(text) {
            Ok(p) => p,
            Err(e) => {
                bad.push(format!("{text}: {e}"));
                continue;
            }
        };
        for options in [FilterOptions::default(), FilterOptions::none()] {
            match ours(path, &p, options) {
                Ok(got) if got == want => {}
                Ok(got) => bad.push(format!(
                    "{text} ({options:?}): {} rows, DuckDB {} (first ours {:?}, DuckDB {:?})",
                    got.len(),
                    want.len(),
                    got.iter().take(5).collect::<Vec<_>>(),
                    want.iter().take(5).collect::<Vec<_>>()
                )),
                Err(e) => bad.push(format!("{text}: {e}")),
            }
        }
    }
    (bad, counts)
}

fn same<'a>(cases: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    cases.iter().map(|c| (*c, *c)).collect()
}

#[test]
fn typed_predicates_agree_with_duckdb() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typed.parquet");
    std::fs::write(&path, common::python_file(WRITE)).unwrap();
    let mut cases = same(&[
        // DECIMAL on INT32, INT64, FIXED_LEN_BYTE_ARRAY: whole numbers by value.
        "d32 > 90000",
        "d64 > 90000",
        "dfix > 90000",
        "d64 > 90000.00",
        "d64 > 99999.99",
        "d32 <= -19999.5",
        // Fractions: finer than the scale, on every operator.
        "d64 > 1.005",
        "d64 >= 1.005",
        "d64 < 1.005",
        "d64 <= 1.005",
        "d64 = 1.005",
        "d64 != 1.005",
        "d64 < -1.005",
        "d64 = 1.01",
        "d64 between 0.995 and 1.015",
        "d64 in (1.005, 1.01, -0.5)",
        "d64 not in (1.005, 1.01, -0.5)",
        "dfix > 766.174223",
        "dfix between -1.00005 and 1.00005",
        "dfix = 1234567890123456789012.3456",
        "d32 = 1",
        "d64 = '1.01'",
        "i >= '2'",
        // Integers with any number; unsigned over the whole range.
        "i = 1.0",
        "i > 1.5",
        "i <= -2.5",
        "i in (1.0, 2.5, -3)",
        "u64 > 18446744073709551000",
        "u64 = 18446744073709551615",
        "u64 < 10",
        // Timestamps finer than their unit, every operator; a date alone is midnight.
        "ts_ms >= '2024-01-01T00:00:19.833999Z'",
        "ts_ms > '2024-01-01T00:00:19.833999Z'",
        "ts_ms < '2024-01-01T00:00:19.833999Z'",
        "ts_ms <= '2024-01-01T00:00:19.833999Z'",
        "ts_ms = '2024-01-01T00:00:19.833999Z'",
        "ts_ms != '2024-01-01T00:00:19.833999Z'",
        "ts_ms = '2024-01-01T00:00:19.834Z'",
        "ts_ms in ('2024-01-01T00:00:19.833999Z', '2024-01-01T00:00:19.9Z')",
        "ts_ms between '2024-01-01T00:00:19.8335Z' and '2024-01-01T00:00:19.8365Z'",
        "ts_ms >= '2024-01-01 01:00:19.835+01:00'",
        "ts_ms >= '2024-01-01'",
        "ts_ms < '2024-01-02'",
        "ts_us >= '2024-01-01T00:00:19.833999'",
        "ts_us > '2024-01-01 00:00:19.83'",
        "ts_ns >= '2024-01-01T00:00:19.834000123Z'",
        "ts_ns = '2024-01-01T00:00:19.834000250Z'",
        "ts_ns < '2024-01-01T00:00:19.834Z'",
        // DATE (with timestamps below), TIME with fractions.
        "day >= '2024-01-20'",
        "tod >= '00:00:19.835'",
        "tod = '00:00:19.8335'",
        "tms >= '00:00:19.8335'",
        "tms < '00:00:19.8335'",
        "tms = '00:00:19.834'",
        "ts_us >= '2024-01-01T00:00:19.833999+05:00'",
        // FLOAT16 (DuckDB reads it as FLOAT).
        "h > 0.5",
        "h = 1.5",
        "h < 0",
        "h >= 65504",
        "h = 0.1",
        "h > f32",
        // IN with null.
        "i in (1, null)",
        "i not in (1, null)",
        "s in ('abc0', null)",
        "not (i in (1, null)) or id < 3",
        // Booleans.
        "flag",
        "not flag",
        "flag is true",
        "flag is false",
        "flag is not true",
        "flag is not false",
        "flag = false or flag is null",
        // LIKE.
        "s like 'ab%'",
        "s like '_b_1'",
        "s not like '%c%'",
        "s like 'b_c%'",
        "s like '%'",
        "s like 'é_%'",
        "s like 'zz%%'",
        "s like 'abc0'",
        // Column against column.
        "i < d64",
        "d32 = d64",
        "d64 <= dfix",
        "f64 > i",
        "ts_ms >= day",
        "i = i",
        // Floats: NaN greatest and equal to itself; decimal literals on FLOAT as FLOAT.
        "f32 = 0.1",
        "f64 = 0.1",
        "f32 > 0.4",
        "f64 < 0.2",
        "f64 = '1.5'",
        // UUID text.
        "id2 = '00000000-0000-0000-0000-000000001eef'",
        "id2 > '00000000-0000-0000-0000-000000100000'",
        // Booleans and numbers, as DuckDB casts them.
        "flag = 1",
        "flag > 0",
        "flag != 2",
        "flag = 0.0",
        "flag in (1, 2)",
        "flag not in (0, 5)",
        "flag between 0 and 7",
        "flag = 't'",
        "flag < 'YES'",
        "i = true",
        "i > true",
        "i in (false, 3)",
        "f64 = true",
        "d64 != false",
    ]);
    // A date-time on DATE: the day's midnight against the literal's instant, as DuckDB
    // compares a DATE with a typed TIMESTAMP (it would cut untyped text to its date).
    cases.extend([
        (
            "day = '2024-01-05T13:00:00Z'",
            "day = TIMESTAMPTZ '2024-01-05 13:00:00+00'",
        ),
        (
            "day < '2024-01-05 23:59:59'",
            "day < TIMESTAMP '2024-01-05 23:59:59'",
        ),
        (
            "day <= '2024-01-05T13:00:00'",
            "day <= TIMESTAMP '2024-01-05 13:00:00'",
        ),
        (
            "day = '2024-01-05T00:00:00'",
            "day = TIMESTAMP '2024-01-05 00:00:00'",
        ),
        (
            "day >= '2024-01-05T00:00:00.000001'",
            "day >= TIMESTAMP '2024-01-05 00:00:00.000001'",
        ),
        (
            "day between '2024-01-04T23:00:00-05:00' and '2024-01-07T12:00:00Z'",
            "day between TIMESTAMPTZ '2024-01-04 23:00:00-05:00' and TIMESTAMPTZ '2024-01-07 12:00:00+00'",
        ),
    ]);
    let (bad, counts) = compare(&path, &cases);
    assert!(
        bad.is_empty(),
        "{} of {} disagree:\n{}",
        bad.len(),
        cases.len(),
        bad.join("\n")
    );
    // The predicates select something and leave something out.
    assert!(
        counts.iter().filter(|&&c| c > 0 && c < 3000).count() > cases.len() / 2,
        "{counts:?}"
    );
    // The issue's headline: `amount > 90000` on DECIMAL(12,2) selects only amounts above
    // 90000.00, not unscaled values above 90000.
    let p = Predicate::parse("d64 > 90000").unwrap();
    let rows = ours(&path, &p, FilterOptions::default()).unwrap();
    let typed = ours(&path, &col("d64").gt(90000), FilterOptions::default()).unwrap();
    assert_eq!(rows, typed);
    assert!(rows.len() < 400, "{}", rows.len());
}

/// DECIMAL on BYTE_ARRAY (pyarrow writes none): written by our own writer, with several
/// row groups and small pages with the page index.
#[test]
fn byte_array_decimals_compare_by_value() {
    use parquet_serde::record::ValueWriter;
    use parquet_serde::WriterOptions;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dbin.parquet");
    let schema = "message m { required int32 id; optional binary amount (DECIMAL(20,2)); }"
        .parse()
        .unwrap();
    let rows: Vec<Value> = (0..2000i64)
        .map(|i| {
            let cents: i128 = if i < 300 {
                i as i128 - 150
            } else {
                (i as i128 * 7_919_173) % 12_000_000 - 2_000_000
            };
            // Minimal big-endian two's complement, as writers store BYTE_ARRAY decimals.
            let be = cents.to_be_bytes();
            let skip = be
                .windows(2)
                .take_while(|w| (w[0] == 0 && w[1] < 0x80) || (w[0] == 0xff && w[1] >= 0x80))
                .count();
            let amount = if i % 17 == 3 {
                Value::Null
            } else {
                Value::Decimal {
                    unscaled: be[skip..].to_vec(),
                    scale: 2,
                }
            };
            Value::Group(vec![
                ("id".into(), Value::Int(i)),
                ("amount".into(), amount),
            ])
        })
        .collect();
    let options = WriterOptions::default()
        .row_group_rows(300)
        .page_row_limit(50)
        .page_index(true);
    let mut writer = ValueWriter::new(Vec::new(), schema, options).unwrap();
    writer.write_all(&rows).unwrap();
    let bytes = writer.into_inner().unwrap();
    std::fs::write(&path, bytes).unwrap();
    let cases = same(&[
        "amount > 90000",
        "amount > 90000.00",
        "amount > 1.005",
        "amount >= 1.005",
        "amount < -1.005",
        "amount = 1.005",
        "amount != 1.005",
        "amount = 1.01",
        "amount between 0.995 and 1.015",
        "amount in (1.005, 1.01, -0.5, 12)",
        "amount not in (1.005, 1.01)",
        "amount < -19999",
        "amount > id",
    ]);
    let (bad, counts) = compare(&path, &cases);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(
        counts.iter().filter(|&&c| c > 0).count() >= 10,
        "{counts:?}"
    );
}

/// NaN is greatest and equal to itself, as DuckDB orders values; DuckDB's own reader
/// skips NaN rows of files whose statistics (NaN left out, as pyarrow writes them) say
/// max < literal, so these are checked against the documented order instead.
#[test]
fn nan_is_greatest_through_pruning() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typed.parquet");
    std::fs::write(&path, common::python_file(WRITE)).unwrap();
    let nan_ids: Vec<i64> = (0..3000).filter(|i| i % 5 == 3 && i % 13 != 5).collect();
    for text in [
        "f64 > 1e300",
        "f64 = 'NaN'",
        "f64 >= 'inf'",
        "f32 > 1e30",
        "f32 = 'nan'",
    ] {
        for options in [FilterOptions::default(), FilterOptions::none()] {
            let got = ours(&path, &Predicate::parse(text).unwrap(), options).unwrap();
            assert_eq!(got, nan_ids, "{text}");
        }
    }
}

#[test]
fn int96_timestamps_compare_as_instants() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("int96.parquet");
    std::fs::write(&path, common::python_file(WRITE_INT96)).unwrap();
    let cases = same(&[
        "old >= '2024-01-01T00:00:19.833500Z'",
        "old = '2024-01-01T00:00:19.833501'",
        "old < '2024-01-01T00:00:19.834Z'",
        "old between '2024-01-01T00:00:19.8331' and '2024-01-01T00:00:19.8332'",
        "old is null",
    ]);
    let (bad, counts) = compare(&path, &cases);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
    // Beyond DuckDB: sub-microsecond and sub-nanosecond literals are exact.
    let ids = |t: &str| {
        ours(
            &path,
            &Predicate::parse(t).unwrap(),
            FilterOptions::default(),
        )
        .unwrap()
    };
    assert_eq!(
        ids("old = '2024-01-01T00:00:19.8330010001Z'"),
        Vec::<i64>::new()
    );
    assert_eq!(ids("old < '2024-01-01T00:00:19.8330010001Z'"), vec![0, 1]);
    assert_eq!(ids("old <= '2024-01-01T00:00:19.833001Z'"), vec![0, 1]);
    assert_eq!(ids("old < '2024-01-01T00:00:19.833000999Z'"), vec![0]);
}

#[test]
fn refusals_name_the_column_its_type_and_the_literal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typed.parquet");
    std::fs::write(&path, common::python_file(WRITE)).unwrap();
    let reader = || FileReader::new(File::open(&path).unwrap()).unwrap();
    for (text, needles) in [
        ("flag = 'maybe'", &["\"flag\"", "BOOLEAN", "\"maybe\""][..]),
        ("f64 < true", &["\"f64\"", "only by =, != and in"]),
        ("flag >= 0.5", &["\"flag\"", "only by =, != and in"]),
        ("d64 = 'abc'", &["\"d64\"", "DECIMAL(12,2)", "\"abc\""]),
        (
            "ts_ms > 'soon'",
            &["\"ts_ms\"", "TIMESTAMP(MILLIS", "\"soon\""],
        ),
        ("s > 5", &["\"s\"", "STRING", "5"]),
        ("s like 'a%' and i like 'a%'", &["\"i\"", "text"]),
        ("flag < s", &["\"flag\"", "\"s\"", "do not compare"]),
    ] {
        let e = reader()
            .filter(Predicate::parse(text).unwrap())
            .err()
            .unwrap_or_else(|| panic!("{text} was accepted"));
        for n in needles {
            assert!(e.to_string().contains(n), "{text}: {e}");
        }
    }
}

#[test]
fn a_hive_folder_fails_before_any_row_when_a_file_cannot_take_the_predicate() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"
import sys, os, pyarrow as pa, pyarrow.parquet as pq
root = sys.argv[1]
os.makedirs(f"{root}/day=2024-01-01")
os.makedirs(f"{root}/day=2024-01-02")
pq.write_table(pa.table({"id": pa.array([1, 2], pa.int32()), "v": pa.array([1, 2], pa.int64())}), f"{root}/day=2024-01-01/a.parquet")
pq.write_table(pa.table({"id": pa.array([3, 4], pa.int32()), "v": pa.array(["x", "y"])}), f"{root}/day=2024-01-02/b.parquet")
"#;
    let root = dir.path().join("hive");
    common::run_python(script, &[&root]);
    let dataset = Dataset::open(&root)
        .unwrap()
        .filter(Predicate::parse("v >= 1").unwrap())
        .unwrap();
    let e = dataset.check_filter().unwrap_err();
    assert!(e.to_string().contains("b.parquet"), "{e}");
    // The reader's first item is that error: no row of a.parquet before it.
    let mut rows = dataset.rows::<Value>();
    let first = rows.next().unwrap();
    assert!(first.unwrap_err().to_string().contains("b.parquet"));
    assert!(rows.next().is_none());
    assert!(dataset.read_all::<Value>().is_err());
    // The command line prints no row either.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .args(["cat"])
        .arg(&root)
        .args(["--where", "v >= 1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("b.parquet"));
    // A predicate every file takes reads both.
    let all = Dataset::open(&root)
        .unwrap()
        .filter(Predicate::parse("id > 1").unwrap())
        .unwrap();
    assert_eq!(all.read_all::<Value>().unwrap().len(), 3);
}

/// The whole predicate is checked before partition pruning or constant folding removes any
/// part of it: a type error anywhere is refused, before any row, even where the folders or
/// an always-unknown `not in (.., null)` decide the result (issue 28, seeds 31, 28, 120).
#[test]
fn a_hive_folder_refuses_type_errors_that_pruning_removes() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"
import sys, os, pyarrow as pa, pyarrow.parquet as pq
root = sys.argv[1]
for part in range(3):
    os.makedirs(f"{root}/part={part}")
    pq.write_table(pa.table({"x": pa.array([part, 10 + part], pa.int64()), "s": pa.array(["a", "b"])}), f"{root}/part={part}/f.parquet")
"#;
    let root = dir.path().join("hive");
    common::run_python(script, &[&root]);
    let open = |text: &str| {
        Dataset::open(&root)
            .unwrap()
            .filter(Predicate::parse(text).unwrap())
    };
    for text in [
        // Every folder passes the key test: the rest is never applied to a file.
        "part between 0 and 2 or s > 5",
        // Always unknown on the right, so nothing is read: the left is still wrong.
        "x = 'abc' and x not in (1, null)",
        // No folder passes: no file is read.
        "part > 100 and s > 5",
        "not (part >= 0 or x like 'a%')",
    ] {
        let dataset = open(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let e = dataset.check_filter().unwrap_err();
        assert!(e.to_string().contains("f.parquet"), "{text}: {e}");
        let mut rows = dataset.rows::<Value>();
        assert!(rows.next().unwrap().is_err(), "{text}");
        assert!(rows.next().is_none(), "{text}");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
            .args(["cat"])
            .arg(&root)
            .args(["--where", text])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{text}");
        assert!(out.stdout.is_empty(), "{text}");
    }
    // A literal that does not compare with a key is refused too, even when the key test
    // is not needed.
    assert!(open("x > 0 or part = 'zero'").is_err());
    // What every file takes reads.
    let rows: Vec<Value> = open("part between 0 and 1 or s = 'b'")
        .unwrap()
        .read_all()
        .unwrap();
    assert_eq!(rows.len(), 5);
}
