//! `cat`: rows as JSON lines.

use std::io::Write;

use parquet_serde::file::FileReader;
use parquet_serde::record::{write_json, RowAssembler};
use parquet_serde::Error;

use crate::Args;

pub fn cat(
    reader: &FileReader<std::fs::File>,
    args: &Args,
    out: &mut impl Write,
) -> Result<(), Error> {
    let schema = reader.schema();
    let selected: Vec<usize> = (0..schema.num_columns())
        .filter(|&i| {
            let path = schema.columns()[i].path.to_string();
            args.columns.is_empty()
                || args
                    .columns
                    .iter()
                    .any(|c| path == *c || path.starts_with(&format!("{c}.")))
        })
        .collect();
    if selected.is_empty() && !args.columns.is_empty() {
        return Err(Error::invalid_argument(format!(
            "no column matches {}",
            args.columns.join(",")
        )));
    }
    let mut remaining = args.limit.unwrap_or(usize::MAX);
    let mut line = String::new();
    for rg in 0..reader.num_row_groups() {
        if remaining == 0 {
            break;
        }
        let batches = selected
            .iter()
            .map(|&c| reader.read_column(rg, c))
            .collect::<Result<Vec<_>, _>>()?;
        let mut rows = RowAssembler::new(schema.root(), schema.columns(), &selected, batches)
            .map_err(|e| e.with_row_group(rg))?;
        while remaining > 0 {
            let Some(row) = rows.next_row().map_err(|e| e.with_row_group(rg))? else {
                break;
            };
            line.clear();
            write_json(&row, &mut line);
            line.push('\n');
            out.write_all(line.as_bytes())?;
            remaining -= 1;
        }
    }
    Ok(())
}
