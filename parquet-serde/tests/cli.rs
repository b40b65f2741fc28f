//! The `parquet-serde` command-line tool on corpus files.

mod common;

use common::corpus_path;

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_parquet-serde"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn cat_prints_json_rows() {
    let f = corpus_path("alltypes_plain.parquet");
    let (code, out, _) = run(&[
        "cat",
        f.to_str().unwrap(),
        "--limit",
        "2",
        "--columns",
        "id,string_col,timestamp_col",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "{\"id\":4,\"string_col\":\"MA==\",\"timestamp_col\":\"2009-03-01T00:00:00.000000000Z\"}\n\
         {\"id\":5,\"string_col\":\"MQ==\",\"timestamp_col\":\"2009-03-01T00:01:00.000000000Z\"}\n"
    );
}

#[test]
fn cat_nested() {
    let f = corpus_path("nested_lists.snappy.parquet");
    let (code, out, _) = run(&["cat", f.to_str().unwrap(), "--limit", "1"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "{\"a\":[[[\"a\",\"b\"],[\"c\"]],[null,[\"d\"]]],\"b\":1}\n"
    );
}

#[test]
fn schema_prints_message_text() {
    let f = corpus_path("nested_lists.snappy.parquet");
    let (code, out, _) = run(&["schema", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.starts_with("message "), "{out}");
    assert!(out.contains("optional group a (LIST) {"), "{out}");
    assert!(out.contains("required int32 b;"), "{out}");
}

#[test]
fn meta_and_pages() {
    let f = corpus_path("alltypes_plain.snappy.parquet");
    let (code, out, _) = run(&["meta", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("rows: 2"), "{out}");
    assert!(out.contains("id: Int32 Snappy values=2"), "{out}");
    let (code, out, _) = run(&["pages", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("page 0: DictionaryPage"), "{out}");
    assert!(out.contains("page 1: DataPage"), "{out}");
    let (code, out, _) = run(&[
        "meta",
        corpus_path("int32_with_null_pages.parquet")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("statistics: nulls=275 min=-2136906554 max=2145722375"),
        "{out}"
    );
}

#[test]
fn meta_shows_statistics_page_index_and_bloom_filters() {
    let f = corpus_path("data_index_bloom_encoding_stats.parquet");
    let (code, out, _) = run(&["meta", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        out.contains(r#"statistics: nulls=0 min="Hello" max="today""#),
        "{out}"
    );
    assert!(out.contains("page index: 1 pages, column index ("), "{out}");
    assert!(
        out.contains("bloom filter: offset=192 length=- bitset="),
        "{out}"
    );
    let (code, out, _) = run(&[
        "meta",
        corpus_path("sort_columns.parquet").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("sorted by: a desc nulls_first, b"), "{out}");
    let (code, out, _) = run(&[
        "meta",
        corpus_path("nan_in_stats.parquet").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("min=1.0 max=-"), "{out}");
    let (code, out, _) = run(&[
        "meta",
        corpus_path("binary_truncated_min_max.parquet")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains(r#"min="Al" max="Kf" min_inexact max_inexact"#),
        "{out}"
    );
    assert!(
        out.contains("size statistics: unencoded_bytes=149"),
        "{out}"
    );
}

#[test]
fn check_passes_and_fails_where_the_crc_is_wrong() {
    let (code, out, _) = run(&[
        "check",
        corpus_path("datapage_v1-snappy-compressed-checksum.parquet")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("ok: 1 row groups, 2 columns, 5120 rows"),
        "{out}"
    );
    let bad = corpus_path("datapage_v1-corrupt-checksum.parquet");
    let (code, _, err) = run(&["check", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("checksum mismatch") && err.contains("column a") && err.contains("page 0"),
        "{err}"
    );
    let (code, _, _) = run(&["check", bad.to_str().unwrap(), "--no-verify"]);
    assert_eq!(code, 0);
}

#[test]
fn usage_errors() {
    let (code, _, err) = run(&["frobnicate"]);
    assert_eq!(code, 2);
    assert!(err.contains("Usage: parquet-serde"), "{err}");
    let (code, _, err) = run(&["cat", "/nonexistent.parquet"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent.parquet"), "{err}");
}

/// `--footer-key`, `--column-key` and `--aad-prefix` on the encrypted corpus files.
#[test]
fn encrypted_files_with_key_flags() {
    const FOOTER: &str = "30313233343536373839303132333435"; // "0123456789012345"
    const DOUBLE: &str = "double_field:31323334353637383930313233343530";
    const FLOAT: &str = "float_field:31323334353637383930313233343531";
    let file = corpus_path("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted");
    let f = file.to_str().unwrap();
    let keys = [
        "--footer-key",
        FOOTER,
        "--column-key",
        DOUBLE,
        "--column-key",
        FLOAT,
    ];
    let with = |cmd: &'static str, extra: &[&'static str]| -> Vec<&str> {
        let mut v = vec![cmd, f];
        v.extend(keys);
        v.extend(extra);
        v
    };
    // No AAD prefix, then the right one.
    let (code, _, err) = run(&with("check", &[]));
    assert_eq!(code, 1);
    assert!(err.contains("AAD prefix"), "{err}");
    let (code, out, err) = run(&with("check", &["--aad-prefix", "tester"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("ok: 1 row groups, 8 columns, 50 rows"),
        "{out}"
    );
    let (code, out, err) = run(&with(
        "cat",
        &[
            "--aad-prefix",
            "tester",
            "--limit",
            "1",
            "--columns",
            "double_field,int32_field",
        ],
    ));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "{\"int32_field\":\"00:00:00.000\",\"double_field\":0.0}\n"
    );
    let (code, out, err) = run(&with("meta", &["--aad-prefix", "tester"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("encryption: AES_GCM_V1, encrypted footer"),
        "{out}"
    );
    assert!(out.contains("(encrypted, column key)"), "{out}");

    // Without keys: a clear error; a plaintext footer shows what it can.
    let (code, _, err) = run(&["meta", f]);
    assert_eq!(code, 1);
    assert!(err.contains("encrypted footer"), "{err}");
    let plain = corpus_path("encrypt_columns_plaintext_footer.parquet.encrypted");
    let p = plain.to_str().unwrap();
    let (code, out, _) = run(&["meta", p]);
    assert_eq!(code, 0);
    assert!(
        out.contains("double_field: encrypted, no key given"),
        "{out}"
    );
    let (code, out, _) = run(&["cat", p, "--columns", "int32_field", "--limit", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out, "{\"int32_field\":\"00:00:00.000\"}\n");
    let (code, _, err) = run(&["cat", p, "--columns", "double_field"]);
    assert_eq!(code, 1);
    assert!(err.contains("no key for column double_field"), "{err}");

    // Malformed keys are usage errors.
    let (code, _, err) = run(&["cat", p, "--footer-key", "0123"]);
    assert_eq!(code, 2);
    assert!(err.contains("--footer-key"), "{err}");
    let (code, _, err) = run(&["cat", p, "--column-key", FOOTER]);
    assert_eq!(code, 2);
    assert!(err.contains("PATH:HEX"), "{err}");
}

/// `--help` on the tool and on every command: exit 0, the flags listed on standard output.
#[test]
fn help_on_every_command() {
    let keys = [
        "--footer-key",
        "--column-key",
        "--aad-prefix",
        "--no-verify",
    ];
    let rewrite = [
        "--compression",
        "--encoding",
        "--page-version",
        "--row-group-rows",
        "--statistics",
        "--page-index",
        "--bloom-filter",
        "--truncate-stats",
        "--sorting-column",
        "--algorithm",
        "--plaintext-footer",
        "--no-store-aad-prefix",
        "--footer-key-metadata",
        "--column-key-metadata",
        "--in-footer-key",
        "--in-column-key",
        "--in-aad-prefix",
        "--decrypt",
    ];
    let commands: [(&str, Vec<&str>); 6] = [
        ("cat", [&keys[..], &["--columns", "--limit"]].concat()),
        ("schema", keys.to_vec()),
        ("meta", keys.to_vec()),
        ("pages", keys.to_vec()),
        ("check", keys.to_vec()),
        ("rewrite", [&keys[..], &rewrite[..]].concat()),
    ];
    let (code, out, err) = run(&["--help"]);
    assert_eq!(code, 0, "{err}");
    for (command, flags) in &commands {
        assert!(out.contains(command), "{out}");
        for help in [vec![*command, "--help"], vec!["help", command]] {
            let (code, out, err) = run(&help);
            assert_eq!(code, 0, "{help:?}: {err}");
            assert!(out.contains(&format!("parquet-serde {command}")), "{out}");
            for flag in flags {
                assert!(out.contains(flag), "{command} --help lacks {flag}: {out}");
            }
        }
        // A flag of another command is not listed.
        if *command != "rewrite" {
            assert!(!run(&[command, "--help"]).1.contains("--compression"));
        }
    }
    let (code, out, _) = run(&["--version"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        format!("parquet-serde {}", env!("CARGO_PKG_VERSION"))
    );
}

/// Exit codes: 2 for an unknown flag, a missing value or argument, no command; 1 for a file
/// that does not open.
#[test]
fn exit_codes() {
    let f = corpus_path("alltypes_plain.parquet");
    let f = f.to_str().unwrap();
    for command in ["cat", "schema", "meta", "pages", "check", "rewrite"] {
        let (code, out, err) = run(&[command, "--frobnicate", f, "/nonexistent/out.parquet"]);
        assert_eq!(code, 2, "{command}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("unexpected argument '--frobnicate'"), "{err}");
        let (code, _, err) = run(&[command]);
        assert_eq!(code, 2, "{command}: {err}");
        assert!(err.contains("required"), "{err}");
    }
    for command in ["cat", "schema", "meta", "pages", "check"] {
        let (code, out, err) = run(&[command, "/nonexistent/file.parquet"]);
        assert_eq!(code, 1, "{command}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(
            err.starts_with("parquet-serde: /nonexistent/file.parquet: I/O error"),
            "{err}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.parquet");
    let (code, _, err) = run(&[
        "rewrite",
        "/nonexistent/file.parquet",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("/nonexistent/file.parquet"), "{err}");
    assert!(!out.exists());
    let (code, _, err) = run(&["cat", f, "--limit"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--limit"), "{err}");
    let (code, _, err) = run(&["cat", f, "--limit", "ten"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--limit"), "{err}");
    let (code, _, _) = run(&[]);
    assert_eq!(code, 2);
}

/// The Parquet files below `dir`, recursively, sorted.
fn parquet_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            parquet_files(&path, out);
        } else if name.ends_with(".parquet") || name.ends_with(".parquet.encrypted") {
            out.push(path);
        }
    }
    out.sort();
}

/// `cat` (the command, reading a row group at a time) and `from_slice::<Value>` (the
/// whole-file read) give the same JSON lines for every file of the parquet-testing corpus,
/// and the files one cannot read (encrypted without keys, corrupt) fail the same way in
/// both.
#[test]
fn cat_equals_value_rows_on_every_corpus_file() {
    use parquet_serde::record::Value;

    let mut files = Vec::new();
    parquet_files(&common::corpus_dir("data"), &mut files);
    parquet_files(&common::corpus_dir("bad_data"), &mut files);
    let (mut read, mut failed) = (0, 0);
    for path in &files {
        let shown = path.display();
        let (code, out, err) = run(&["cat", path.to_str().unwrap()]);
        let bytes = std::fs::read(path).unwrap();
        match parquet_serde::from_slice::<Value>(&bytes) {
            Ok(rows) => {
                assert_eq!(code, 0, "{shown}: cat failed where from_slice read: {err}");
                let lines: Vec<String> = rows
                    .iter()
                    .map(|row| {
                        let mut line = String::new();
                        row.write_json(&mut line);
                        line
                    })
                    .collect();
                let cat: Vec<&str> = out.lines().collect();
                assert_eq!(cat.len(), lines.len(), "{shown}: row counts");
                for (i, (c, l)) in cat.iter().zip(&lines).enumerate() {
                    assert_eq!(c, l, "{shown}: row {i}");
                }
                read += 1;
            }
            Err(e) => {
                assert_eq!(code, 1, "{shown}: cat read what from_slice fails on: {e}");
                assert_eq!(
                    err.trim_end(),
                    format!("parquet-serde: {}: {e}", path.to_str().unwrap()),
                    "{shown}"
                );
                failed += 1;
            }
        }
    }
    assert!(
        read > 60 && failed > 5,
        "{read} files read, {failed} failed"
    );
}

/// Writes `values` into the optional column `c` of `schema` through the column writer,
/// which does not check annotations (files written by others may hold anything); `None` is a
/// null.
fn raw_file(path: &std::path::Path, schema: &str, values: &[Option<&[u8]>]) {
    let def_levels = values.iter().map(|v| v.is_some() as i16).collect();
    raw_column(path, schema, values.iter().flatten(), def_levels, vec![]);
}

/// Writes the one column of `schema`, its `values` and levels, through the column writer.
fn raw_column<'a>(
    path: &std::path::Path,
    schema: &str,
    values: impl Iterator<Item = &'a &'a [u8]>,
    def_levels: Vec<i16>,
    rep_levels: Vec<i16>,
) {
    use parquet_serde::core::column::ColumnBatch;
    use parquet_serde::core::file::FileWriter;
    use parquet_serde::core::values::{ByteArrays, ColumnValues};
    let mut b = ByteArrays::new();
    for v in values {
        b.push(v);
    }
    let batch = ColumnBatch {
        values: ColumnValues::ByteArray(b),
        def_levels,
        rep_levels,
    };
    let schema = schema.parse().unwrap();
    let options = parquet_serde::WriterOptions::default();
    let mut w = FileWriter::new(std::fs::File::create(path).unwrap(), schema, options).unwrap();
    let mut cw = w.column_writer(0).unwrap();
    cw.write(&batch).unwrap();
    w.write_row_group(vec![cw.close().unwrap()]).unwrap();
    w.close().unwrap();
}

#[test]
fn check_reports_bad_json_utf8_and_bson_in_files_of_others() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.parquet");
    let ok: &[u8] = b"{\"a\": 1}";
    let cases: [(&str, &[u8], &str); 4] = [
        (
            "JSON",
            b"{bad json",
            "a value of the JSON column is not valid JSON",
        ),
        ("JSON", b"\"\\ud800\"", "lone surrogate"),
        (
            "STRING",
            b"ab\xff",
            "a value of the string column is not UTF-8",
        ),
        (
            "BSON",
            b"{}",
            "a value of the BSON column is not a BSON document",
        ),
    ];
    for (annotation, bad, what) in cases {
        let schema = format!("message m {{ optional binary c ({annotation}); }}");
        let good: &[u8] = if annotation == "BSON" {
            &[5, 0, 0, 0, 0]
        } else {
            ok
        };
        raw_file(&path, &schema, &[Some(good), None, Some(good), Some(bad)]);
        let (code, _, err) = run(&["check", path.to_str().unwrap()]);
        assert_eq!(code, 1, "{annotation}: {err}");
        assert!(
            err.contains(what)
                && err.contains("column c")
                && err.contains("row 3 of the file")
                && err.contains("row group 0"),
            "{annotation}: {err}"
        );
        raw_file(&path, &schema, &[Some(good), None, Some(good)]);
        let (code, out, err) = run(&["check", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{annotation}: {err}");
        assert!(out.starts_with("ok: "), "{out}");
    }
}

#[test]
fn check_names_the_row_of_a_bad_value_in_a_list() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.parquet");
    let schema = "message m { optional group l (LIST) { repeated group list { \
                  optional binary element (STRING); } } }";
    // Rows: ["a", "b"], [], null, ["c", <not UTF-8>].
    let values: [&[u8]; 4] = [b"a", b"b", b"c", b"\xc3("];
    raw_column(
        &path,
        schema,
        values.iter(),
        vec![3, 3, 1, 0, 3, 3],
        vec![0, 1, 0, 0, 0, 1],
    );
    let (code, _, err) = run(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("not UTF-8")
            && err.contains("row 3 of the file")
            && err.contains("l.list.element"),
        "{err}"
    );
}
