// `#[parquet(assemble)]` goes on a struct with named fields only.
use serde::Serialize;

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
enum Shape {
    Circle { r: f64 },
    Square { side: f64 },
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
struct Pair(u8, u8);

fn main() {}
