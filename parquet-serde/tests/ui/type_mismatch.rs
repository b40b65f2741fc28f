#[derive(parquet_serde::ParquetSchema)]
struct Row {
    #[parquet(timestamp = "micros")]
    ts: String,
    #[parquet(time = "micros")]
    t: i32,
    #[parquet(bytes)]
    wide: Vec<u16>,
    #[parquet(decimal(precision = 40))]
    unscaled: i128,
    #[parquet(bson)]
    doc: String,
}

fn main() {}
