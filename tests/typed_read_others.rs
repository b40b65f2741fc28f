//! Files from other writers read into Rust structs with exact expected values: corpus files
//! written by parquet-rs, parquet-mr/pyarrow and Impala (the ones `typed_read.rs` does not
//! cover), a file DuckDB writes at test time, and a pandas-style pyarrow file whose columns
//! are all `OPTIONAL`.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use common::{corpus_file, python_file};

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use parquet_serde::from_slice;
use parquet_serde::Reader;
use serde::Deserialize;

// ---------------------------------------------------------------------------------------------
// Helpers

// ---------------------------------------------------------------------------------------------
// Corpus files

/// parquet-rs statistics summary: 37 required groups of 6 fields; read 4 of them.
#[test]
fn nested_structs_rust_subset() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct IntStats {
        min: i64,
        max: i64,
        mean: i64,
        count: u64,
        sum: i64,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct FloatStats {
        max: f64,
        mean: f64,
        count: u32,
        variance: f64,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct TimeStats {
        min: i64,
        count: u64,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Summary {
        roll_num: IntStats,
        #[serde(rename = "PC_CUR")]
        pc_cur: IntStats,
        #[serde(rename = "ACTUAL_FRONTAGE")]
        frontage: FloatStats,
        ul_observation_date: TimeStats,
        // Not in the file: defaults.
        #[serde(default)]
        absent: Option<String>,
    }
    let bytes = corpus_file("nested_structs.rust.parquet");
    let reader = Reader::<_, Summary>::new(&bytes[..]).unwrap();
    // 5 + 5 + 4 + 2 of the file's 222 leaves.
    assert_eq!(reader.projected_columns().len(), 16);
    let rows = reader.collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(
        rows,
        vec![Summary {
            roll_num: IntStats {
                min: 190_406_409_000_602,
                max: 190_407_175_004_000,
                mean: 190_406_671_229_999,
                count: 495,
                sum: 94_251_302_258_849_568,
            },
            pc_cur: IntStats {
                min: 115,
                max: 742,
                mean: 416,
                count: 495,
                sum: 206_195,
            },
            frontage: FloatStats {
                max: 658.63,
                mean: 57.76452991452993,
                count: 351,
                variance: 6310.500499135526,
            },
            ul_observation_date: TimeStats {
                min: 1_608_822_900_000_000_000,
                count: 495,
            },
            absent: None,
        }]
    );
}

/// pyarrow lists with nullable elements and a null list.
#[test]
fn list_columns() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Row {
        int64_list: Option<Vec<Option<i64>>>,
        utf8_list: Option<Vec<Option<String>>>,
    }
    let rows: Vec<Row> = from_slice(&corpus_file("list_columns.parquet")).unwrap();
    let s = |v: &str| Some(v.to_string());
    assert_eq!(
        rows,
        vec![
            Row {
                int64_list: Some(vec![Some(1), Some(2), Some(3)]),
                utf8_list: Some(vec![s("abc"), s("efg"), s("hij")]),
            },
            Row {
                int64_list: Some(vec![None, Some(1)]),
                utf8_list: None,
            },
            Row {
                int64_list: Some(vec![Some(4)]),
                utf8_list: Some(vec![s("efg"), None, s("hij"), s("xyz")]),
            },
        ]
    );

    // A non-`Option` list fails only in the row holding the null list.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Strict {
        utf8_list: Vec<Option<String>>,
    }
    let strict: Vec<_> = Reader::<_, Strict>::new(&corpus_file("list_columns.parquet")[..])
        .unwrap()
        .collect();
    assert!(strict[0].is_ok() && strict[2].is_ok());
    assert!(strict[1].is_err());
}

/// An empty list whose element type is arrow's null type (`UNKNOWN`).
#[test]
fn null_list() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Row {
        emptylist: Option<Vec<Option<i32>>>,
    }
    let rows: Vec<Row> = from_slice(&corpus_file("null_list.parquet")).unwrap();
    assert_eq!(
        rows,
        vec![Row {
            emptylist: Some(vec![])
        }]
    );
    #[derive(Deserialize, Debug, PartialEq)]
    struct Units {
        emptylist: Vec<()>,
    }
    let units: Vec<Units> = from_slice(&corpus_file("null_list.parquet")).unwrap();
    assert_eq!(units, vec![Units { emptylist: vec![] }]);
}

