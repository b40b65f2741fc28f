#[derive(serde::Serialize, parquet_serde::ParquetSchema)]
struct Row {
    #[parquet(geometry)]
    a: String,
}

fn main() {}
