//! Writes the library's own seed files for the fuzz targets into the directory given as
//! the first argument (`fuzz/seed.sh` runs it): small files of every column shape with the
//! writer's options varied (codecs, page versions, dictionaries, statistics, page index,
//! Bloom filters, checksums), and one encrypted with the test keys of `targets::encrypted`.

use std::collections::BTreeMap;
use std::path::Path;

use parquet_serde::core::bloom::BloomFilterOptions;
use parquet_serde::core::column::DataPageVersion;
use parquet_serde::core::encryption::FileEncryptionProperties;
use parquet_serde::core::file::WriterOptions;
use parquet_serde::{Compression, ParquetSchema};
use serde::Serialize;

#[derive(Serialize, ParquetSchema)]
struct Inner {
    x: f64,
    label: Option<String>,
}

#[derive(Serialize, ParquetSchema)]
struct Row {
    id: i64,
    small: i32,
    flag: bool,
    name: String,
    score: Option<f32>,
    tags: Vec<Option<String>>,
    inner: Option<Inner>,
    nested: Vec<Vec<i64>>,
    attrs: BTreeMap<String, i32>,
    raw: Vec<u8>,
}

fn rows(n: usize) -> Vec<Row> {
    (0..n)
        .map(|i| Row {
            id: i as i64 * 7 - 20,
            small: (i % 5) as i32,
            flag: i % 3 == 0,
            name: format!("name-{}", i % 4),
            score: (i % 4 != 0).then_some(i as f32 / 2.0),
            tags: (0..i % 3)
                .map(|j| (j != 1).then(|| format!("t{j}")))
                .collect(),
            inner: (i % 2 == 0).then(|| Inner {
                x: i as f64,
                label: (i % 3 == 0).then(|| "l".to_string()),
            }),
            nested: (0..i % 3).map(|j| (0..j as i64).collect()).collect(),
            attrs: (0..i % 2).map(|j| (format!("k{j}"), j as i32)).collect(),
            raw: vec![i as u8; i % 4],
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).ok_or("usage: write_seeds DIR")?;
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir)?;
    let base = WriterOptions::default().page_row_limit(8).row_group_rows(20);
    let variants: Vec<(&str, WriterOptions)> = vec![
        ("plain", base.clone().dictionary(false)),
        ("dict_snappy", base.clone().compression(Compression::Snappy)),
        (
            "v2_zstd",
            base.clone()
                .data_page_version(DataPageVersion::V2)
                .compression(Compression::ZSTD_DEFAULT),
        ),
        (
            "index_bloom",
            base.clone()
                .page_index(true)
                .bloom_filter("name", BloomFilterOptions::default())
                .bloom_filter("id", BloomFilterOptions::default()),
        ),
        ("no_checksums", base.clone().checksums(false).compression(Compression::Lz4Raw)),
    ];
    for (name, options) in variants {
        let bytes = parquet_serde::to_vec_with(&rows(30), &options)?;
        std::fs::write(dir.join(format!("lib_{name}.parquet")), bytes)?;
    }
    let keys = FileEncryptionProperties::builder(b"0123456789012345".to_vec())
        .column_key("id", b"1234567890123450".to_vec(), None)
        .build()?;
    let bytes = parquet_serde::to_vec_with(&rows(12), &base.encryption(keys))?;
    std::fs::write(dir.join("lib_encrypted.parquet.encrypted"), bytes)?;
    Ok(())
}
