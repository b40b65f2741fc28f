//! `check`: decode everything, verify every checksum, and check that the values of annotated
//! byte columns are what their annotation says (UTF-8, JSON text, BSON documents).

use std::io::Write;

use parquet_serde::core::file::FileReader;
use parquet_serde::core::values::ColumnValues;
use parquet_serde::record::Value;
use parquet_serde::{Error, Reader};

/// Reads every row of `reader` (every column decoded, its checksums verified unless turned
/// off, every column chunk's row count checked against its row group's), checks every value
/// of the STRING, ENUM, JSON and BSON columns, and prints a summary. The first value that
/// fails fails the command, naming its column, row group and row.
pub fn check(reader: FileReader<std::fs::File>, out: &mut impl Write) -> Result<(), Error> {
    let (row_groups, columns) = (reader.num_row_groups(), reader.schema().num_columns());
    let declared = reader.metadata().num_rows();
    // Level entries of every column chunk, as the footer counts them (the row counts and
    // the level entries of each decoded chunk are checked while the rows are read).
    let values: i64 = reader
        .metadata()
        .row_groups()
        .flat_map(|g| g.columns())
        .filter(|c| c.has_metadata())
        .map(|c| c.num_values().max(0))
        .fold(0i64, i64::saturating_add);
    for g in 0..row_groups {
        for c in 0..columns {
            check_values(&reader, g, c)?;
        }
    }
    for row in Reader::<_, Value>::from_file_reader(reader)? {
        row?;
    }
    writeln!(
        out,
        "ok: {row_groups} row groups, {columns} columns, {declared} rows, {values} values"
    )?;
    Ok(())
}

/// Checks the values of column `c` in row group `g` against the column's annotation.
fn check_values(reader: &FileReader<std::fs::File>, g: usize, c: usize) -> Result<(), Error> {
    let schema = reader.schema();
    let Some(node) = schema.column_node(c).filter(|n| n.checks_bytes()) else {
        return Ok(());
    };
    let descr = &schema.columns()[c];
    let batch = reader.read_column(g, c)?;
    let ColumnValues::ByteArray(values) = &batch.values else {
        return Ok(());
    };
    let Some((i, why)) = values
        .iter()
        .enumerate()
        .find_map(|(i, v)| node.check_bytes(v).err().map(|why| (i, why)))
    else {
        return Ok(());
    };
    // The row of value `i`: an entry with repetition level 0 (every entry, when the column
    // has no repetition levels) starts a row; values are the entries at the maximum
    // definition level (every entry, when it has no definition levels).
    let (def, rep) = (&batch.def_levels, &batch.rep_levels);
    let entries = def.len().max(rep.len());
    let (mut row, mut seen) = (i as u64, 0usize);
    if entries > 0 {
        row = 0;
        for k in 0..entries {
            if k > 0 && rep.get(k).is_none_or(|&r| r == 0) {
                row += 1;
            }
            if def.get(k).is_none_or(|&d| d == descr.max_def_level) {
                if seen == i {
                    break;
                }
                seen += 1;
            }
        }
    }
    let row = row
        + reader
            .metadata()
            .row_groups()
            .take(g)
            .map(|rg| rg.num_rows())
            .sum::<u64>();
    Err(
        Error::data(format!("{} (row {row} of the file)", why.message()))
            .with_column(descr.path.parts().join("."))
            .with_row_group(g),
    )
}
