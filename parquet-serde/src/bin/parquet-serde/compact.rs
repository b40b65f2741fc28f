//! `compact DIR`: the small files of each partition folder of DIR merged into files near a
//! target size (`Dataset::compact`); prints the report.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use parquet_serde::dataset::{CompactOptions, Dataset};
use parquet_serde::Error;

/// The arguments of `compact`.
#[derive(Debug, Clone, Args)]
pub struct CompactArgs {
    /// The dataset folder (hive partition folders below it are compacted one by one)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The size an output aims at: bytes, or with a unit (KiB, MiB, GiB; KB, MB, GB)
    #[arg(long, value_name = "SIZE", default_value = "256MiB", value_parser = parse_size)]
    pub target_size: u64,
    /// The size a row group aims at (row groups of at least an eighth of it are copied
    /// verbatim, smaller ones merged); never more than the target size
    #[arg(long, value_name = "SIZE", default_value = "128MiB", value_parser = parse_size)]
    pub row_group_size: u64,
}

/// Runs `compact`, printing the report to `out`.
pub fn run(args: &CompactArgs, out: &mut dyn Write) -> Result<(), Error> {
    let options = CompactOptions::default()
        .target_size(args.target_size)
        .row_group_size(args.row_group_size);
    let report = Dataset::open(&args.dir)?.compact(&options)?;
    writeln!(out, "{report}")?;
    for path in &report.outputs {
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(())
}

/// `8MiB`, `512 KB`, `1048576`: a size in bytes (at least 1).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '_')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: u64 = number.replace('_', "").parse().map_err(|_| {
        format!("`{text}` is not a size (a number, then KiB, MiB, GiB, KB, MB, GB or B)")
    })?;
    let unit = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        other => {
            return Err(format!(
                "unknown size unit `{other}` (KiB, MiB, GiB, KB, MB, GB, B)"
            ))
        }
    };
    match number.checked_mul(unit) {
        Some(0) => Err("a size of 0".to_string()),
        Some(n) => Ok(n),
        None => Err(format!("`{text}` is too large")),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_parse_with_their_units() {
        assert_eq!(parse_size("8MiB"), Ok(8 << 20));
        assert_eq!(parse_size("8 mb"), Ok(8_000_000));
        assert_eq!(parse_size("1_024"), Ok(1024));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert!(parse_size("0").is_err());
        assert!(parse_size("8 parsecs").is_err());
        assert!(parse_size("MiB").is_err());
        assert!(parse_size("99999999999GiB").is_err());
    }
}
