//! External column data: a `ColumnChunk` whose `file_path` names another file is read from
//! that file, relative to the folder of the file being read; absolute paths and paths leaving
//! that folder are refused unless `ReadOptions::allow_external_paths` allows them.
//!
//! The files are made here: a file we write is copied as the sidecar, and a main file keeps
//! the same bytes with the `name` column's chunks zeroed and a footer whose chunks of that
//! column point at the sidecar (same offsets), so its values can only come from there.

use std::path::Path;

use parquet_serde::__internals::format;
use parquet_serde::core::file::FileReader;
use parquet_serde::{col, ParquetSchema, ReadOptions};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Row {
    id: i64,
    name: String,
}

fn rows() -> Vec<Row> {
    (0..3000)
        .map(|i| Row {
            id: i,
            name: format!("name-{}", i * 7 % 1000),
        })
        .collect()
}

/// The original file, and a main file whose column 1 lives in `file_path`.
fn split(file_path: &str) -> (Vec<u8>, Vec<u8>) {
    let options = parquet_serde::WriterOptions::default().row_group_rows(1000);
    let original = parquet_serde::to_vec_with(&rows(), options).unwrap();
    let reader = FileReader::new(original.clone()).unwrap();
    let footer_offset = reader.metadata().footer_offset() as usize;
    let mut meta = parquet_serde::__internals::file_metadata(reader.metadata()).clone();
    let mut main = original[..footer_offset].to_vec();
    for rg in &mut meta.row_groups {
        let chunk = &mut rg.columns[1];
        chunk.file_path = Some(file_path.to_string());
        let md = chunk.meta_data.as_ref().unwrap();
        let start = md
            .dictionary_page_offset
            .filter(|&d| d > 0)
            .unwrap_or(md.data_page_offset) as usize;
        let end = start + md.total_compressed_size as usize;
        main[start..end].fill(0);
    }
    let mut footer = Vec::new();
    format::encode(&meta, &mut footer);
    main.extend_from_slice(&footer);
    main.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    main.extend_from_slice(b"PAR1");
    (original, main)
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn chunks_are_read_from_the_file_they_name() {
    let dir = tempfile::tempdir().unwrap();
    let (original, main) = split("side.parquet");
    write(&dir.path().join("side.parquet"), &original);
    let main_path = dir.path().join("main.parquet");
    write(&main_path, &main);

    let back: Vec<Row> = parquet_serde::from_path(&main_path).unwrap();
    assert_eq!(back, rows());

    // The core reader, with the location given; filtered reads fetch single pages (page
    // index) and dictionaries from the sidecar too.
    let options = ReadOptions::default().file_location(&main_path);
    let reader = FileReader::with_options(main.clone(), options).unwrap();
    let filter = reader.filter(col("name").eq("name-7")).unwrap();
    let hits = filter.read_rows(&["id"]).unwrap();
    assert_eq!(hits.len(), 3);

    // Without a location there is no folder to resolve the path in.
    let err = parquet_serde::from_slice::<Row>(&main).unwrap_err();
    assert!(err.to_string().contains("location is not known"), "{err}");
}

#[test]
fn escaping_and_absolute_paths_need_permission() {
    let dir = tempfile::tempdir().unwrap();
    let (original, up) = split("../side.parquet");
    write(&dir.path().join("side.parquet"), &original);
    let main_path = dir.path().join("sub/main.parquet");
    write(&main_path, &up);

    let err = parquet_serde::from_path::<Row>(&main_path).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("../side.parquet") && msg.contains("allow_external_paths"),
        "{msg}"
    );
    let allowed = ReadOptions::default().allow_external_paths(true);
    let back: Vec<Row> =
        parquet_serde::Reader::<_, Row>::from_path_with_options(&main_path, allowed)
            .unwrap()
            .collect::<parquet_serde::Result<_>>()
            .unwrap();
    assert_eq!(back, rows());

    let absolute = dir.path().join("side.parquet");
    let (_, abs) = split(absolute.to_str().unwrap());
    let abs_path = dir.path().join("abs.parquet");
    write(&abs_path, &abs);
    let err = parquet_serde::from_path::<Row>(&abs_path).unwrap_err();
    assert!(err.to_string().contains("allow_external_paths"), "{err}");
    let allowed = ReadOptions::default().allow_external_paths(true);
    let back: Vec<Row> = parquet_serde::from_path_with(&abs_path, allowed).unwrap();
    assert_eq!(back, rows());

    // A sidecar that is missing is an error naming it.
    let (_, gone) = split("missing.parquet");
    let gone_path = dir.path().join("gone.parquet");
    write(&gone_path, &gone);
    let err = parquet_serde::from_path::<Row>(&gone_path).unwrap_err();
    assert!(err.to_string().contains("missing.parquet"), "{err}");
}
