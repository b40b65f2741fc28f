//! A data file's metrics from its footer, keyed by field id, for the manifest's `data_file`:
//! `record_count`, `file_size_in_bytes`, `column_sizes`, `value_counts`,
//! `null_value_counts`, `nan_value_counts`, `lower_bounds`, `upper_bounds` (in the
//! single-value serialization of [`Literal`]) and `split_offsets`.
//!
//! As pyiceberg 0.12 (`data_file_statistics_from_parquet_metadata`) does: sizes and value
//! counts are summed over the row groups (`total_compressed_size`, `num_values`); a column
//! with a row group without statistics gets no null count and no bounds; leaves inside a
//! list or map (list elements, map keys and values, by their own ids) get counts, no bounds.
//!
//! Where this differs (never by claiming more than the footer says):
//! - fields nested in structs (not in lists or maps) keep their bounds, as Iceberg Java's
//!   `ParquetUtil.footerMetrics` does (pyiceberg keeps counts only);
//! - `nan_value_counts` comes from the footer's `nan_count` (this library writes it for
//!   FLOAT and DOUBLE), only when every row group has it (pyiceberg leaves it empty);
//! - FLOAT and DOUBLE columns get bounds only when the footer says they hold no NaN (files
//!   of writers without `nan_count`, pyarrow's, get none); a zero bound is widened to
//!   -0.0 (lower) or +0.0 (upper);
//! - strings and binaries are cut to 16 characters (bytes), Iceberg's default
//!   `truncate(16)`: the lower bound to its prefix, the upper bound to its prefix with the
//!   last character (byte) that can be incremented incremented, or left out when none can;
//!   a string bound that is not UTF-8 is left out;
//! - TIMESTAMP(MILLIS) bounds are converted to microseconds (exact).
//!
//! Columns Iceberg v2 cannot hold (see [`schema`](super::schema)) and columns without a
//! field id are errors naming the column: such a file cannot be committed.

use std::collections::BTreeMap;

use crate::core::column::{Scalar, SortOrder};
use crate::core::file::ParquetMetaData;
use crate::core::format::{LogicalType, TimeUnit, Type};
use crate::core::schema::ColumnDescriptor;
use crate::error::{Error, Result};

use super::literal::Literal;
use super::schema::{primitive_type, PrimitiveType};

/// Strings (in characters) and binaries (in bytes) longer than this have their bounds cut:
/// Iceberg's default metrics mode `truncate(16)`.
pub(crate) const TRUNCATE_LENGTH: usize = 16;

/// The metrics of one data file, keyed by field id.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct DataFileMetrics {
    /// Rows in the file.
    pub record_count: i64,
    /// The file's size in bytes (as given).
    pub file_size_in_bytes: i64,
    /// Stored (compressed) bytes of each leaf column.
    pub column_sizes: BTreeMap<i32, i64>,
    /// Values of each leaf column, nulls included (list elements count one each).
    pub value_counts: BTreeMap<i32, i64>,
    /// Nulls of each leaf column, where every row group has a null count.
    pub null_value_counts: BTreeMap<i32, i64>,
    /// NaNs of each FLOAT / DOUBLE column, where every row group has a NaN count.
    pub nan_value_counts: BTreeMap<i32, i64>,
    /// Lower bounds (single-value serialization), where known.
    pub lower_bounds: BTreeMap<i32, Vec<u8>>,
    /// Upper bounds (single-value serialization), where known.
    pub upper_bounds: BTreeMap<i32, Vec<u8>>,
    /// Where each row group starts (its first column's dictionary or data page), sorted.
    pub split_offsets: Vec<i64>,
}

