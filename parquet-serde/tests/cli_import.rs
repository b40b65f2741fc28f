//! `parquet-serde from-jsonl`, `from-csv` and `concat` on files the tests write; the
//! imports are also compared with pyarrow's and DuckDB's readings of the same input (run as
//! subprocesses, as in the root interop tests).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
use parquet_serde::options::FileEncryptionProperties;
use parquet_serde::record::Value;
use parquet_serde::ParquetSchema;

fn run(args: &[&Path]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn p(s: &str) -> PathBuf {
    PathBuf::from(s)
}

fn s(text: &str) -> Value {
    Value::String(text.to_string())
}

fn group(fields: Vec<(&str, Value)>) -> Value {
    Value::Group(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// A nested log event as a JSON line and the row it must read back as. Row 0 has every
/// field (so the schema's order is its order); later rows leave fields out, set them
/// null, mix integers and fractions in `latency`, and vary the nested objects and lists.
fn event(i: u64) -> (String, Value) {
    let level = ["INFO", "WARN", "ERROR", "DEBUG"][(i % 4) as usize];
    let message = if i % 10 == 3 {
        format!("quote \" backslash \\ tab \t caf\u{e9} \u{1F600} #{i}")
    } else {
        format!("request {i} handled")
    };
    let (latency_json, latency) = if i.is_multiple_of(3) {
        (format!("{}.25", i), Value::Double(i as f64 + 0.25))
    } else {
        ((i * 7).to_string(), Value::Double((i * 7) as f64))
    };
    // Keys in insertion order (serde_json's map would sort them).
    let mut json: Vec<(String, serde_json::Value)> = Vec::new();
    let mut row = Vec::new();
    kv(
        &mut json,
        "ts",
        format!("2026-11-24T10:{:02}:{:02}Z", i / 60 % 60, i % 60).into(),
    );
    row.push((
        "ts",
        s(&format!("2026-11-24T10:{:02}:{:02}Z", i / 60 % 60, i % 60)),
    ));
    kv(&mut json, "level", level.into());
    row.push(("level", s(level)));
    kv(&mut json, "message", message.clone().into());
    row.push(("message", s(&message)));
    kv(
        &mut json,
        "latency",
        serde_json::from_str::<serde_json::Value>(&latency_json).unwrap(),
    );
    row.push(("latency", latency));
    // user: null every 4th, absent when i % 5 == 1.
    match (i % 4, i % 5) {
        (_, 1) => row.push(("user", Value::Null)),
        (0, _) => {
            kv(&mut json, "user", serde_json::Value::Null);
            row.push(("user", Value::Null));
        }
        _ => {
            kv(&mut json, "user", (i * 1_000_003).into());
            row.push(("user", Value::Int((i * 1_000_003) as i64)));
        }
    }
    // http: null when i % 6 == 5; its `ua` absent on odd rows.
    if i % 6 == 5 {
        kv(&mut json, "http", serde_json::Value::Null);
        row.push(("http", Value::Null));
    } else {
        let status = [200, 404, 500][(i % 3) as usize];
        let mut h = serde_json::Map::new();
        h.insert(
            "method".into(),
            if i.is_multiple_of(2) { "GET" } else { "POST" }.into(),
        );
        h.insert("status".into(), status.into());
        let ua = if i.is_multiple_of(2) {
            h.insert("ua".into(), format!("agent/{i}").into());
            s(&format!("agent/{i}"))
        } else {
            Value::Null
        };
        kv(&mut json, "http", h.into());
        row.push((
            "http",
            group(vec![
                (
                    "method",
                    s(if i.is_multiple_of(2) { "GET" } else { "POST" }),
                ),
                ("status", Value::Int(status)),
                ("ua", ua),
            ]),
        ));
    }
    // tags: 0..3 strings, a null element every 7th row.
    let mut tags_json = Vec::new();
    let mut tags = Vec::new();
    if i % 7 == 6 {
        tags_json.push(serde_json::Value::Null);
        tags.push(Value::Null);
    }
    for t in 0..(i % 4) {
        tags_json.push(format!("t{t}").into());
        tags.push(s(&format!("t{t}")));
    }
    kv(&mut json, "tags", tags_json.into());
    row.push(("tags", Value::List(tags)));
    // error: present every 9th row (row 0 included), with a nested list of frames.
    if i.is_multiple_of(9) {
        kv(
            &mut json,
            "error",
            serde_json::json!({"code": i % 100, "frames": [{"fn": "main", "line": i}]}),
        );
        row.push((
            "error",
            group(vec![
                ("code", Value::Int((i % 100) as i64)),
                (
                    "frames",
                    Value::List(vec![group(vec![
                        ("fn", s("main")),
                        ("line", Value::Int(i as i64)),
                    ])]),
                ),
            ]),
        ));
    } else {
        row.push(("error", Value::Null));
    }
    // Keys in another order than the schema's on some rows.
    if i % 8 == 7 {
        json.reverse();
    }
    let inner: Vec<String> = json
        .iter()
        .map(|(k, v)| format!("{}:{}", serde_json::to_string(k).unwrap(), v))
        .collect();
    let line = format!("{{{}}}", inner.join(","));
    (line, group(row))
}

fn kv(json: &mut Vec<(String, serde_json::Value)>, key: &str, value: serde_json::Value) {
    json.push((key.to_string(), value));
}

fn write_events(path: &Path, n: u64, blank_every: u64) -> Vec<Value> {
    let mut text = String::new();
    let mut rows = Vec::new();
    for i in 0..n {
        let (line, row) = event(i);
        text.push_str(&line);
        text.push('\n');
        if blank_every > 0 && i % blank_every == 0 {
            text.push_str("   \n");
        }
        rows.push(row);
    }
    std::fs::write(path, text).unwrap();
    rows
}

#[test]
fn from_jsonl_nested_log_events_read_back_equal() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("events.jsonl");
    let want = write_events(&input, 3000, 500);
    // The whole file as the sample, and a sample of 50 lines (fields are optional then).
    for sample in ["0", "50"] {
        let out = dir.path().join(format!("events-{sample}.parquet"));
        let (code, err) = run(&[
            &p("from-jsonl"),
            &input,
            &out,
            &p("--sample"),
            &p(sample),
            &p("--row-group-rows"),
            &p("1000"),
        ]);
        assert_eq!(code, 0, "{err}");
        let got: Vec<Value> = parquet_serde::from_path(&out).unwrap();
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "row {i} (sample {sample})");
        }
        let reader = FileReader::new(std::fs::File::open(&out).unwrap()).unwrap();
        assert_eq!(reader.num_row_groups(), 3);
        let schema = reader.schema().to_string();
        assert!(schema.contains("double latency;"), "{schema}");
        assert!(schema.contains("int64 user;"), "{schema}");
        if sample == "0" {
            assert!(
                schema.contains("required binary level (STRING);"),
                "{schema}"
            );
            assert!(schema.contains("optional group http {"), "{schema}");
        } else {
            assert!(!schema.contains("required binary level"), "{schema}");
        }
    }
}

