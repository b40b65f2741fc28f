//! `meta`: row groups, columns, encodings, sizes, statistics (their text: `meta_stats.rs`).

use std::io::Write;

use parquet_serde::core::file::FileReader;
use parquet_serde::core::format::ColumnCryptoMetaData;
use parquet_serde::Error;

use crate::meta_stats::{geo_stats_text, stats_text};

pub fn meta(reader: &FileReader<std::fs::File>, out: &mut impl Write) -> Result<(), Error> {
    let md = reader.metadata();
    let f = &md.file;
    writeln!(out, "version: {}", f.version)?;
    writeln!(
        out,
        "created_by: {}",
        f.created_by.as_deref().unwrap_or("-")
    )?;
    writeln!(out, "rows: {}", f.num_rows)?;
    writeln!(out, "row groups: {}", f.row_groups.len())?;
    writeln!(out, "columns: {}", md.schema.num_columns())?;
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
    if let Some(kv) = &f.key_value_metadata {
        for e in kv {
            let v = e.value.as_deref().unwrap_or("");
            let v: String = if v.len() > 120 {
                format!(
                    "{}... ({} bytes)",
                    &v[..v.floor_char_boundary(120)],
                    v.len()
                )
            } else {
                v.to_string()
            };
            writeln!(out, "key_value: {} = {v}", e.key)?;
        }
    }
    for (i, rg) in f.row_groups.iter().enumerate() {
        writeln!(
            out,
            "row group {i}: {} rows, {} bytes uncompressed, {} bytes compressed",
            rg.num_rows,
            rg.total_byte_size,
            rg.total_compressed_size
                .map_or("-".to_string(), |s| s.to_string())
        )?;
        for (c, chunk) in rg.columns.iter().enumerate() {
            let descr = &md.schema.columns()[c];
            let encrypted = match &chunk.crypto_metadata {
                None => "",
                Some(ColumnCryptoMetaData::EncryptionWithFooterKey) => " (encrypted, footer key)",
                Some(_) => " (encrypted, column key)",
            };
            if !md.is_column_readable(c) {
                writeln!(out, "  {}: encrypted, no key given", descr.path)?;
                continue;
            }
            let Some(m) = &chunk.meta_data else {
                writeln!(out, "  {}: (metadata not in plaintext)", descr.path)?;
                continue;
            };
            writeln!(
                out,
                "  {}: {:?} {:?} values={} encodings={:?} compressed={} uncompressed={} data_page_offset={}{}{encrypted}",
                descr.path,
                m.r#type,
                m.codec,
                m.num_values,
                m.encodings,
                m.total_compressed_size,
                m.total_uncompressed_size,
                m.data_page_offset,
                m.dictionary_page_offset.map_or(String::new(), |d| format!(" dictionary_page_offset={d}")),
            )?;
            if let Some(s) = &m.statistics {
                writeln!(
                    out,
                    "    statistics: {}",
                    stats_text(reader, i, c, s, descr)
                )?;
            }
            if let Some(g) = &m.geospatial_statistics {
                writeln!(out, "    geospatial statistics: {}", geo_stats_text(g))?;
            }
            if let Some(ss) = &m.size_statistics {
                let mut parts = Vec::new();
                if let Some(b) = ss.unencoded_byte_array_data_bytes {
                    parts.push(format!("unencoded_bytes={b}"));
                }
                if let Some(h) = &ss.definition_level_histogram {
                    parts.push(format!("def_levels={h:?}"));
                }
                if let Some(h) = &ss.repetition_level_histogram {
                    parts.push(format!("rep_levels={h:?}"));
                }
                writeln!(out, "    size statistics: {}", parts.join(" "))?;
            }
            writeln!(out, "    page index: {}", page_index_text(reader, i, c))?;
            if let Some(offset) = m.bloom_filter_offset {
                let check = match reader.bloom_filter(i, c) {
                    Ok(Some(f)) => format!("{} bytes", f.num_bytes()),
                    Ok(None) => "-".to_string(),
                    Err(e) => format!("unreadable: {e}"),
                };
                writeln!(
                    out,
                    "    bloom filter: offset={offset} length={} bitset={check}",
                    m.bloom_filter_length
                        .map_or("-".to_string(), |l| l.to_string())
                )?;
            }
        }
        if let Some(keys) = &rg.sorting_columns {
            let keys: Vec<String> = keys
                .iter()
                .map(|k| {
                    let name = usize::try_from(k.column_idx)
                        .ok()
                        .and_then(|i| md.schema.columns().get(i))
                        .map_or(format!("#{}", k.column_idx), |d| d.path.to_string());
                    format!(
                        "{name}{}{}",
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
