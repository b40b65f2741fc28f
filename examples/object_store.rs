//! Logs in object storage: rows written to a store with a multipart upload, read back
//! whole, read by a filter that fetches only the pages it needs (the bytes fetched are
//! printed), and streamed from async code. Runs against an in-memory store; for S3, build
//! the store with `object_store::aws::AmazonS3Builder` instead (shown below).
//!
//! `cargo run --example object_store --features object_store`

use std::sync::Arc;

use futures::StreamExt;
use object_store::memory::InMemory;
use object_store::ObjectStore;
use parquet_serde::filter::col;
use parquet_serde::store::{StoreReader, StoreWriter};
use parquet_serde::{ParquetSchema, WriterOptions};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, ParquetSchema)]
struct Event {
    ts: i64,
    level: String,
    message: String,
}

/// Only the field a query wants: only its column is fetched.
#[derive(Debug, Deserialize)]
struct Message {
    message: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // For S3:
    // let store = object_store::aws::AmazonS3Builder::from_env().with_bucket_name("logs").build()?;
    let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());

    // Write: one row group in memory, parts uploaded as they fill; the object appears at close.
    let options = WriterOptions::default()
        .row_group_rows(50_000)
        .page_row_limit(2_000);
    let mut writer = StoreWriter::new(store.clone(), "logs/day.parquet", options)?;
    for ts in 0..200_000 {
        let level = if ts % 1000 == 0 { "ERROR" } else { "INFO" };
        let message = format!("request {ts} done");
        writer.write(&Event {
            ts,
            level: level.into(),
            message,
        })?;
    }
    writer.close()?;

    // Read everything (blocking; fetches run on a runtime of the reader's own).
    let all: Vec<Event> = StoreReader::new(store.clone(), "logs/day.parquet").read()?;
    println!("{} events", all.len());

    // A time range: row groups and pages outside it are never fetched.
    let mut reader = StoreReader::new(store.clone(), "logs/day.parquet")
        .filter(col("ts").between(120_000, 121_999))?
        .open::<Message>()?;
    let messages = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
    let fetched = reader.get_ref().stats();
    println!(
        "{} messages (first: {:?}): {} bytes fetched in {} requests",
        messages.len(),
        messages.first().map(|m| &m.message),
        fetched.bytes,
        fetched.requests
    );

    // From async code: rows as a Stream, assembled off the executor.
    let rt = tokio::runtime::Runtime::new()?;
    let errors = rt.block_on(async {
        let mut rows = StoreReader::new(store, "logs/day.parquet")
            .filter(col("level").eq("ERROR"))?
            .stream::<Event>()
            .await?;
        let mut n = 0;
        while let Some(row) = rows.next().await {
            row?;
            n += 1;
        }
        Ok::<_, parquet_serde::Error>(n)
    })?;
    println!("{errors} errors");
    Ok(())
}
