use serde::Serialize;
use std::collections::HashMap;

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[serde(tag = "type")]
enum Tagged {
    A { x: u8 },
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct CustomWith {
    #[serde(serialize_with = "ser_u8")]
    a: u8,
}

fn ser_u8<S: serde::Serializer>(v: &u8, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u8(*v)
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct FlattenMap {
    id: u8,
    #[serde(flatten)]
    rest: HashMap<String, String>,
}

fn main() {}
