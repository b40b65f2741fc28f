//! The encoding files of parquet-testing: read value for value against their
//! `*_expect.csv`, and rewritten through our writer keeping every column's encodings
//! (dictionary or not, the value encoding of the other pages, page version, codec), then
//! read back by our reader and by pyarrow with the same values.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::collections::BTreeSet;

use common::{corpus, json_eq, read_with, rows_json};
use parquet_serde::core::column::Encoding;
use parquet_serde::core::column::{ColumnBatch, DataPageVersion};
use parquet_serde::core::file::{ColumnOverrides, FileReader, FileWriter, WriterOptions};
use parquet_serde::core::page::PageType;
use parquet_serde::core::values::ColumnValues;
use parquet_serde::{Compression, ReadOptions};

/// Files whose values are checked against their `*_expect.csv`.
const WITH_CSV: &[&str] = &[
    "delta_binary_packed",
    "delta_byte_array",
    "delta_encoding_required_column",
    "delta_encoding_optional_column",
];

/// Files rewritten keeping their encodings.
const REWRITTEN: &[&str] = &[
    "delta_binary_packed",
    "delta_byte_array",
    "delta_length_byte_array",
    "delta_encoding_required_column",
    "delta_encoding_optional_column",
    "byte_stream_split.zstd",
    "byte_stream_split_extended.gzip",
    "rle_boolean_encoding",
    "fixed_length_byte_array",
    "datapage_v2.snappy",
];

/// Parses CSV: fields separated by commas, optionally in double quotes (`""` inside is a
/// quote). An empty unquoted field is `None` (null).
fn parse_csv(text: &str) -> Vec<Vec<Option<String>>> {
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let mut fields = Vec::new();
        let mut chars = line.chars().peekable();
        loop {
            let mut field = String::new();
            let quoted = chars.peek() == Some(&'"');
            if quoted {
                chars.next();
                while let Some(c) = chars.next() {
                    if c == '"' {
                        if chars.peek() == Some(&'"') {
                            chars.next();
                            field.push('"');
                        } else {
                            break;
                        }
                    } else {
                        field.push(c);
                    }
                }
            }
            while let Some(&c) = chars.peek() {
                if c == ',' {
                    break;
                }
                field.push(c);
                chars.next();
            }
            fields.push(if field.is_empty() && !quoted {
                None
            } else {
                Some(field)
            });
            if chars.next().is_none() {
                break;
            }
        }
        rows.push(fields);
    }
    rows
}

/// One flat column as text per row (`None` for null): integers in decimal, byte arrays as
/// UTF-8.
fn column_text(batch: &ColumnBatch, max_def: i16) -> Vec<Option<String>> {
    let values: Vec<String> = match &batch.values {
        ColumnValues::Int32(v) => v.iter().map(|x| x.to_string()).collect(),
        ColumnValues::Int64(v) => v.iter().map(|x| x.to_string()).collect(),
        ColumnValues::ByteArray(v) => v
            .iter()
            .map(|b| String::from_utf8(b.to_vec()).unwrap())
            .collect(),
        other => panic!("unexpected values {other:?}"),
    };
    let mut it = values.into_iter();
    if batch.def_levels.is_empty() {
        return it.map(Some).collect();
    }
    batch
        .def_levels
        .iter()
        .map(|&d| if d == max_def { it.next() } else { None })
        .collect()
}

#[test]
fn delta_files_equal_their_expect_csv() {
    let mut checked = 0;
    for name in WITH_CSV {
        let data = corpus().join("data");
        let csv = common::read_to_string(&data.join(format!("{name}_expect.csv")));
        let expected = parse_csv(&csv);
        let reader = FileReader::new(common::read(&data.join(format!("{name}.parquet")))).unwrap();
        let schema = reader.schema();
        assert_eq!(expected[0].len(), schema.num_columns(), "{name}: columns");
        let mut ours: Vec<Vec<Option<String>>> = Vec::new();
        for c in 0..schema.num_columns() {
            let mut col = Vec::new();
            for rg in 0..reader.num_row_groups() {
                let batch = reader.read_column(rg, c).unwrap();
                col.extend(column_text(&batch, schema.columns()[c].max_def_level));
            }
            ours.push(col);
        }
        let rows = &expected[1..];
        for (c, col) in ours.iter().enumerate() {
            assert_eq!(col.len(), rows.len(), "{name} column {c}: rows");
            for (r, (got, row)) in col.iter().zip(rows).enumerate() {
                assert_eq!(
                    got,
                    &row[c],
                    "{name} row {r} column {}",
                    schema.columns()[c].path
                );
                checked += 1;
            }
        }
    }
    println!("{checked} values equal to the expect.csv files");
    assert!(checked > 13_000, "{checked}");
}

/// A column chunk's layout: whether it has a dictionary page, the encodings of its data
/// pages, and whether they are v2.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Layout {
    dictionary: bool,
    encodings: BTreeSet<i32>,
    v2: bool,
    codec: Option<String>,
}

