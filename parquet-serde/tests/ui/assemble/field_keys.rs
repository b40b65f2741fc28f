// Field keys of `#[serde(...)]` that `#[parquet(assemble)]` cannot mirror.
use serde::Serialize;
use std::borrow::Cow;

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Inner {
    b: u8,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
struct Flattened {
    a: u8,
    #[serde(flatten)]
    inner: Inner,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
struct Borrowed {
    #[serde(borrow)]
    name: Cow<'static, str>,
}

fn main() {}