#[test]
fn from_jsonl_with_a_schema_file_and_timestamps() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    std::fs::write(
        &input,
        "{\"ts\": \"2026-11-24T10:00:00.5Z\", \"n\": 1}\n{\"ts\": \"2026-11-24T11:00:00+01:00\"}\n",
    )
    .unwrap();
    let schema = dir.path().join("schema.txt");
    std::fs::write(
        &schema,
        "message m { optional int64 ts (TIMESTAMP(MILLIS,true)); optional int32 n; }",
    )
    .unwrap();
    let out = dir.path().join("out.parquet");
    let (code, err) = run(&[&p("from-jsonl"), &input, &out, &p("--schema"), &schema]);
    assert_eq!(code, 0, "{err}");
    let got: Vec<Value> = parquet_serde::from_path(&out).unwrap();
    let ts = |v| Value::Timestamp {
        value: v,
        unit: parquet_serde::core::schema::TimeUnit::Millis,
        utc: true,
    };
    assert_eq!(got[0].get("ts"), Some(&ts(1_795_514_400_500)));
    assert_eq!(got[1].get("ts"), Some(&ts(1_795_514_400_000)));
    assert_eq!(got[0].get("n"), Some(&Value::Int(1)));
    // --timestamps infers the column.
    let (code, err) = run(&[&p("from-jsonl"), &input, &out, &p("--timestamps")]);
    assert_eq!(code, 0, "{err}");
    let reader = FileReader::new(std::fs::File::open(&out).unwrap()).unwrap();
    assert!(
        reader
            .schema()
            .to_string()
            .contains("int64 ts (TIMESTAMP(MICROS,true));"),
        "{}",
        reader.schema()
    );
}

