//! `parquet-serde rewrite IN OUT`: every value and the schema kept, with the options asked
//! for (codec, encodings, page version, row group size) and IN's layout otherwise.

mod common;

use common::{corpus_path, python, regression_path};

use std::path::Path;
use std::process::Command;

use parquet_serde::core::column::Encoding;
use parquet_serde::core::file::FileReader;
use parquet_serde::core::page::PageType;

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

fn cat(path: &Path) -> String {
    let (code, out, err) = run(&["cat", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    out
}

fn schema(path: &Path) -> String {
    run(&["schema", path.to_str().unwrap()]).1
}

/// (row groups, rows per group, codecs, data page encodings, any v2 page) of a file.
struct Shape {
    row_groups: Vec<u64>,
    /// Codec names as parquet.thrift spells them.
    codecs: Vec<String>,
    encodings: Vec<Vec<Encoding>>,
    v2: bool,
    dictionary: Vec<bool>,
}

fn shape(path: &Path) -> Shape {
    let reader = FileReader::new(std::fs::read(path).unwrap()).unwrap();
    let n = reader.schema().num_columns();
    let mut s = Shape {
        row_groups: reader
            .metadata()
            .row_groups()
            .map(|r| r.num_rows())
            .collect(),
        codecs: Vec::new(),
        encodings: vec![Vec::new(); n],
        v2: false,
        dictionary: vec![false; n],
    };
    for rg in 0..reader.num_row_groups() {
        for c in 0..n {
            let chunk = reader.column_chunk(rg, c).unwrap();
            let codec = reader
                .metadata()
                .row_group(rg)
                .and_then(|g| g.column(c))
                .and_then(|m| m.codec_name())
                .unwrap();
            if !s.codecs.contains(&codec) {
                s.codecs.push(codec);
            }
            let mut pages = chunk.pages(reader.options());
            while let Some(p) = pages.next_raw().unwrap() {
                let e = match p.page_type() {
                    PageType::DictionaryPage => {
                        s.dictionary[c] = true;
                        continue;
                    }
                    PageType::DataPageV2 => {
                        s.v2 = true;
                        p.encoding().unwrap()
                    }
                    _ => {
                        assert!(p.level_encodings().is_some());
                        p.encoding().unwrap()
                    }
                };
                let e = if e == Encoding::PlainDictionary {
                    Encoding::RleDictionary
                } else {
                    e
                };
                if !s.encodings[c].contains(&e) {
                    s.encodings[c].push(e);
                }
            }
        }
    }
    s
}

#[test]
fn rewrite_keeps_values_schema_and_encodings() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "delta_binary_packed.parquet",
        "delta_byte_array.parquet",
        "delta_length_byte_array.parquet",
        "delta_encoding_optional_column.parquet",
        "byte_stream_split_extended.gzip.parquet",
        "rle_boolean_encoding.parquet",
        "datapage_v2.snappy.parquet",
        "nested_lists.snappy.parquet",
        "alltypes_dictionary.parquet",
    ] {
        let input = corpus_path(name);
        let output = dir.path().join(name);
        let (code, _, err) = run(&["rewrite", input.to_str().unwrap(), output.to_str().unwrap()]);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(cat(&output), cat(&input), "{name}");
        assert_eq!(schema(&output), schema(&input), "{name}");
        let (a, b) = (shape(&input), shape(&output));
        assert_eq!(b.row_groups, a.row_groups, "{name}");
        assert_eq!(b.codecs, a.codecs, "{name}");
        assert_eq!(b.v2, a.v2, "{name}");
        for c in 0..a.encodings.len() {
            let mut x = a.encodings[c].clone();
            let mut y = b.encodings[c].clone();
            x.sort_by_key(|e| e.to_i32());
            y.sort_by_key(|e| e.to_i32());
            assert_eq!(y, x, "{name} column {c}");
            assert_eq!(b.dictionary[c], a.dictionary[c], "{name} column {c}");
        }
    }
}

