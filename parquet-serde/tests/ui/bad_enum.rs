use serde::Serialize;

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(enum)]
struct NotAnEnum {
    a: i64,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(enum)]
enum WithData {
    A,
    B(u8),
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(enum = true)]
enum WithValue {
    A,
}

#[derive(Serialize, parquet_serde::ParquetSchema)]
#[parquet(enum, enum)]
enum Twice {
    A,
}

fn main() {}
