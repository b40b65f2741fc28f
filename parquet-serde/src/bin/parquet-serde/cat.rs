//! `cat`: rows as JSON lines.

use std::io::Write;

use parquet_serde::core::file::FileReader;
use parquet_serde::record::{write_json, Value};
use parquet_serde::{Error, Reader};

use crate::read::CatArgs;

/// Writes the rows of `reader` (the columns `args` selects, at most its limit) as JSON
/// lines, read as `Value`s one row group at a time.
pub fn cat(
    reader: FileReader<std::fs::File>,
    args: &CatArgs,
    out: &mut impl Write,
) -> Result<(), Error> {
    let rows = Reader::<_, Value>::from_file_reader(reader)?.select_columns(&args.columns)?;
    let mut line = String::new();
    for row in rows.take(args.limit.unwrap_or(usize::MAX)) {
        line.clear();
        write_json(&row?, &mut line);
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}
