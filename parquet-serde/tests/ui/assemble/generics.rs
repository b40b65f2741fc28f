// `#[parquet(assemble)]` writes an owned `Deserialize`: no type parameters, no lifetimes.
use serde::Serialize;

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
struct Generic<T> {
    a: T,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
struct Borrowing<'a> {
    name: &'a str,
}

fn main() {}
