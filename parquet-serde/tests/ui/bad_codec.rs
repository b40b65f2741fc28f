#[derive(parquet_serde::ParquetSchema)]
struct Row {
    #[parquet(compression = "zstd(99)")]
    a: String,
    #[parquet(encoding = "rle_dictionary")]
    b: String,
    #[parquet(compression = "snappy(1)", encoding = "plain", encoding = "plain")]
    c: String,
    #[parquet(encoding = "bit-packed")]
    d: String,
    #[parquet(encoding = "zip")]
    e: String,
    #[parquet(compression = "lz4:1")]
    f: String,
}

fn main() {}

#[derive(parquet_serde::ParquetSchema)]
struct Dup {
    #[parquet(encoding = "plain")]
    #[parquet(encoding = "plain")]
    c: String,
}
