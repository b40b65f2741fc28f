//! Partition specs (identity on a column, `day(ts)`, `hour(ts)`) and a data file's
//! partition tuple.
//!
//! JSON form (the table metadata's `partition-specs`, as pyiceberg reads it):
//! `{"spec-id": 0, "fields": [{"source-id": 1, "field-id": 1000, "name": "ts_hour",
//! "transform": "hour"}]}`; partition field ids count from 1000, names are the source
//! column's (identity) or `<column>_day` / `<column>_hour`, as pyiceberg names them.
//!
//! A file's tuple: an identity value is read from the Hive folder `<column>=<value>` of the
//! file's path, typed by the source column (`string`, `int`, `long`, `date`; the folder
//! `__HIVE_DEFAULT_PARTITION__` is null); `day` / `hour` come from the footer's minimum and
//! maximum of the time column, which must fall in the same day / hour (else the file cannot
//! be committed to that spec: an error naming it). Values have Iceberg's partition types:
//! `day` is a `date` (days since 1970-01-01, an Avro `int` with logical type `date`, the
//! result type Iceberg Java and pyiceberg give it), `hour` an `int` (hours since the epoch).
//!
//! Pruning with a transform ([`Transform::apply`]): a predicate on the source column
//! projects to one on the partition value with the transform applied to the literal, and
//! strict comparisons relaxed: `ts >= x` and `ts > x` to `hour(ts) >= hour(x)`, `ts <= x`
//! and `ts < x` to `hour(ts) <= hour(x)`, `ts = x` to `hour(ts) = hour(x)` (the
//! transforms are monotonic, so a file whose partition fails the projection holds no
//! matching row).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::core::file::ParquetMetaData;
use crate::core::format::{LogicalType, TimeUnit};
use crate::core::values::text::days_from_civil;
use crate::error::{Error, Result};

use super::literal::Literal;
use super::metrics::aggregate;
use super::schema::{IcebergSchema, IcebergType, PrimitiveType};

/// The first partition field id (Iceberg's `PARTITION_DATA_ID_START`).
pub(crate) const FIRST_PARTITION_FIELD_ID: i32 = 1000;

const MICROS_PER_HOUR: i64 = 3_600_000_000;
const MICROS_PER_DAY: i64 = 24 * MICROS_PER_HOUR;

/// A partition transform.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub(crate) enum Transform {
    /// `identity`: the source value.
    Identity,
    /// `day`: days since 1970-01-01 of a date or timestamp.
    Day,
    /// `hour`: hours since 1970-01-01 00:00 of a timestamp.
    Hour,
    /// Any other transform a table may have (`bucket[16]`, `truncate[4]`, `month`, ...),
    /// kept as written: readers do not prune by it, this library does not write it.
    Other(String),
}

impl fmt::Display for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Transform::Identity => "identity",
            Transform::Day => "day",
            Transform::Hour => "hour",
            Transform::Other(s) => s,
        })
    }
}

impl From<Transform> for String {
    fn from(t: Transform) -> String {
        t.to_string()
    }
}

impl TryFrom<String> for Transform {
    type Error = Error;
    fn try_from(s: String) -> Result<Transform> {
        Ok(match s.as_str() {
            "identity" => Transform::Identity,
            "day" => Transform::Day,
            "hour" => Transform::Hour,
            _ => Transform::Other(s),
        })
    }
}

impl Transform {
    /// The partition value's type for a source column of type `source`; an error for a
    /// transform that does not apply to it (or one this library does not evaluate).
    pub(crate) fn result_type(&self, source: PrimitiveType) -> Result<PrimitiveType> {
        use PrimitiveType as P;
        match (self, source) {
            (Transform::Identity, s) => Ok(s),
            (Transform::Day, P::Date | P::Timestamp | P::Timestamptz) => Ok(P::Date),
            (Transform::Hour, P::Timestamp | P::Timestamptz) => Ok(P::Int),
            _ => Err(Error::unsupported(format!(
                "partition transform `{self}` of a `{source}` column"
            ))),
        }
    }

    /// The transform of a value of the source column: `day` of a timestamp is a `Date`,
    /// `hour` an `Int`; `None` when it does not apply (or is out of range).
    pub(crate) fn apply(&self, value: &Literal) -> Option<Literal> {
        match (self, value) {
            (Transform::Identity, v) => Some(v.clone()),
            (Transform::Day, Literal::Date(d)) => Some(Literal::Date(*d)),
            (Transform::Day, Literal::Timestamp(us) | Literal::Timestamptz(us)) => {
                i32::try_from(us.div_euclid(MICROS_PER_DAY))
                    .ok()
                    .map(Literal::Date)
            }
            (Transform::Hour, Literal::Timestamp(us) | Literal::Timestamptz(us)) => {
                i32::try_from(us.div_euclid(MICROS_PER_HOUR))
                    .ok()
                    .map(Literal::Int)
            }
            _ => None,
        }
    }
}