#[test]
fn from_jsonl_errors_name_the_line_and_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.parquet");
    let cases = [
        // Not JSON, on line 4 (a blank line counts).
        (
            "{\"a\": 1}\n{\"a\": 2}\n\n{\"a\": 3,}\n",
            "line 4",
            "invalid JSON",
        ),
        // Beyond the sample: a string where the sample had integers.
        (
            "{\"a\": 1}\n{\"a\": 2}\n{\"a\": \"x\"}\n",
            "line 3",
            "column a",
        ),
        // A key the sample never had.
        (
            "{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3, \"b\": 1}\n",
            "line 3",
            "no field `b`",
        ),
        ("[1, 2]\n", "line 1", "JSON object"),
    ];
    for (text, line, what) in cases {
        let input = dir.path().join("in.jsonl");
        std::fs::write(&input, text).unwrap();
        let (code, err) = run(&[&p("from-jsonl"), &input, &out, &p("--sample"), &p("2")]);
        assert_eq!(code, 1, "{text}: {err}");
        assert!(err.contains(line), "{text}: {err}");
        assert!(err.contains(what), "{text}: {err}");
        assert!(!out.exists(), "{text}");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
}

#[test]
fn from_csv_types_columns_by_their_cells() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    std::fs::write(
        &input,
        "id,ok,score,name,mixed,empty\n\
         1,true,1.5,\"Smith, J\",1,\n\
         2,FALSE,2,\"multi\nline \"\"quoted\"\"\",x,\n\
         3,,,,2.5,\n\
         -4,false,1e3,caf\u{e9},,\n",
    )
    .unwrap();
    let out = dir.path().join("out.parquet");
    let (code, err) = run(&[&p("from-csv"), &input, &out]);
    assert_eq!(code, 0, "{err}");
    let reader = FileReader::new(std::fs::File::open(&out).unwrap()).unwrap();
    let schema = reader.schema().to_string();
    for want in [
        "required int64 id;",
        "optional boolean ok;",
        "optional double score;",
        "optional binary name (STRING);",
        "optional binary mixed (STRING);",
        "optional binary empty (STRING);",
    ] {
        assert!(schema.contains(want), "{want}: {schema}");
    }
    let got: Vec<Value> = parquet_serde::from_path(&out).unwrap();
    let row =
        |id, ok: Option<bool>, score: Option<f64>, name: Option<&str>, mixed: Option<&str>| {
            group(vec![
                ("id", Value::Int(id)),
                ("ok", ok.map_or(Value::Null, Value::Bool)),
                ("score", score.map_or(Value::Null, Value::Double)),
                ("name", name.map_or(Value::Null, s)),
                ("mixed", mixed.map_or(Value::Null, s)),
                ("empty", Value::Null),
            ])
        };
    assert_eq!(
        got,
        [
            row(1, Some(true), Some(1.5), Some("Smith, J"), Some("1")),
            row(
                2,
                Some(false),
                Some(2.0),
                Some("multi\nline \"quoted\""),
                Some("x")
            ),
            row(3, None, None, None, Some("2.5")),
            row(-4, Some(false), Some(1000.0), Some("caf\u{e9}"), None),
        ]
    );
    // A record with too many fields names its line.
    std::fs::write(&input, "a,b\n1,2\n3,4,5\n").unwrap();
    let (code, err) = run(&[&p("from-csv"), &input, &out]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 3"), "{err}");
    // A value beyond the sample that does not fit names line and column.
    std::fs::write(&input, "a,b\n1,2\n3,x\n").unwrap();
    let (code, err) = run(&[&p("from-csv"), &input, &out, &p("--sample"), &p("1")]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 3") && err.contains("column b"), "{err}");
}

#[derive(serde::Serialize, serde::Deserialize, ParquetSchema, Debug, PartialEq, Clone)]
struct Rec {
    id: i64,
    name: Option<String>,
    tags: Vec<String>,
}

fn recs(range: std::ops::Range<i64>) -> Vec<Rec> {
    range
        .map(|id| Rec {
            id,
            name: (id % 3 != 0).then(|| format!("name {}", id % 17)),
            tags: (0..id % 3).map(|t| format!("t{t}")).collect(),
        })
        .collect()
}

#[test]
fn concat_copies_row_groups_as_stored() {
    let dir = tempfile::tempdir().unwrap();
    let parts = [
        (
            recs(0..1000),
            parquet_serde::WriterOptions::default().row_group_rows(300),
        ),
        (
            recs(1000..1500),
            parquet_serde::WriterOptions::default()
                .compression(parquet_serde::Compression::Zstd(3))
                .bloom_filter("name", Default::default()),
        ),
        (recs(1500..1501), parquet_serde::WriterOptions::default()),
    ];
    let mut inputs = Vec::new();
    for (i, (rows, options)) in parts.iter().enumerate() {
        let path = dir.path().join(format!("part{i}.parquet"));
        parquet_serde::to_path_with(&path, rows, options.clone()).unwrap();
        inputs.push(path);
    }
    let out = dir.path().join("all.parquet");
    let mut args = vec![p("concat"), out.clone()];
    args.extend(inputs.iter().cloned());
    let args: Vec<&Path> = args.iter().map(PathBuf::as_path).collect();
    let (code, err) = run(&args);
    assert_eq!(code, 0, "{err}");

    let got: Vec<Rec> = parquet_serde::from_path(&out).unwrap();
    assert_eq!(got, recs(0..1501));
    // Every chunk is the input's bytes; sizes match, offsets moved.
    let all = FileReader::new(std::fs::read(&out).unwrap()).unwrap();
    let mut rg = 0;
    for input in &inputs {
        let part = FileReader::new(std::fs::read(input).unwrap()).unwrap();
        for prg in 0..part.num_row_groups() {
            for c in 0..part.schema().num_columns() {
                let (a, b) = (
                    part.column_chunk(prg, c).unwrap(),
                    all.column_chunk(rg, c).unwrap(),
                );
                assert_eq!(a.bytes, b.bytes, "row group {rg} column {c}");
                let (ma, mb) = (
                    part.metadata().row_group(prg).unwrap().column(c).unwrap(),
                    all.metadata().row_group(rg).unwrap().column(c).unwrap(),
                );
                assert!(ma.has_metadata() && mb.has_metadata());
                assert_eq!(ma.compressed_size(), mb.compressed_size());
                assert_eq!(ma.codec_name(), mb.codec_name());
                assert_eq!(ma.raw_statistics(), mb.raw_statistics());
                assert_eq!(
                    mb.data_page_offset() - b.offset as i64,
                    ma.data_page_offset() - a.offset as i64
                );
                assert_eq!(
                    part.bloom_filter(prg, c).unwrap().is_some(),
                    all.bloom_filter(rg, c).unwrap().is_some()
                );
                let (pa, pb) = (
                    part.page_index(prg, c).unwrap(),
                    all.page_index(rg, c).unwrap(),
                );
                assert_eq!(pa.is_some(), pb.is_some());
            }
            rg += 1;
        }
    }
    assert_eq!(all.num_row_groups(), rg);
    // A Bloom filter still answers.
    let bloom = all.bloom_filter(4, 1).unwrap().unwrap();
    assert!(bloom.check_bytes(b"name 5"));
}

#[test]
fn concat_refuses_other_schemas_and_encrypted_files() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.parquet");
    parquet_serde::to_path(&a, &recs(0..10)).unwrap();
    #[derive(serde::Serialize, ParquetSchema)]
    struct Other {
        id: i64,
    }
    let b = dir.path().join("b.parquet");
    parquet_serde::to_path(&b, &[Other { id: 1 }]).unwrap();
    let out = dir.path().join("out.parquet");
    let (code, err) = run(&[&p("concat"), &out, &a, &b]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("another schema"), "{err}");
    assert!(!out.exists());

    let key = vec![7u8; 16];
    for plaintext_footer in [false, true] {
        let props = FileEncryptionProperties::builder(key.clone())
            .plaintext_footer(plaintext_footer)
            .build()
            .unwrap();
        let e = dir.path().join("e.parquet");
        parquet_serde::to_path_with(
            &e,
            &recs(0..10),
            parquet_serde::WriterOptions::default().encryption(props),
        )
        .unwrap();
        let (code, err) = run(&[&p("concat"), &out, &a, &e]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("encrypted"), "{err}");
        assert!(!out.exists());
    }
}

