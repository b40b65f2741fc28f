#[derive(parquet_serde::ParquetSchema)]
union Bits {
    i: u32,
    f: f32,
}

fn main() {}