// ---------------------------------------------------------------------------------------------
// DuckDB

const DUCKDB_SCRIPT: &str = r#"
import sys, duckdb
con = duckdb.connect()
con.execute("""COPY (
  SELECT i::INTEGER AS id,
         'name ' || i AS name,
         CASE WHEN i % 3 = 0 THEN NULL ELSE {'a': i * 10, 'b': ['x' || i, 'y']} END AS s,
         CASE WHEN i % 4 = 1 THEN NULL ELSE [i, NULL, i + 1] END AS l,
         MAP(['k' || i, 'z'], [i, i * 2]) AS m,
         [{'x': (i * 0.5)::DOUBLE, 'tag': CASE WHEN i % 2 = 0 THEN 'even' END}] AS ls,
         TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i) AS ts,
         DATE '2024-01-01' + i::INTEGER AS d,
         (i * 1.25)::DECIMAL(10, 2) AS price,
         i % 2 = 0 AS flag
  FROM range(10) t(i)
  ORDER BY i
) TO 'OUT' (FORMAT PARQUET, ROW_GROUP_SIZE 4)""".replace("OUT", sys.argv[1]))
"#;

#[test]
fn duckdb_structs_lists_maps() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct S {
        a: i64,
        b: Vec<String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct L {
        x: f64,
        tag: Option<String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Duck {
        id: i32,
        name: String,
        s: Option<S>,
        l: Option<Vec<Option<i64>>>,
        m: BTreeMap<String, i64>,
        ls: Vec<L>,
        ts: i64,
        d: i32,
        price: String,
        flag: bool,
    }
    let bytes = python_file(DUCKDB_SCRIPT);
    let rows: Vec<Duck> = from_slice(&bytes).unwrap();
    assert_eq!(rows.len(), 10);
    const JAN_1_2024_DAYS: i64 = 19_723;
    for (i, row) in rows.iter().enumerate() {
        let n = i as i64;
        let want = Duck {
            id: i as i32,
            name: format!("name {i}"),
            s: (i % 3 != 0).then(|| S {
                a: n * 10,
                b: vec![format!("x{i}"), "y".into()],
            }),
            l: (i % 4 != 1).then(|| vec![Some(n), None, Some(n + 1)]),
            m: BTreeMap::from([(format!("k{i}"), n), ("z".into(), n * 2)]),
            ls: vec![L {
                x: n as f64 * 0.5,
                tag: (i % 2 == 0).then(|| "even".into()),
            }],
            ts: (JAN_1_2024_DAYS * 86_400 + n) * 1_000_000,
            d: (JAN_1_2024_DAYS + n) as i32,
            price: format!("{}.{:02}", n * 125 / 100, n * 125 % 100),
            flag: i % 2 == 0,
        };
        assert_eq!(row, &want, "row {i}");
    }

    // Other Rust types for the same columns: the timestamp as `SystemTime`, the decimal as
    // a float, the struct's list only.
    #[derive(Deserialize, Debug, PartialEq)]
    struct SB {
        b: Vec<String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Other {
        ts: SystemTime,
        price: f64,
        s: Option<SB>,
    }
    let other: Vec<Other> = from_slice(&bytes).unwrap();
    assert_eq!(
        other[7],
        Other {
            ts: SystemTime::UNIX_EPOCH + Duration::from_secs(JAN_1_2024_DAYS as u64 * 86_400 + 7),
            price: 8.75,
            s: Some(SB {
                b: vec!["x7".into(), "y".into()]
            }),
        }
    );
}

// ---------------------------------------------------------------------------------------------
// pyarrow, pandas style: every column OPTIONAL, an index column, `pandas` metadata

const PANDAS_SCRIPT: &str = r#"
import sys, json, pyarrow as pa, pyarrow.parquet as pq
t = pa.table({
    "city": ["Oslo", None, "Lima", "", "Kyiv", "Zürich"],
    "population": pa.array([709037, None, 10092000, 0, 2952301, 421878], pa.int64()),
    "area_km2": pa.array([454.0, None, 2672.3, 0.0, 839.0, 87.88], pa.float64()),
    "visited": [True, False, None, True, False, True],
    "tags": [["fjord"], None, [], ["a", None], ["b", "c"], None],
    "founded": pa.array([0, None, -1_000_000_000, 1, 86_400_000_000_000, None], pa.timestamp("ns")),
    "__index_level_0__": pa.array([10, 11, 12, 13, 14, 15], pa.int64()),
})
meta = {"index_columns": ["__index_level_0__"], "pandas_version": "2.2.0",
        "columns": [{"name": c} for c in t.column_names]}
t = t.replace_schema_metadata({"pandas": json.dumps(meta)})
pq.write_table(t, sys.argv[1], row_group_size=4)
"#;

#[test]
fn pyarrow_pandas_style_optional_columns() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct City {
        #[serde(rename = "__index_level_0__")]
        index: i64,
        city: Option<String>,
        population: Option<u64>,
        area_km2: Option<f64>,
        visited: Option<bool>,
        tags: Option<Vec<Option<String>>>,
        founded: Option<i64>,
    }
    let bytes = python_file(PANDAS_SCRIPT);
    let reader = Reader::<_, City>::new(&bytes[..]).unwrap();
    assert_eq!(reader.num_row_groups(), 2);
    assert!(reader
        .metadata()
        .key_value("pandas")
        .is_some_and(|v| v.contains("__index_level_0__")));
    let rows = reader.collect::<Result<Vec<_>, _>>().unwrap();
    let s = |v: &str| Some(v.to_string());
    let city = |index, city: Option<String>, population, area_km2, visited, tags, founded| City {
        index,
        city,
        population,
        area_km2,
        visited,
        tags,
        founded,
    };
    assert_eq!(
        rows,
        vec![
            city(
                10,
                s("Oslo"),
                Some(709_037),
                Some(454.0),
                Some(true),
                Some(vec![s("fjord")]),
                Some(0)
            ),
            city(11, None, None, None, Some(false), None, None),
            city(
                12,
                s("Lima"),
                Some(10_092_000),
                Some(2672.3),
                None,
                Some(vec![]),
                Some(-1_000_000_000)
            ),
            city(
                13,
                s(""),
                Some(0),
                Some(0.0),
                Some(true),
                Some(vec![s("a"), None]),
                Some(1)
            ),
            city(
                14,
                s("Kyiv"),
                Some(2_952_301),
                Some(839.0),
                Some(false),
                Some(vec![s("b"), s("c")]),
                Some(86_400_000_000_000)
            ),
            city(
                15,
                s("Zürich"),
                Some(421_878),
                Some(87.88),
                Some(true),
                None,
                None
            ),
        ]
    );

    // OPTIONAL columns without nulls read into plain fields; a projection of two columns.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Index {
        #[serde(rename = "__index_level_0__")]
        index: u8,
        visited: Option<bool>,
    }
    let reader = Reader::<_, Index>::new(&bytes[..]).unwrap();
    assert_eq!(reader.projected_columns().len(), 2);
    let idx = reader.collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(
        idx.iter().map(|r| r.index).collect::<Vec<_>>(),
        vec![10, 11, 12, 13, 14, 15]
    );
    // The nanosecond timestamp as `SystemTime`. serde's `SystemTime` has no form for
    // instants before the epoch, so that row (and only that row) is an error.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Founded {
        founded: Option<SystemTime>,
    }
    let f: Vec<_> = Reader::<_, Founded>::new(&bytes[..]).unwrap().collect();
    assert_eq!(f.len(), 6);
    assert!(f[2].is_err());
    assert_eq!(
        f[4].as_ref().unwrap().founded,
        Some(SystemTime::UNIX_EPOCH + Duration::from_secs(86_400))
    );
    assert_eq!(
        f[3].as_ref().unwrap().founded,
        Some(SystemTime::UNIX_EPOCH + Duration::from_nanos(1))
    );
    assert_eq!(f[5].as_ref().unwrap().founded, None);
}