#[test]
fn copy_row_group_refuses_an_encrypting_writer() {
    let bytes = parquet_serde::to_vec(&recs(0..5)).unwrap();
    let reader = FileReader::new(bytes).unwrap();
    let props = FileEncryptionProperties::builder(vec![1u8; 16])
        .build()
        .unwrap();
    let mut writer = FileWriter::new(
        Vec::new(),
        reader.schema().clone(),
        WriterOptions::default().encryption(props),
    )
    .unwrap();
    let err = writer.copy_row_group(&reader, 0).unwrap_err();
    assert_eq!(err.kind(), parquet_serde::ErrorKind::Unsupported);
}

/// Runs testdata/import_interop.py: `engine` reads `source` (`kind` json or csv) and our
/// `parquet`; asserts the rows are equal.
fn assert_engine_agrees(engine: &str, kind: &str, source: &Path, parquet: &Path) {
    let out = Command::new(common::python())
        .arg(common::testdata().join("import_interop.py"))
        .args([engine, kind])
        .arg(source)
        .arg(parquet)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.starts_with("ok "),
        "{engine} on {kind}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn from_jsonl_matches_pyarrow_and_duckdb() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("events.jsonl");
    write_events(&input, 2000, 0);
    // Both engines read `ts` (RFC 3339 with Z) as a timestamp: so does --timestamps.
    let out = dir.path().join("events.parquet");
    let (code, err) = run(&[&p("from-jsonl"), &input, &out, &p("--timestamps")]);
    assert_eq!(code, 0, "{err}");
    assert_engine_agrees("pyarrow", "json", &input, &out);
    assert_engine_agrees("duckdb", "json", &input, &out);
}

