#[derive(parquet_serde::ParquetSchema)]
struct Row {
    #[parquet(bloom_filter(fpp = 1.5))]
    a: String,
    #[parquet(bloom_filter(ndv = 0))]
    b: String,
    #[parquet(bloom_filter(size = 10))]
    c: String,
    #[parquet(bloom_filter = true)]
    d: String,
    #[parquet(bloom_filter(fpp = "0.1"))]
    e: String,
}

fn main() {}
