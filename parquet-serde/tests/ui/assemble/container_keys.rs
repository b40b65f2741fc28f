// Container keys of `#[serde(...)]` that `#[parquet(assemble)]` cannot mirror: each is an
// error at the key.
use serde::{Deserialize, Serialize};

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
#[serde(untagged)]
struct Untagged {
    a: u8,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
#[serde(transparent)]
struct Transparent {
    a: u8,
}

#[derive(Deserialize)]
struct Raw {
    a: u8,
}

impl From<Raw> for FromRaw {
    fn from(r: Raw) -> Self {
        FromRaw { a: r.a }
    }
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(assemble)]
#[serde(from = "Raw")]
struct FromRaw {
    a: u8,
}

fn main() {}