/// A field of a partition spec.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct PartitionField {
    /// The source column's field id.
    pub source_id: i32,
    /// The partition field's id (from 1000).
    pub field_id: i32,
    /// The partition field's name.
    pub name: String,
    /// The transform.
    pub transform: Transform,
}

/// A partition spec.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct PartitionSpec {
    /// The spec's id.
    pub spec_id: i32,
    /// The partition fields, in order.
    pub fields: Vec<PartitionField>,
}

impl PartitionSpec {
    /// The spec of an unpartitioned table (id 0, no field).
    pub(crate) fn unpartitioned() -> PartitionSpec {
        PartitionSpec {
            spec_id: 0,
            fields: Vec::new(),
        }
    }

    /// A spec with id `spec_id` over `schema`'s top-level columns: `(column name,
    /// transform)` pairs, partition field ids from `first_field_id` (1000 for a new
    /// table; a table's `last-partition-id` + 1 for a new spec). Errors name a missing
    /// column or a transform that does not apply to its type.
    pub(crate) fn build(
        schema: &IcebergSchema,
        spec_id: i32,
        first_field_id: i32,
        parts: &[(&str, Transform)],
    ) -> Result<PartitionSpec> {
        let mut fields = Vec::with_capacity(parts.len());
        for (i, (column, transform)) in parts.iter().enumerate() {
            let source = schema
                .fields
                .iter()
                .find(|f| f.name == *column)
                .ok_or_else(|| {
                    Error::invalid_argument(format!(
                        "partition column `{column}` is not a top-level column of the schema"
                    ))
                })?;
            let ty = source.field_type.as_primitive().ok_or_else(|| {
                Error::invalid_argument(format!("partition column `{column}` is not primitive"))
            })?;
            transform
                .result_type(ty)
                .map_err(|e| e.context(format!("partition column `{column}`")))?;
            let name = match transform {
                Transform::Identity => column.to_string(),
                other => format!("{column}_{other}"),
            };
            let field_id = i32::try_from(i)
                .ok()
                .and_then(|i| first_field_id.checked_add(i))
                .ok_or_else(|| Error::invalid_argument("partition field ids overflow"))?;
            fields.push(PartitionField {
                source_id: source.id,
                field_id,
                name,
                transform: transform.clone(),
            });
        }
        Ok(PartitionSpec { spec_id, fields })
    }

    /// The partition tuple's types: each field with its result type.
    pub(crate) fn partition_type(
        &self,
        schema: &IcebergSchema,
    ) -> Result<Vec<(&PartitionField, PrimitiveType)>> {
        let types = schema.primitive_types_by_id();
        self.fields
            .iter()
            .map(|f| {
                let source = types.get(&f.source_id).copied().ok_or_else(|| {
                    Error::corrupt(format!(
                        "partition field `{}`: source column {} is not a primitive column of the schema",
                        f.name, f.source_id
                    ))
                })?;
                Ok((f, f.transform.result_type(source)?))
            })
            .collect()
    }

    /// The partition tuple of the data file at `path` (relative to the table's location or
    /// absolute: its folders are searched for `<column>=<value>`) whose footer is `md`:
    /// one value per field, `None` for null. Errors name the file.
    pub(crate) fn partition_values(
        &self,
        schema: &IcebergSchema,
        path: &str,
        md: &ParquetMetaData,
    ) -> Result<Vec<Option<Literal>>> {
        let types = self.partition_type(schema)?;
        let mut out = Vec::with_capacity(types.len());
        for (field, result) in types {
            let value = match field.transform {
                Transform::Identity => {
                    let column = schema
                        .fields
                        .iter()
                        .find(|f| f.id == field.source_id)
                        .map(|f| f.name.as_str())
                        .ok_or_else(|| {
                            Error::corrupt(format!(
                                "partition field `{}`: source column {} is not a top-level column",
                                field.name, field.source_id
                            ))
                        })?;
                    let text = hive_value(path, column).ok_or_else(|| {
                        Error::invalid_argument(format!(
                            "data file `{path}`: no folder `{column}=...` for the identity partition `{}`",
                            field.name
                        ))
                    })?;
                    match text {
                        None => None,
                        Some(text) => Some(parse_value(result, &text).map_err(|e| {
                            e.context(format!("data file `{path}`, partition folder `{column}`"))
                        })?),
                    }
                }
                Transform::Day | Transform::Hour => time_partition(field, md)
                    .map_err(|e| e.context(format!("data file `{path}`")))?,
                Transform::Other(_) => {
                    return Err(Error::unsupported(format!(
                    "data file `{path}`: partition transform `{}` is not one this library writes",
                    field.transform
                )))
                }
            };
            out.push(value);
        }
        Ok(out)
    }
}

