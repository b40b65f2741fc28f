#[derive(parquet_serde::ParquetSchema)]
struct Row {
    #[parquet(timestamp = "seconds")]
    ts: i64,
    #[parquet(time = "hours")]
    t: i64,
}

fn main() {}
