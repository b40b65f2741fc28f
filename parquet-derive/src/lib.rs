//! `#[derive(ParquetSchema)]` for parquet-serde (filled in by the typed-records work).
