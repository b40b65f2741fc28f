//! `check`: decode everything, verify every checksum.

use std::io::Write;

use parquet_serde::core::file::FileReader;
use parquet_serde::record::Value;
use parquet_serde::{Error, Reader};

/// Reads every row of `reader` (every column decoded, its checksums verified unless turned
/// off, every column chunk's row count checked against its row group's) and prints a
/// summary.
pub fn check(reader: FileReader<std::fs::File>, out: &mut impl Write) -> Result<(), Error> {
    let (row_groups, columns) = (reader.num_row_groups(), reader.schema().num_columns());
    let declared = reader.metadata().num_rows();
    // Level entries of every column chunk, as the footer counts them (the row counts and
    // the level entries of each decoded chunk are checked while the rows are read).
    let values: i64 = reader
        .metadata()
        .file
        .row_groups
        .iter()
        .flat_map(|g| &g.columns)
        .filter_map(|c| c.meta_data.as_ref())
        .map(|m| m.num_values.max(0))
        .fold(0i64, i64::saturating_add);
    for row in Reader::<_, Value>::from_file_reader(reader)? {
        row?;
    }
    writeln!(
        out,
        "ok: {row_groups} row groups, {columns} columns, {declared} rows, {values} values"
    )?;
    Ok(())
}
