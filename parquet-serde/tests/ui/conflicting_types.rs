#[derive(parquet_serde::ParquetSchema)]
struct Row {
    #[parquet(timestamp = "millis", date)]
    ts: i64,
    #[parquet(utc = true)]
    plain: i64,
}

fn main() {}
