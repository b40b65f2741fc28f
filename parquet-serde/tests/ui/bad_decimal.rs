#[derive(parquet_serde::ParquetSchema)]
struct Row {
    #[parquet(decimal(precision = 1001))]
    a: i128,
    #[parquet(decimal(precision = 5, scale = 6))]
    b: i64,
    #[parquet(decimal(scale = 2))]
    c: i64,
}

fn main() {}
