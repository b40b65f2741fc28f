use serde::Serialize;

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(timestamp = "micros")]
struct Row {
    a: i64,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
enum E {
    #[parquet(name = "x")]
    A(u8),
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Dup {
    a: u8,
    #[parquet(name = "a")]
    b: u8,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
struct Empty {
    #[serde(skip)]
    a: u8,
}

fn main() {}

#[derive(Serialize, parquet_serde::ParquetSchema)]
enum NamedNewtype {
    A(#[parquet(name = "x")] u8),
}
