//! `pages`: the page layout of every column chunk.

use std::io::Write;

use parquet_serde::core::column::Encoding;
use parquet_serde::core::file::FileReader;
use parquet_serde::Error;

use crate::names::codec_debug_name;

pub fn pages(reader: &FileReader<std::fs::File>, out: &mut impl Write) -> Result<(), Error> {
    let schema = reader.schema();
    for rg in 0..reader.num_row_groups() {
        for c in 0..schema.num_columns() {
            let chunk = reader.column_chunk(rg, c)?;
            writeln!(
                out,
                "row group {rg} column {} ({:?}):",
                schema.columns()[c].path,
                codec_debug_name(
                    &reader
                        .metadata()
                        .row_group(rg)
                        .and_then(|g| g.column(c))
                        .and_then(|m| m.codec_name())
                        .unwrap_or_default()
                )
            )?;
            let mut pages = chunk.pages(reader.options());
            let mut i = 0;
            while let Some(p) = pages.next_raw().map_err(|e| {
                e.with_row_group(rg)
                    .with_column(schema.columns()[c].path.to_string())
            })? {
                let values = p.num_values().unwrap_or(0);
                let encoding = p.encoding();
                let detail = if let Some((def, rep)) = p.level_encodings() {
                    format!(
                        "values={values} encoding={:?} def={def:?} rep={rep:?}",
                        encoding.unwrap_or(Encoding::Plain),
                    )
                } else if let (Some(nulls), Some(rows), Some((def_bytes, rep_bytes))) =
                    (p.num_nulls(), p.num_rows(), p.level_byte_lengths())
                {
                    format!(
                        "values={values} nulls={nulls} rows={rows} encoding={:?} def_bytes={def_bytes} rep_bytes={rep_bytes} compressed={}",
                        encoding.unwrap_or(Encoding::Plain),
                        p.values_compressed().unwrap_or(true)
                    )
                } else if let Some(e) = encoding {
                    format!("entries={values} encoding={e:?}")
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "  page {i}: {:?} offset={} header={} compressed={} uncompressed={} crc={} {detail}",
                    p.page_type(),
                    p.offset,
                    p.header_len,
                    p.compressed_size(),
                    p.uncompressed_size(),
                    p.crc().map_or("-".to_string(), |c| format!("{c:08x}")),
                )?;
                i += 1;
            }
        }
    }
    Ok(())
}
