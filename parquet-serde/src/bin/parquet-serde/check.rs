//! `check`: decode everything, verify every checksum.

use std::io::Write;

use parquet_serde::core::file::FileReader;
use parquet_serde::record::RowAssembler;
use parquet_serde::Error;

pub fn check(reader: &FileReader<std::fs::File>, out: &mut impl Write) -> Result<(), Error> {
    let schema = reader.schema();
    let mut values = 0u64;
    for rg in 0..reader.num_row_groups() {
        let selected: Vec<usize> = (0..schema.num_columns()).collect();
        let batches = selected
            .iter()
            .map(|&c| reader.read_column(rg, c))
            .collect::<Result<Vec<_>, _>>()?;
        values += batches.iter().map(|b| b.num_levels() as u64).sum::<u64>();
        let mut rows = RowAssembler::new(schema.root(), schema.columns(), &selected, batches)
            .map_err(|e| e.with_row_group(rg))?;
        let mut n = 0i64;
        while rows.next_row().map_err(|e| e.with_row_group(rg))?.is_some() {
            n += 1;
        }
        let declared = reader.metadata().file.row_groups[rg].num_rows;
        if !selected.is_empty() && n != declared {
            return Err(Error::corrupt(format!(
                "row group holds {n} rows, its metadata says {declared}"
            ))
            .with_row_group(rg));
        }
    }
    writeln!(
        out,
        "ok: {} row groups, {} columns, {} rows, {values} values",
        reader.num_row_groups(),
        schema.num_columns(),
        reader.metadata().num_rows()
    )?;
    Ok(())
}
