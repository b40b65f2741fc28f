#[derive(parquet_serde::ParquetSchema)]
struct Row {
    #[parquet(timestamp = "micros", utc = "yes")]
    ts: i64,
    #[parquet(field_id = "7")]
    id: u32,
}

fn main() {}
