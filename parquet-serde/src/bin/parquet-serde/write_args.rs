//! The writer options of the commands that make a new file (`from-jsonl`, `from-csv`).

use clap::Args;
use parquet_serde::{Compression, WriterOptions};

use crate::names::parse_compression;

/// `--compression`, `--row-group-rows`, `--threads`.
#[derive(Debug, Clone, Args)]
pub struct WriteArgs {
    /// Codec of every column: uncompressed, snappy, gzip, brotli, zstd or lz4_raw, with a
    /// level for gzip, brotli and zstd [default: snappy]
    #[arg(long, value_name = "CODEC[:LEVEL]", value_parser = parse_compression)]
    pub compression: Option<Compression>,
    /// Rows per row group at most [default: the library's, cut by size too]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub row_group_rows: Option<u64>,
    /// Threads encoding and compressing columns (1: all on the reading thread)
    /// [default: the machine's parallelism, at most 4]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
}

impl WriteArgs {
    /// The writer options the flags ask for.
    pub fn options(&self) -> WriterOptions {
        let mut options = WriterOptions::default();
        if let Some(c) = self.compression {
            options = options.compression(c);
        }
        if let Some(n) = self.row_group_rows {
            options = options.row_group_rows(usize::try_from(n).unwrap_or(usize::MAX));
        }
        if let Some(n) = self.threads {
            options = options.threads(n as usize);
        }
        options
    }
}