#[test]
fn from_csv_matches_pyarrow_and_duckdb() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    let mut text = String::from("id,ok,score,name,note\n");
    for i in 0..500u32 {
        let ok = ["true", "false", ""][(i % 3) as usize];
        let score = if i % 4 == 0 {
            String::new()
        } else if i % 2 == 0 {
            format!("{}", i * 3)
        } else {
            format!("{}.5", i)
        };
        let name = match i % 5 {
            0 => String::new(),
            1 => format!("\"last, first {i}\""),
            _ => format!("name{i}"),
        };
        text.push_str(&format!("{i},{ok},{score},{name},note {}\n", i % 7));
    }
    std::fs::write(&input, text).unwrap();
    let out = dir.path().join("out.parquet");
    let (code, err) = run(&[&p("from-csv"), &input, &out]);
    assert_eq!(code, 0, "{err}");
    assert_engine_agrees("pyarrow", "csv", &input, &out);
    assert_engine_agrees("duckdb", "csv", &input, &out);
}

/// Mixed values become a VARIANT column that DuckDB reads back as the JSON they came from
/// (and `--mixed-as-json` keeps them as JSON text).
#[test]
fn from_jsonl_mixed_values_are_a_variant_duckdb_reads() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("mixed.jsonl");
    let attrs = [
        r#"7"#,
        r#""seven""#,
        r#"{"status":500,"ok":false,"tags":["a",1.5,null],"inner":{"x":-3}}"#,
        r#"null"#,
        r#"[1,2,{"k":"v"}]"#,
        r#"true"#,
        r#"0.25"#,
    ];
    let mut text = String::new();
    for (id, a) in attrs.iter().enumerate() {
        text.push_str(&format!("{{\"id\":{id},\"attrs\":{a}}}\n"));
    }
    text.push_str(&format!("{{\"id\":{}}}\n", attrs.len()));
    std::fs::write(&input, text).unwrap();
    let out = dir.path().join("mixed.parquet");
    let (code, err) = run(&[&p("from-jsonl"), &input, &out]);
    assert_eq!(code, 0, "{err}");

    let script = "import sys, json, duckdb\n\
        rows = duckdb.sql(\"SELECT id, attrs::JSON::VARCHAR FROM read_parquet('\" + sys.argv[1] + \"') ORDER BY id\").fetchall()\n\
        for id, a in rows: print(json.dumps([id, None if a is None else json.loads(a)]))\n";
    let got = common::python_json_lines(&[p("-c"), p(script), out.clone()]);
    assert_eq!(got.len(), attrs.len() + 1);
    for (id, row) in got.iter().enumerate() {
        let want: serde_json::Value = match attrs.get(id) {
            Some(a) => serde_json::from_str(a).unwrap(),
            None => serde_json::Value::Null,
        };
        assert_eq!(row, &serde_json::json!([id, want]), "row {id}");
    }

    let json_out = dir.path().join("mixed_json.parquet");
    let (code, err) = run(&[&p("from-jsonl"), &input, &json_out, &p("--mixed-as-json")]);
    assert_eq!(code, 0, "{err}");
    let schema = Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .arg("schema")
        .arg(&json_out)
        .output()
        .unwrap();
    let schema = String::from_utf8(schema.stdout).unwrap();
    assert!(schema.contains("optional binary attrs (JSON);"), "{schema}");
}
