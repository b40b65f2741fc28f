// `#[parquet(assemble)]` writes `Deserialize` for lifetimes only: no type parameters, and no
// `with` on a struct that borrows.
use serde::Serialize;

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
struct Generic<T> {
    a: T,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
struct WithOnBorrowing<'a> {
    #[serde(with = "serde_bytes")]
    blob: &'a [u8],
    name: &'a str,
}

fn main() {}
