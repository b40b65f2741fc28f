//! `cat`: rows as JSON lines.

use std::io::Write;

use parquet_serde::core::file::FileReader;
use parquet_serde::record::{select_columns, write_json, RowAssembler};
use parquet_serde::Error;

use crate::read::CatArgs;

pub fn cat(
    reader: &FileReader<std::fs::File>,
    args: &CatArgs,
    out: &mut impl Write,
) -> Result<(), Error> {
    let selected = select_columns(reader.schema(), &args.columns)?;
    let mut remaining = args.limit.unwrap_or(usize::MAX);
    let mut line = String::new();
    for rg in 0..reader.num_row_groups() {
        if remaining == 0 {
            break;
        }
        let mut rows = RowAssembler::for_row_group(reader, rg, &selected)?;
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
