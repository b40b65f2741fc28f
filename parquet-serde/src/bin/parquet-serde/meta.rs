//! `meta`: row groups, columns, encodings, sizes, statistics.

use std::io::Write;

use parquet_serde::file::FileReader;
use parquet_serde::format::{LogicalType, Statistics, Type};
use parquet_serde::schema::ColumnDescriptor;
use parquet_serde::Error;

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
            let Some(m) = &chunk.meta_data else {
                writeln!(out, "  {}: (metadata not in plaintext)", descr.path)?;
                continue;
            };
            writeln!(
                out,
                "  {}: {:?} {:?} values={} encodings={:?} compressed={} uncompressed={} data_page_offset={}{}",
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
                writeln!(out, "    statistics: {}", stats_text(s, descr))?;
            }
        }
    }
    Ok(())
}

fn stats_text(s: &Statistics, d: &ColumnDescriptor) -> String {
    let mut parts = Vec::new();
    if let Some(n) = s.null_count {
        parts.push(format!("nulls={n}"));
    }
    if let Some(n) = s.distinct_count {
        parts.push(format!("distinct={n}"));
    }
    let (min, max) = match (&s.min_value, &s.max_value) {
        (Some(a), Some(b)) => (Some(a), Some(b)),
        _ => (s.min.as_ref(), s.max.as_ref()),
    };
    if let (Some(lo), Some(hi)) = (min, max) {
        parts.push(format!(
            "min={} max={}",
            stat_value(lo, d),
            stat_value(hi, d)
        ));
    }
    if let Some(n) = s.nan_count {
        parts.push(format!("nans={n}"));
    }
    parts.join(" ")
}

fn stat_value(b: &[u8], d: &ColumnDescriptor) -> String {
    let unsigned = matches!(
        d.logical_type,
        Some(LogicalType::Integer {
            is_signed: false,
            ..
        })
    );
    match (d.physical_type, b.len()) {
        (Type::Boolean, 1) => (b[0] != 0).to_string(),
        (Type::Int32, 4) => {
            let v = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if unsigned {
                (v as u32).to_string()
            } else {
                v.to_string()
            }
        }
        (Type::Int64, 8) => {
            let v = i64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
            if unsigned {
                (v as u64).to_string()
            } else {
                v.to_string()
            }
        }
        (Type::Float, 4) => f32::from_le_bytes([b[0], b[1], b[2], b[3]]).to_string(),
        (Type::Double, 8) => f64::from_le_bytes(b.try_into().unwrap_or([0; 8])).to_string(),
        _ => match std::str::from_utf8(b) {
            Ok(s)
                if matches!(
                    d.logical_type,
                    Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
                ) || d.converted_type.is_some() && s.chars().all(|c| !c.is_control()) =>
            {
                format!("{s:?}")
            }
            _ => b.iter().map(|x| format!("{x:02x}")).collect::<String>(),
        },
    }
}
