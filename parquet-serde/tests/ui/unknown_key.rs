#[derive(parquet_serde::ParquetSchema)]
struct Row {
    #[parquet(timestmp = "micros")]
    ts: i64,
}

fn main() {}
