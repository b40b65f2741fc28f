//! Writes a small Parquet file with the core (column-level) API, reads it back, and prints its schema and
//! its rows as JSON lines.

use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
use parquet_serde::core::schema::Schema;
use parquet_serde::core::values::{ByteArrays, ColumnValues};
use parquet_serde::Compression;

fn main() -> Result<(), parquet_serde::Error> {
    let schema: Schema = "message event {
        required int64 ts (TIMESTAMP(MICROS,true));
        required binary level (STRING);
        optional int32 status;
        optional group tags (LIST) { repeated group list { required binary element (STRING); } }
    }"
    .parse()?;

    let path = std::env::temp_dir().join("parquet-serde-quickstart.parquet");
    let options = WriterOptions::default().compression(Compression::Zstd(3));
    let mut writer = FileWriter::new(std::fs::File::create(&path)?, schema, options)?;

    let mut levels = ByteArrays::new();
    for l in ["INFO", "WARN", "INFO"] {
        levels.push(l.as_bytes());
    }
    let mut tags = ByteArrays::new();
    for t in ["db", "slow", "auth"] {
        tags.push(t.as_bytes());
    }
    let batches = [
        ColumnBatch {
            values: ColumnValues::Int64(vec![
                1_700_000_000_000_000,
                1_700_000_000_250_000,
                1_700_000_001_000_000,
            ]),
            def_levels: vec![],
            rep_levels: vec![],
        },
        ColumnBatch {
            values: ColumnValues::ByteArray(levels),
            def_levels: vec![],
            rep_levels: vec![],
        },
        ColumnBatch {
            values: ColumnValues::Int32(vec![200, 503]),
            def_levels: vec![1, 1, 0],
            rep_levels: vec![],
        },
        // row 0: ["db", "slow"], row 1: null, row 2: ["auth"]
        ColumnBatch {
            values: ColumnValues::ByteArray(tags),
            def_levels: vec![2, 2, 0, 2],
            rep_levels: vec![0, 1, 0, 0],
        },
    ];
    let mut chunks = Vec::new();
    for (i, batch) in batches.iter().enumerate() {
        let mut column = writer.column_writer(i)?;
        column.write(batch)?;
        chunks.push(column.close()?);
    }
    writer.write_row_group(chunks)?;
    writer.close()?;

    let reader = FileReader::new(std::fs::File::open(&path)?)?;
    println!("{}", reader.schema());
    for row in parquet_serde::Reader::<_, parquet_serde::Value>::from_file_reader(reader)? {
        let row = row?;
        let mut line = String::new();
        row.write_json(&mut line);
        println!("{line}");
    }
    std::fs::remove_file(&path)?;
    Ok(())
}
