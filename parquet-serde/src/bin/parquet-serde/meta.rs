//! `meta`: row groups, columns, encodings, sizes, statistics (their text: `meta_stats.rs`).

use std::io::Write;

use parquet_serde::core::file::FileReader;
use parquet_serde::Error;

use crate::meta_stats::{geo_stats_text, stats_text};
use crate::names::codec_debug_name;

pub fn meta(reader: &FileReader<std::fs::File>, out: &mut impl Write) -> Result<(), Error> {
    let md = reader.metadata();
    writeln!(out, "version: {}", md.version())?;
    writeln!(out, "created_by: {}", md.created_by().unwrap_or("-"))?;
    writeln!(out, "rows: {}", md.num_rows())?;
    writeln!(out, "row groups: {}", md.num_row_groups())?;
    writeln!(out, "columns: {}", md.schema().num_columns())?;
    if let Some(alg) = md.encryption_algorithm() {
        let footer = if md.has_encrypted_footer() {
            "encrypted footer"
        } else {
            "plaintext footer (signed)"
        };
        let alg = match alg {
            parquet_serde::core::encryption::Algorithm::AesGcmV1 => "AES_GCM_V1",
            parquet_serde::core::encryption::Algorithm::AesGcmCtrV1 => "AES_GCM_CTR_V1",
            _ => "an algorithm this tool does not name",
        };
        writeln!(out, "encryption: {alg}, {footer}")?;
    }
    for (key, value) in md.key_values() {
        let v = value.unwrap_or("");
        let v: String = if v.len() > 120 {
            format!(
                "{}... ({} bytes)",
                &v[..v.floor_char_boundary(120)],
                v.len()
            )
        } else {
            v.to_string()
        };
        writeln!(out, "key_value: {key} = {v}")?;
    }
    for rg in md.row_groups() {
        let i = rg.index();
        writeln!(
            out,
            "row group {i}: {} rows, {} bytes uncompressed, {} bytes compressed",
            rg.num_rows(),
            rg.total_byte_size(),
            rg.compressed_size()
                .map_or("-".to_string(), |s| s.to_string())
        )?;
        for chunk in rg.columns() {
            let c = chunk.column_index();
            let descr = chunk.descriptor();
            let encrypted = if !chunk.is_encrypted() {
                ""
            } else if chunk.is_encrypted_with_footer_key() {
                " (encrypted, footer key)"
            } else {
                " (encrypted, column key)"
            };
            if !md.is_column_readable(c) {
                writeln!(out, "  {}: encrypted, no key given", descr.path)?;
                continue;
            }
            if !chunk.has_metadata() {
                writeln!(out, "  {}: (metadata not in plaintext)", descr.path)?;
                continue;
            }
            writeln!(
                out,
                "  {}: {:?} {} values={} encodings={:?} compressed={} uncompressed={} data_page_offset={}{}{encrypted}",
                descr.path,
                chunk.physical_type(),
                codec_debug_name(&chunk.codec_name().unwrap_or_default()),
                chunk.num_values(),
                chunk.encodings(),
                chunk.compressed_size(),
                chunk.uncompressed_size(),
                chunk.data_page_offset(),
                chunk.dictionary_page_offset().map_or(String::new(), |d| format!(" dictionary_page_offset={d}")),
            )?;
            if let Some(s) = chunk.raw_statistics() {
                writeln!(
                    out,
                    "    statistics: {}",
                    stats_text(reader, i, c, s, descr)
                )?;
            }
            if chunk.has_geospatial_statistics() {
                writeln!(
                    out,
                    "    geospatial statistics: {}",
                    geo_stats_text(chunk.geospatial_bbox(), chunk.geospatial_types())
                )?;
            }
            if chunk.has_size_statistics() {
                let mut parts = Vec::new();
                if let Some(b) = chunk.unencoded_byte_array_data_bytes() {
                    parts.push(format!("unencoded_bytes={b}"));
                }
                if let Some(h) = chunk.definition_level_histogram() {
                    parts.push(format!("def_levels={h:?}"));
                }
                if let Some(h) = chunk.repetition_level_histogram() {
                    parts.push(format!("rep_levels={h:?}"));
                }
                writeln!(out, "    size statistics: {}", parts.join(" "))?;
            }
            writeln!(out, "    page index: {}", page_index_text(reader, i, c))?;
            if let Some(offset) = chunk.bloom_filter_offset() {
                let check = match reader.bloom_filter(i, c) {
                    Ok(Some(f)) => format!("{} bytes", f.num_bytes()),
                    Ok(None) => "-".to_string(),
                    Err(e) => format!("unreadable: {e}"),
                };
                writeln!(
                    out,
                    "    bloom filter: offset={offset} length={} bitset={check}",
                    chunk
                        .bloom_filter_length()
                        .map_or("-".to_string(), |l| l.to_string())
                )?;
            }
        }
        let keys = rg.sorting_columns();
        if !keys.is_empty() {
            let keys: Vec<String> = keys
                .iter()
                .map(|k| {
                    format!(
                        "{}{}{}",
                        k.column,
                        if k.descending { " desc" } else { "" },
                        if k.nulls_first { " nulls_first" } else { "" }
                    )
                })
                .collect();
            writeln!(out, "  sorted by: {}", keys.join(", "))?;
        }
    }
    Ok(())
}

fn page_index_text(reader: &FileReader<std::fs::File>, rg: usize, c: usize) -> String {
    match reader.page_index(rg, c) {
        Ok(None) => "none".to_string(),
        Ok(Some(pi)) => {
            let mut text = format!("{} pages", pi.pages.len());
            match pi.boundary_order {
                Some(o) => {
                    let nulls = pi
                        .pages
                        .iter()
                        .filter(|p| p.null_page == Some(true))
                        .count();
                    text.push_str(&format!(", column index ({o:?}"));
                    if nulls > 0 {
                        text.push_str(&format!(", {nulls} null pages"));
                    }
                    text.push(')');
                }
                None => text.push_str(", offset index only"),
            }
            text
        }
        Err(e) => format!("unreadable: {e}"),
    }
}