fn layout<R: parquet_serde::core::file::ChunkReader>(
    reader: &FileReader<R>,
    rg: usize,
    c: usize,
) -> Layout {
    let chunk = reader.column_chunk(rg, c).unwrap();
    let mut pages = chunk.pages(reader.options());
    let mut l = Layout {
        dictionary: false,
        encodings: BTreeSet::new(),
        v2: false,
        codec: reader
            .metadata()
            .row_group(rg)
            .and_then(|g| g.column(c))
            .and_then(|m| m.codec_name()),
    };
    while let Some(p) = pages.next_raw().unwrap() {
        match p.page_type() {
            PageType::DictionaryPage => l.dictionary = true,
            PageType::DataPageV2 => {
                l.v2 = true;
                l.encodings.insert(p.encoding().unwrap().to_i32());
            }
            PageType::DataPage => {
                l.encodings.insert(p.encoding().unwrap().to_i32());
            }
            _ => {}
        }
    }
    // PLAIN_DICTIONARY and RLE_DICTIONARY data pages are the same thing.
    if l.encodings.remove(&Encoding::PlainDictionary.to_i32()) {
        l.encodings.insert(Encoding::RleDictionary.to_i32());
    }
    l
}

fn compression(codec: Option<&str>) -> Compression {
    match codec {
        Some("UNCOMPRESSED") => Compression::Uncompressed,
        Some("GZIP") => Compression::GZIP_DEFAULT,
        Some("ZSTD") => Compression::ZSTD_DEFAULT,
        Some("BROTLI") => Compression::BROTLI_DEFAULT,
        _ => Compression::Snappy,
    }
}

/// Writes every row group of `reader` again, each column with the layout it had.
fn rewrite_keeping_encodings(reader: &FileReader<Vec<u8>>) -> Vec<u8> {
    let schema = reader.schema().clone();
    let mut options = WriterOptions::default().page_size(4096);
    let first = |c| layout(reader, 0, c);
    if (0..schema.num_columns()).any(|c| first(c).v2) {
        options = options.data_page_version(DataPageVersion::V2);
    }
    for (c, descr) in schema.columns().iter().enumerate() {
        let l = first(c);
        let value_encoding = l
            .encodings
            .iter()
            .map(|&e| Encoding::from_i32(e))
            .find(|&e| e != Encoding::RleDictionary)
            .unwrap_or(Encoding::Plain);
        options = options.column(
            descr.path.to_string(),
            ColumnOverrides::default()
                .compression(compression(l.codec.as_deref()))
                .dictionary(l.dictionary)
                .encoding(value_encoding),
        );
    }
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    for rg in 0..reader.num_row_groups() {
        let mut chunks = Vec::new();
        for c in 0..schema.num_columns() {
            let mut w = writer.column_writer(c).unwrap();
            w.write(&reader.read_column(rg, c).unwrap()).unwrap();
            chunks.push(w.close().unwrap());
        }
        writer.write_row_group(chunks).unwrap();
    }
    writer.close().unwrap().0
}

#[test]
fn corpus_files_round_trip_keeping_their_encodings() {
    let dir = tempfile::tempdir().unwrap();
    let mut written = Vec::new();
    let mut expected_rows = Vec::new();
    for name in REWRITTEN {
        let bytes = common::corpus_file(&format!("{name}.parquet"));
        let source = FileReader::new(bytes.clone()).unwrap();
        let out = rewrite_keeping_encodings(&source);
        let copy = FileReader::new(out.clone()).unwrap();
        assert_eq!(
            copy.schema().to_string(),
            source.schema().to_string(),
            "{name}"
        );
        for rg in 0..source.num_row_groups() {
            for c in 0..source.schema().num_columns() {
                let path = source.schema().columns()[c].path.to_string();
                assert_eq!(
                    copy.read_column(rg, c).unwrap(),
                    source.read_column(rg, c).unwrap(),
                    "{name} row group {rg} column {path}"
                );
                let (a, b) = (layout(&source, rg, c), layout(&copy, rg, c));
                assert_eq!(
                    (b.dictionary, &b.encodings, b.v2),
                    (a.dictionary, &a.encodings, a.v2),
                    "{name} row group {rg} column {path}: layout"
                );
            }
        }
        let path = dir.path().join(format!("{name}.parquet"));
        std::fs::write(&path, &out).unwrap();
        expected_rows.push(rows_json(bytes, ReadOptions::default()).unwrap());
        written.push(path);
    }
    // pyarrow reads the copies with the values of the originals.
    let results = read_with("pyarrow", &written);
    assert_eq!(results.len(), written.len());
    for ((file, rows), expected) in results.into_iter().zip(&expected_rows) {
        let rows = rows.unwrap_or_else(|e| panic!("pyarrow failed on {file}: {e}"));
        assert_eq!(rows.len(), expected.len(), "{file}");
        for (i, (got, want)) in rows.iter().zip(expected).enumerate() {
            let want: serde_json::Value = serde_json::from_str(want).unwrap();
            assert!(
                json_eq(got, &want),
                "{file} row {i}:\n  pyarrow {got}\n  ours    {want}"
            );
        }
    }
}

#[test]
fn csv_parser() {
    let rows = parse_csv("a,\"b,c\",,\"\"\n\"x\"\"y\",1,2,\n");
    assert_eq!(
        rows,
        vec![
            vec![
                Some("a".into()),
                Some("b,c".into()),
                None,
                Some(String::new())
            ],
            vec![
                Some("x\"y".into()),
                Some("1".into()),
                Some("2".into()),
                None
            ],
        ]
    );
}