/// The text of the folder `<column>=<value>` nearest the file in `path` (percent escapes
/// decoded); `Some(None)` for Hive's null folder; `None` when there is no such folder.
fn hive_value(path: &str, column: &str) -> Option<Option<String>> {
    let mut parts: Vec<&str> = path.split(['/', '\\']).collect();
    parts.pop(); // the file's own name
    parts.iter().rev().find_map(|p| {
        let (k, v) = p.split_once('=')?;
        (percent_decode(k)? == column).then(|| {
            if v == "__HIVE_DEFAULT_PARTITION__" {
                None
            } else {
                percent_decode(v)
            }
        })
    })
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A Hive folder value as a value of `ty` (`string`, `int`, `long`, `date`).
fn parse_value(ty: PrimitiveType, text: &str) -> Result<Literal> {
    let bad = || Error::data(format!("`{text}` is not a {ty}"));
    Ok(match ty {
        PrimitiveType::String => Literal::String(text.to_string()),
        PrimitiveType::Int => Literal::Int(text.parse().map_err(|_| bad())?),
        PrimitiveType::Long => Literal::Long(text.parse().map_err(|_| bad())?),
        PrimitiveType::Date => {
            let b = text.as_bytes();
            let ok = b.len() == 10
                && b[4] == b'-'
                && b[7] == b'-'
                && b.iter()
                    .enumerate()
                    .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
            if !ok {
                return Err(bad());
            }
            let y: i64 = text[..4].parse().map_err(|_| bad())?;
            let m: u32 = text[5..7].parse().map_err(|_| bad())?;
            let d: u32 = text[8..].parse().map_err(|_| bad())?;
            let days = days_from_civil(y, m, d);
            if !(1..=12).contains(&m)
                || d == 0
                || crate::core::values::text::civil_from_days(days) != (y as i128, m, d)
            {
                return Err(bad());
            }
            Literal::Date(i32::try_from(days).map_err(|_| bad())?)
        }
        other => {
            return Err(Error::unsupported(format!(
                "an identity partition of a `{other}` column (string, int, long and date are)"
            )))
        }
    })
}

/// The `day` / `hour` value of a file: its time column's minimum and maximum must fall in
/// the same one; a column of nulls only is null.
fn time_partition(field: &PartitionField, md: &ParquetMetaData) -> Result<Option<Literal>> {
    let schema = md.schema();
    let (i, descr) = schema
        .columns()
        .iter()
        .enumerate()
        .find(|(_, d)| d.field_id == Some(field.source_id) && d.path.parts().len() == 1)
        .ok_or_else(|| {
            Error::schema(format!(
                "no top-level column with field id {} (the source of partition `{}`)",
                field.source_id, field.name
            ))
        })?;
    let column = descr.path.to_string();
    let agg = aggregate(md, i, descr).ok_or_else(|| {
        Error::data(format!(
            "column `{column}` has no statistics in every row group, so partition `{}` is unknown",
            field.name
        ))
    })?;
    let rows = md.num_rows();
    if agg.nulls == Some(rows) {
        return Ok(None);
    }
    if agg.nulls != Some(0) {
        return Err(Error::data(format!(
            "column `{column}` holds nulls and values: its rows are in more than one `{}` partition",
            field.transform
        )));
    }
    let (Some(lo), Some(hi)) = (agg.min.as_ref(), agg.max.as_ref()) else {
        return Err(Error::data(format!(
            "column `{column}` has no usable bounds, so partition `{}` is unknown",
            field.name
        )));
    };
    let to_literal = |s: &crate::core::column::Scalar| -> Option<Literal> {
        let v = s.as_i64()?;
        match descr.effective_logical_type() {
            Some(LogicalType::Date) => Some(Literal::Date(i32::try_from(v).ok()?)),
            Some(LogicalType::Timestamp { unit, .. }) => {
                let micros = match unit {
                    TimeUnit::Millis => v.checked_mul(1000)?,
                    TimeUnit::Micros => v,
                    // nanoseconds floored to microseconds keep their hour and day
                    TimeUnit::Nanos => v.div_euclid(1000),
                    TimeUnit::Unknown(_) => return None,
                };
                Some(Literal::Timestamptz(micros))
            }
            _ => None,
        }
    };
    let unusable = || {
        Error::data(format!(
            "column `{column}` is not a date or timestamp column, the `{}` transform's input",
            field.transform
        ))
    };
    let lo = field
        .transform
        .apply(&to_literal(lo).ok_or_else(unusable)?)
        .ok_or_else(unusable)?;
    let hi = field
        .transform
        .apply(&to_literal(hi).ok_or_else(unusable)?)
        .ok_or_else(unusable)?;
    if lo != hi {
        return Err(Error::data(format!(
            "column `{column}` spans more than one `{}` partition ({lo:?} to {hi:?}): the file \
             cannot be committed to this spec",
            field.transform
        )));
    }
    Ok(Some(lo))
}

/// Whether the identity partition of `ty` is one [`PartitionSpec::partition_values`] can
/// read from a folder name.
pub(crate) fn identity_from_folder(ty: &IcebergType) -> bool {
    matches!(
        ty.as_primitive(),
        Some(
            PrimitiveType::String | PrimitiveType::Int | PrimitiveType::Long | PrimitiveType::Date
        )
    )
}

#[cfg(test)]
mod tests;