#[test]
fn rewrite_with_other_options() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus_path("alltypes_plain.parquet");
    let output = dir.path().join("out.parquet");
    let (code, _, err) = run(&[
        "rewrite",
        input.to_str().unwrap(),
        output.to_str().unwrap(),
        "--compression",
        "zstd:5",
        "--encoding=auto",
        "--encoding",
        "id=delta_binary_packed",
        "--encoding",
        "double_col=byte_stream_split",
        "--page-version",
        "2",
        "--row-group-rows",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cat(&output), cat(&input));
    assert_eq!(schema(&output), schema(&input));
    let s = shape(&output);
    assert_eq!(s.row_groups, vec![3, 3, 2]);
    assert_eq!(s.codecs, vec!["ZSTD"]);
    assert!(s.v2);
    let reader = FileReader::new(std::fs::read(&output).unwrap()).unwrap();
    let col = |name: &str| {
        reader
            .schema()
            .columns()
            .iter()
            .position(|c| c.path.to_string() == name)
            .unwrap()
    };
    assert_eq!(s.encodings[col("id")], vec![Encoding::DeltaBinaryPacked]);
    assert_eq!(
        s.encodings[col("double_col")],
        vec![Encoding::ByteStreamSplit]
    );

    // Nested columns across row group cuts.
    let input = corpus_path("nested_lists.snappy.parquet");
    let output = dir.path().join("nested.parquet");
    let (code, _, err) = run(&[
        "rewrite",
        input.to_str().unwrap(),
        output.to_str().unwrap(),
        "--row-group-rows",
        "1",
        "--encoding",
        "delta_byte_array",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cat(&output), cat(&input));
    assert_eq!(shape(&output).row_groups.len(), 3);

    // ALP on the floats of a file, read back by us.
    let input = corpus_path("byte_stream_split.zstd.parquet");
    let output = dir.path().join("alp.parquet");
    let (code, _, err) = run(&[
        "rewrite",
        input.to_str().unwrap(),
        output.to_str().unwrap(),
        "--encoding",
        "alp",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cat(&output), cat(&input));
    let s = shape(&output);
    assert!(s.encodings.iter().all(|e| e == &[Encoding::from_i32(10)]));
}

#[test]
fn rewrite_errors() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus_path("alltypes_plain.parquet");
    let output = dir.path().join("out.parquet");
    let (i, o) = (input.to_str().unwrap(), output.to_str().unwrap());
    let (code, _, err) = run(&[
        "rewrite",
        i,
        o,
        "--encoding",
        "double_col=delta_binary_packed",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("encoding DELTA_BINARY_PACKED does not fit physical type DOUBLE"),
        "{err}"
    );
    assert!(err.contains("double_col"), "{err}");
    let (code, _, err) = run(&["rewrite", i, o, "--encoding", "nope=plain"]);
    assert_eq!(code, 2);
    assert!(err.contains("no column nope"), "{err}");
    let (code, _, err) = run(&["rewrite", i, o, "--encoding", "zip"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown encoding zip"), "{err}");
    let (code, _, err) = run(&["rewrite", i, o, "--bloom"]);
    assert_eq!(code, 2);
    assert!(err.contains("unexpected argument '--bloom'"), "{err}");
    let (code, _, err) = run(&["rewrite", i, o, "--compression", "snappy:3"]);
    assert_eq!(code, 2);
    assert!(err.contains("snappy has no levels"), "{err}");
    let (code, _, err) = run(&["rewrite", i]);
    assert_eq!(code, 2);
    assert!(
        err.contains("required arguments were not provided") && err.contains("<OUT>"),
        "{err}"
    );
    let (code, _, _) = run(&["rewrite", "/nonexistent.parquet", o]);
    assert_eq!(code, 1);
}

/// The statistics flags: no statistics and no page index, or a Bloom filter and a sort key,
/// and the values stay the same.
#[test]
fn rewrite_with_statistics_flags() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus_path("alltypes_plain.parquet");
    let plain = dir.path().join("plain.parquet");
    let (code, _, err) = run(&[
        "rewrite",
        input.to_str().unwrap(),
        plain.to_str().unwrap(),
        "--statistics",
        "none",
        "--page-index",
        "off",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cat(&plain), cat(&input));
    let reader = FileReader::new(std::fs::read(&plain).unwrap()).unwrap();
    for c in reader.metadata().row_group(0).unwrap().columns() {
        assert!(c.has_metadata());
        assert!(c.raw_statistics().is_none());
        assert!(c.column_index_range().is_none() && c.offset_index_range().is_none());
    }

    let indexed = dir.path().join("indexed.parquet");
    let (code, _, err) = run(&[
        "rewrite",
        input.to_str().unwrap(),
        indexed.to_str().unwrap(),
        "--bloom-filter",
        "string_col:100:0.01",
        "--sorting-column",
        "id:desc",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cat(&indexed), cat(&input));
    let reader = FileReader::new(std::fs::read(&indexed).unwrap()).unwrap();
    let rg = reader.metadata().row_group(0).unwrap();
    let string_col = reader.schema().column_index("string_col").unwrap();
    let chunk = rg.column(string_col).unwrap();
    assert!(chunk.has_metadata());
    assert!(chunk.bloom_filter_offset().is_some());
    let sorting = rg.sorting_columns();
    assert_eq!(sorting.len(), 1, "sorting columns");
    assert!(sorting[0].descending && !sorting[0].nulls_first);
    assert_eq!(sorting[0].column, "id");

    let (code, _, err) = run(&[
        "rewrite",
        input.to_str().unwrap(),
        indexed.to_str().unwrap(),
        "--page-index",
        "maybe",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--page-index"), "{err}");
}

/// `rewrite` encrypts OUT (uniform, column keys with a signed plaintext footer, CTR, AAD
/// prefix not stored, key metadata), reads an encrypted IN with its keys, and `--decrypt`
/// writes a plaintext copy.
#[test]
fn rewrite_encrypts_and_decrypts() {
    const FOOTER: &str = "30313233343536373839303132333435"; // "0123456789012345"
    const KEY1: &str = "31323334353637383930313233343530";
    let dir = tempfile::tempdir().unwrap();
    let input = corpus_path("alltypes_plain.parquet");
    let i = input.to_str().unwrap();
    let plain_rows = cat(&input);
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();

    // Uniform encryption: every column and the footer under the footer key.
    let uniform = out("uniform.parquet");
    let (code, _, err) = run(&["rewrite", i, &uniform, "--footer-key", FOOTER]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&std::fs::read(&uniform).unwrap()[..4], b"PARE");
    let (code, _, err) = run(&["cat", &uniform]);
    assert_eq!(code, 1);
    assert!(err.contains("encrypted footer"), "{err}");
    let (code, rows, err) = run(&["cat", &uniform, "--footer-key", FOOTER]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows, plain_rows);

    // Column key on `id`, signed plaintext footer, CTR pages, AAD prefix not stored,
    // key metadata for both keys.
    let columns = out("columns.parquet");
    let column_key = format!("id:{KEY1}");
    let (code, _, err) = run(&[
        "rewrite",
        i,
        &columns,
        "--footer-key",
        FOOTER,
        "--column-key",
        &column_key,
        "--plaintext-footer",
        "--algorithm",
        "gcm-ctr",
        "--aad-prefix",
        "part-0",
        "--no-store-aad-prefix",
        "--footer-key-metadata",
        "kf",
        "--column-key-metadata",
        "id:kc1",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, meta, err) = run(&[
        "meta",
        &columns,
        "--footer-key",
        FOOTER,
        "--column-key",
        &column_key,
        "--aad-prefix",
        "part-0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(meta.contains("AES_GCM_CTR_V1"), "{meta}");
    // Plaintext columns read with no key; `id` needs its key and the AAD prefix.
    let (code, rows, err) = run(&["cat", &columns, "--columns", "bool_col"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows.lines().count(), plain_rows.lines().count());
    let (code, _, err) = run(&["cat", &columns, "--columns", "id"]);
    assert_eq!(code, 1);
    assert!(err.contains("id"), "{err}");
    let all_keys = [
        "--footer-key",
        FOOTER,
        "--column-key",
        &column_key,
        "--aad-prefix",
        "part-0",
    ];
    let mut args = vec!["cat", &columns];
    args.extend(all_keys);
    let (code, rows, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows, plain_rows);

    // An encrypted IN rewritten: same keys for OUT unless --decrypt.
    let again = out("again.parquet");
    let mut args = vec!["rewrite", &columns, &again, "--in-aad-prefix", "part-0"];
    args.extend(&all_keys[..4]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let mut args = vec!["cat", &again];
    args.extend(&all_keys[..4]);
    let (code, rows, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows, plain_rows);
    let decrypted = out("decrypted.parquet");
    let mut args = vec![
        "rewrite",
        &columns,
        &decrypted,
        "--decrypt",
        "--in-aad-prefix",
        "part-0",
    ];
    args.extend(&all_keys[..4]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cat(Path::new(&decrypted)), plain_rows);

    // Mistakes are usage errors.
    let bad = out("bad.parquet");
    let (code, _, err) = run(&["rewrite", i, &bad, "--plaintext-footer"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--footer-key"), "{err}");
    let (code, _, err) = run(&[
        "rewrite",
        i,
        &bad,
        "--footer-key",
        FOOTER,
        "--column-key",
        &format!("nope:{KEY1}"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no column nope"), "{err}");
    let (code, _, err) = run(&[
        "rewrite",
        i,
        &bad,
        "--footer-key",
        FOOTER,
        "--algorithm",
        "cbc",
    ]);
    assert_eq!(code, 2, "{err}");
}

/// The names in `dir`, sorted.
fn dir_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// OUT appears whole or not at all: a rewrite that fails (a wrong key for IN, or a corrupt
/// page found while copying, after OUT was started) leaves no OUT and no temporary file, and
/// an existing OUT keeps its bytes; one that succeeds replaces OUT, even when OUT is IN.
#[test]
fn rewrite_writes_out_atomically() {
    const FOOTER: &str = "30313233343536373839303132333435";
    const WRONG: &str = "31323334353637383930313233343530";
    let work = tempfile::tempdir().unwrap();
    let input = corpus_path("alltypes_plain.parquet");
    let i = input.to_str().unwrap();
    let encrypted = work.path().join("encrypted.parquet");
    let (code, _, err) = run(&[
        "rewrite",
        i,
        encrypted.to_str().unwrap(),
        "--footer-key",
        FOOTER,
    ]);
    assert_eq!(code, 0, "{err}");

    // A wrong key for IN: fails, and the directory of OUT stays empty.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.parquet");
    let o = out.to_str().unwrap();
    let (code, _, err) = run(&[
        "rewrite",
        encrypted.to_str().unwrap(),
        o,
        "--in-footer-key",
        WRONG,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        dir_names(dir.path()).is_empty(),
        "{:?}",
        dir_names(dir.path())
    );

    // Two row groups, the second with a corrupt page: IN opens and its layout (read from
    // the first row group) is fine, so the failure comes while OUT is being written.
    let split = work.path().join("split.parquet");
    let (code, _, err) = run(&[
        "rewrite",
        i,
        split.to_str().unwrap(),
        "--row-group-rows",
        "4",
        "--compression",
        "none",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut bytes = std::fs::read(&split).unwrap();
    let reader = FileReader::new(bytes.clone()).unwrap();
    assert_eq!(reader.metadata().num_row_groups(), 2);
    let chunk = reader.metadata().row_group(1).unwrap().column(0).unwrap();
    assert!(chunk.has_metadata());
    let start = chunk
        .dictionary_page_offset()
        .unwrap_or(chunk.data_page_offset());
    // The last byte of the chunk: inside its last data page's values.
    bytes[(start + chunk.compressed_size() - 1) as usize] ^= 0xff;
    let corrupt = work.path().join("corrupt.parquet");
    std::fs::write(&corrupt, &bytes).unwrap();
    let (code, _, err) = run(&["rewrite", corrupt.to_str().unwrap(), o]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("checksum mismatch"), "{err}");
    assert!(err.contains("row group 1"), "{err}");
    assert!(
        dir_names(dir.path()).is_empty(),
        "{:?}",
        dir_names(dir.path())
    );

    // An existing OUT keeps its bytes through a failed rewrite...
    std::fs::write(&out, b"old bytes").unwrap();
    let (code, _, err) = run(&["rewrite", corrupt.to_str().unwrap(), o]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b"old bytes");
    assert_eq!(dir_names(dir.path()), vec!["out.parquet"]);
    // ... and is replaced by a successful one, with no file left beside it.
    let (code, _, err) = run(&["rewrite", i, o]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cat(&out), cat(&input));
    assert_eq!(dir_names(dir.path()), vec!["out.parquet"]);

    // OUT may be IN: IN is read to the end before OUT replaces it.
    let (code, _, err) = run(&["rewrite", o, o, "--compression", "zstd"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cat(&out), cat(&input));
    assert_eq!(shape(&out).codecs, vec!["ZSTD"]);
    assert_eq!(dir_names(dir.path()), vec!["out.parquet"]);
}

/// `rewrite --truncate-stats 4` of a file with a UUID, a decimal, a plain and a FLOAT16
/// FIXED_LEN_BYTE_ARRAY column (`testdata/regressions/uuid-column.parquet`): the bounds
/// used to be cut to 4 bytes, and DuckDB then refuses the whole file ("Incorrect stats size
/// for type UUID"). FIXED_LEN_BYTE_ARRAY bounds now keep the type's width, and DuckDB reads
/// every row and filters by them.
#[test]
fn rewrite_truncating_statistics_keeps_fixed_width_bounds_for_duckdb() {
    let dir = tempfile::tempdir().unwrap();
    let input = regression_path("uuid-column.parquet");
    let out = dir.path().join("uuid.parquet");
    let (code, _, err) = run(&[
        "rewrite",
        input.to_str().unwrap(),
        out.to_str().unwrap(),
        "--truncate-stats",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(cat(&out), cat(&input));
    let reader = FileReader::new(std::fs::read(&out).unwrap()).unwrap();
    for (c, d) in reader.schema().columns().iter().enumerate() {
        let meta = reader.metadata().row_group(0).unwrap().column(c).unwrap();
        assert!(meta.has_metadata());
        let s = meta.raw_statistics().unwrap();
        for b in [s.min_value(), s.max_value()].into_iter().flatten() {
            assert_eq!(b.len(), d.type_length as usize, "{}: {b:?}", d.path);
        }
    }
    let script = r#"
import sys, duckdb
p = sys.argv[1]
con = duckdb.connect()
print(con.execute(f"select count(*) from read_parquet('{p}')").fetchone()[0])
print(con.execute(f"select count(*) from read_parquet('{p}') where u > '00000000-0000-0000-0000-000000000005'::uuid").fetchone()[0])
print(con.execute(f"select count(*) from read_parquet('{p}') where u >= '00000000-0000-0000-0000-000000000000'::uuid").fetchone()[0])
print(con.execute(f"select count(*) from read_parquet('{p}') where f = 'zzzzzzzz'::blob").fetchone()[0])
"#;
    let o = Command::new(python())
        .arg("-c")
        .arg(script)
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "DuckDB rejects the file: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let counts = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        counts.split_whitespace().collect::<Vec<_>>(),
        ["2", "1", "2", "1"]
    );
}
