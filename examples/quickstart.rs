//! The typed API: derive a schema, write a `Vec<T>`, read it back, print what other tools see.
//!
//! `cargo run --example quickstart`

use std::collections::BTreeMap;

use parquet_serde::{Compression, ParquetSchema, WriterOptions};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Http {
    method: String,
    status: u16,
    latency_ms: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct LogRecord {
    #[parquet(timestamp = "micros")]
    ts: i64,
    level: Level,
    target: String,
    message: String,
    user_id: Option<u64>,
    tags: Vec<String>,
    attrs: BTreeMap<String, String>,
    http: Option<Http>,
}

fn main() -> Result<(), parquet_serde::Error> {
    let records: Vec<LogRecord> = (0..5)
        .map(|i| LogRecord {
            ts: 1_700_000_000_000_000 + i * 250_000,
            level: if i % 3 == 0 { Level::Warn } else { Level::Info },
            target: "api::orders".into(),
            message: format!("request {i} served"),
            user_id: (i % 2 == 0).then_some(1000 + i as u64),
            tags: (0..i % 3).map(|t| format!("tag{t}")).collect(),
            attrs: BTreeMap::from([("region".to_string(), "eu-west".to_string())]),
            http: (i != 4).then(|| Http {
                method: "GET".into(),
                status: 200,
                latency_ms: 1.5 * i as f64,
            }),
        })
        .collect();

    let path = std::env::temp_dir().join("parquet-serde-quickstart.parquet");
    let options = WriterOptions::default().compression(Compression::Zstd(3));
    parquet_serde::to_path_with(&path, &records, options)?;

    let back: Vec<LogRecord> = parquet_serde::from_path(&path)?;
    assert_eq!(back, records);

    let reader = parquet_serde::core::file::FileReader::new(std::fs::File::open(&path)?)?;
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