/// The metrics of a data file of `file_size` bytes whose footer is `md`.
pub(crate) fn data_file_metrics(md: &ParquetMetaData, file_size: u64) -> Result<DataFileMetrics> {
    let mut out = DataFileMetrics {
        record_count: to_i64(md.num_rows()),
        file_size_in_bytes: to_i64(file_size),
        ..DataFileMetrics::default()
    };
    for rg in md.row_groups() {
        if let Some(first) = rg.column(0) {
            let offset = match first.dictionary_page_offset() {
                Some(d) if d > 0 && d < first.data_page_offset() => d,
                _ => first.data_page_offset(),
            };
            out.split_offsets.push(offset);
        }
    }
    out.split_offsets.sort_unstable();
    let schema = md.schema();
    for (i, descr) in schema.columns().iter().enumerate() {
        let path = descr.path.to_string();
        let node = schema
            .column_node(i)
            .ok_or_else(|| Error::corrupt(format!("column `{path}` has no schema node")))?;
        let ty = primitive_type(node, &path)?;
        let id = descr.field_id.ok_or_else(|| {
            Error::schema(format!(
                "column `{path}` has no field id, which an Iceberg table needs"
            ))
        })?;
        let mut size = 0i64;
        let mut values = 0i64;
        for rg in md.row_groups() {
            if let Some(chunk) = rg.column(i) {
                size = size.saturating_add(chunk.compressed_size().max(0));
                values = values.saturating_add(chunk.num_values().max(0));
            }
        }
        out.column_sizes.insert(id, size);
        out.value_counts.insert(id, values);
        let Some(agg) = aggregate(md, i, descr) else {
            continue;
        };
        if let Some(n) = agg.nulls {
            out.null_value_counts.insert(id, to_i64(n));
        }
        if let Some(n) = agg.nans {
            out.nan_value_counts.insert(id, to_i64(n));
        }
        if descr.max_rep_level > 0 {
            continue;
        }
        if let Some(b) = agg
            .min
            .as_ref()
            .and_then(|s| bound(descr, ty, s, Side::Lower))
        {
            out.lower_bounds.insert(id, b);
        }
        if let Some(b) = agg
            .max
            .as_ref()
            .and_then(|s| bound(descr, ty, s, Side::Upper))
        {
            out.upper_bounds.insert(id, b);
        }
    }
    Ok(out)
}

fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// A column's statistics over the file's row groups.
pub(crate) struct Aggregate {
    /// The least minimum (`None`: no usable bound).
    pub min: Option<Scalar>,
    /// The greatest maximum (`None`: no usable bound).
    pub max: Option<Scalar>,
    /// The sum of the null counts, when every row group has one.
    pub nulls: Option<u64>,
    /// The sum of the NaN counts (FLOAT and DOUBLE), when every row group has one.
    pub nans: Option<u64>,
}

