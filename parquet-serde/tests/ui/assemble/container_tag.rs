// `#[serde(tag)]` on a struct: ParquetSchema itself rejects it (serde writes an extra field),
// and `#[parquet(assemble)]` says it cannot mirror it either.
use serde::Serialize;

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
#[serde(tag = "kind")]
struct Tagged {
    a: u8,
}

fn main() {}
