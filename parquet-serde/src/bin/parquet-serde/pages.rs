//! `pages`: the page layout of every column chunk.

use std::io::Write;

use parquet_serde::core::file::FileReader;
use parquet_serde::Error;

pub fn pages(reader: &FileReader<std::fs::File>, out: &mut impl Write) -> Result<(), Error> {
    let schema = reader.schema();
    for rg in 0..reader.num_row_groups() {
        for c in 0..schema.num_columns() {
            let chunk = reader.column_chunk(rg, c)?;
            writeln!(
                out,
                "row group {rg} column {} ({:?}):",
                schema.columns()[c].path,
                chunk.codec
            )?;
            let mut pages = chunk.pages(reader.options().page_options());
            let mut i = 0;
            while let Some(p) = pages.next_raw().map_err(|e| {
                e.with_row_group(rg)
                    .with_column(schema.columns()[c].path.to_string())
            })? {
                let h = &p.header;
                let detail = if let Some(d) = &h.data_page_header {
                    format!(
                        "values={} encoding={:?} def={:?} rep={:?}",
                        d.num_values,
                        d.encoding,
                        d.definition_level_encoding,
                        d.repetition_level_encoding
                    )
                } else if let Some(d) = &h.data_page_header_v2 {
                    format!(
                        "values={} nulls={} rows={} encoding={:?} def_bytes={} rep_bytes={} compressed={}",
                        d.num_values,
                        d.num_nulls,
                        d.num_rows,
                        d.encoding,
                        d.definition_levels_byte_length,
                        d.repetition_levels_byte_length,
                        d.is_compressed.unwrap_or(true)
                    )
                } else if let Some(d) = &h.dictionary_page_header {
                    format!("entries={} encoding={:?}", d.num_values, d.encoding)
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "  page {i}: {:?} offset={} header={} compressed={} uncompressed={} crc={} {detail}",
                    h.r#type,
                    p.offset,
                    p.header_len,
                    h.compressed_page_size,
                    h.uncompressed_page_size,
                    h.crc.map_or("-".to_string(), |c| format!("{:08x}", c as u32)),
                )?;
                i += 1;
            }
        }
    }
    Ok(())
}