/// Column `i`'s statistics over the row groups: `None` when a row group has no
/// statistics. The bounds are left out when a row group with values has none, when the
/// column's order is undefined, and for FLOAT / DOUBLE columns not known to be free of NaN.
pub(crate) fn aggregate(
    md: &ParquetMetaData,
    i: usize,
    descr: &ColumnDescriptor,
) -> Option<Aggregate> {
    let floating = matches!(descr.physical_type, Type::Float | Type::Double);
    let mut agg = Aggregate {
        min: None,
        max: None,
        nulls: Some(0),
        nans: floating.then_some(0),
    };
    let mut bounds_ok = SortOrder::for_column(descr).is_defined()
        && descr.physical_type != Type::Int96
        && !matches!(descr.effective_logical_type(), Some(LogicalType::Float16));
    for rg in md.row_groups() {
        let stats = rg.column(i)?.statistics()?;
        agg.nulls = match (agg.nulls, stats.null_count) {
            (Some(a), Some(b)) => a.checked_add(b),
            _ => None,
        };
        // A row group of nulls only (of a column outside lists) has no NaN, whatever its
        // statistics say (writers leave `nan_count` out with no value to count).
        let all_null = descr.max_rep_level == 0
            && stats.null_count == Some(rg.num_rows())
            && rg.num_rows() > 0;
        if floating {
            let nans = if all_null { Some(0) } else { stats.nan_count };
            agg.nans = match (agg.nans, nans) {
                (Some(a), Some(b)) => a.checked_add(b),
                _ => None,
            };
        }
        if all_null {
            continue; // no values: no bound needed from this row group
        }
        match (stats.min, stats.max) {
            (Some(lo), Some(hi)) => {
                if agg.min.as_ref().is_none_or(|m| lo < *m) {
                    agg.min = Some(lo);
                }
                if agg.max.as_ref().is_none_or(|m| hi > *m) {
                    agg.max = Some(hi);
                }
            }
            _ => bounds_ok = false,
        }
    }
    if floating && agg.nans != Some(0) {
        bounds_ok = false;
    }
    if !bounds_ok {
        agg.min = None;
        agg.max = None;
    }
    Some(agg)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Side {
    Lower,
    Upper,
}

/// A bound of a column of Iceberg type `ty` in the single-value serialization, rounded
/// outward; `None` to leave it out.
fn bound(
    descr: &ColumnDescriptor,
    ty: PrimitiveType,
    value: &Scalar,
    side: Side,
) -> Option<Vec<u8>> {
    let lit = match ty {
        PrimitiveType::Boolean => Literal::Boolean(value.as_bool()?),
        PrimitiveType::Int => Literal::Int(i32::try_from(int(value)?).ok()?),
        PrimitiveType::Date => Literal::Date(i32::try_from(int(value)?).ok()?),
        PrimitiveType::Long => Literal::Long(i64::try_from(int(value)?).ok()?),
        PrimitiveType::Time => Literal::Time(i64::try_from(int(value)?).ok()?),
        PrimitiveType::Timestamp | PrimitiveType::Timestamptz => {
            let v = i64::try_from(int(value)?).ok()?;
            let micros = match descr.effective_logical_type() {
                Some(LogicalType::Timestamp {
                    unit: TimeUnit::Millis,
                    ..
                }) => v.checked_mul(1000)?,
                Some(LogicalType::Timestamp {
                    unit: TimeUnit::Micros,
                    ..
                }) => v,
                _ => return None,
            };
            if ty == PrimitiveType::Timestamp {
                Literal::Timestamp(micros)
            } else {
                Literal::Timestamptz(micros)
            }
        }
        PrimitiveType::Float | PrimitiveType::Double => {
            let f = match value {
                Scalar::Float(f) => *f,
                _ => return None,
            };
            if f.is_nan() {
                return None;
            }
            let f = match (f == 0.0, side) {
                (true, Side::Lower) => -0.0,
                (true, Side::Upper) => 0.0,
                _ => f,
            };
            if ty == PrimitiveType::Float {
                // A FLOAT statistic widened to f64 narrows back exactly.
                Literal::Float(f as f32)
            } else {
                Literal::Double(f)
            }
        }
        PrimitiveType::Decimal { .. } => Literal::Decimal(int(value)?),
        PrimitiveType::String => {
            let text = std::str::from_utf8(value.as_bytes()?).ok()?;
            Literal::String(string_bound(text, side)?)
        }
        PrimitiveType::Binary => Literal::Binary(binary_bound(value.as_bytes()?, side)?),
        PrimitiveType::Uuid => Literal::Uuid(value.as_bytes()?.try_into().ok()?),
        PrimitiveType::Fixed(len) => {
            let b = value.as_bytes()?;
            if b.len() != len as usize {
                return None; // a shortened bound of a fixed column: not of the type
            }
            Literal::Fixed(b.to_vec())
        }
    };
    Some(lit.to_bytes())
}

fn int(value: &Scalar) -> Option<i128> {
    match value {
        Scalar::Int(v) => Some(*v),
        _ => None,
    }
}

/// A string bound cut to [`TRUNCATE_LENGTH`] characters, rounded outward.
pub(crate) fn string_bound(text: &str, side: Side) -> Option<String> {
    let Some((cut, _)) = text.char_indices().nth(TRUNCATE_LENGTH) else {
        return Some(text.to_string());
    };
    let mut prefix: Vec<char> = text[..cut].chars().collect();
    if side == Side::Lower {
        return Some(prefix.into_iter().collect());
    }
    // The least string above every string with this prefix: the last character that can
    // be incremented is, and what follows it is dropped.
    while let Some(last) = prefix.pop() {
        let next = (u32::from(last) + 1..=u32::from(char::MAX)).find_map(char::from_u32);
        if let Some(next) = next {
            prefix.push(next);
            return Some(prefix.into_iter().collect());
        }
    }
    None
}

/// A binary bound cut to [`TRUNCATE_LENGTH`] bytes, rounded outward.
pub(crate) fn binary_bound(bytes: &[u8], side: Side) -> Option<Vec<u8>> {
    if bytes.len() <= TRUNCATE_LENGTH {
        return Some(bytes.to_vec());
    }
    let mut prefix = bytes[..TRUNCATE_LENGTH].to_vec();
    if side == Side::Lower {
        return Some(prefix);
    }
    while let Some(last) = prefix.pop() {
        if last < 0xFF {
            prefix.push(last + 1);
            return Some(prefix);
        }
    }
    None
}

#[cfg(test)]
mod tests;
